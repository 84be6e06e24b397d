import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { PageLinks } from '#app/components/page-links.tsx'
import { BreakableText } from '#app/components/ui/breakable-text.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'

/**
 * The ID verification review queue (decision 025): pending requests, oldest first. The API
 * decides who may see it (`review:verification`, admins): anyone else gets its 404.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const t = await getT(request, context, 'verification')
  const asked = Number(new URL(request.url).searchParams.get('page'))
  const page = Number.isInteger(asked) && asked > 0 ? asked : 1
  const requests = await getApi(request, context).verification.pending(page).catch(notFoundOnMissing)
  return { requests, page, title: t('admin.title') }
}

export default function VerificationQueue() {
  const { requests, page } = useLoaderData<typeof loader>()
  const { t, i18n } = useTranslation('verification')
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeZone: 'UTC' })
  const { total_pages: totalPages } = requests.metadata
  return (
    <div className="prose">
      <h1>{t('admin.title')}</h1>
      <p className="lead">{t('admin.intro')}</p>
      {requests.data.length === 0 ? (
        <p>{t('admin.empty')}</p>
      ) : (
        <ul className="review-list">
          {requests.data.map((item) => (
            <li key={item.id} className="card">
              <p>
                <Link to={`/admin/verifications/${item.id}`}>{t('admin.open', { name: item.user.name })}</Link>
              </p>
              <dl className="details">
                <dt>{t('admin.email')}</dt>
                <dd>{item.user.email ? <BreakableText text={item.user.email} /> : '—'}</dd>
                <dt>{t('admin.sent')}</dt>
                <dd>{date.format(new Date(item.created_at))}</dd>
              </dl>
            </li>
          ))}
        </ul>
      )}
      <PageLinks page={page} totalPages={totalPages} label={t('admin.title')} previous={t('admin.previous')} next={t('admin.next')} />
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
