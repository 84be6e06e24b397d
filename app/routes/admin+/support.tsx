import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { PageLinks } from '#app/components/page-links.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'

/**
 * The support inbox (issue 14 §1, decision 039): every member's conversation with Circle 55
 * support, those waiting for an answer first, then the newest. The API decides who may see it
 * (`answer:support`, admins): anyone else gets its 403.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const t = await getT(request, context, 'support')
  const asked = Number(new URL(request.url).searchParams.get('page'))
  const page = Number.isInteger(asked) && asked > 0 ? asked : 1
  const conversations = await getApi(request, context).support.inbox(page).catch(notFoundOnMissing)
  return { conversations, page, title: t('admin.title') }
}

export default function SupportInbox() {
  const { conversations, page } = useLoaderData<typeof loader>()
  const { t, i18n } = useTranslation('support')
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' })
  const { total_pages: totalPages } = conversations.metadata
  return (
    <div className="prose">
      <h1>{t('admin.title')}</h1>
      <p className="lead">{t('admin.intro')}</p>
      {conversations.data.length === 0 ? (
        <p>{t('admin.empty')}</p>
      ) : (
        <ul className="review-list">
          {conversations.data.map((item) => {
            const name = item.member.display_name ?? t('common:member.generic')
            return (
              <li key={item.id} className="card">
                <p>
                  <Link to={`/admin/support/${item.id}`}>{t('admin.open', { name })}</Link>
                </p>
                <p>
                  <strong>{item.is_waiting ? t('admin.waiting') : t('admin.handled')}</strong>
                  {item.last_message_at ? ` · ${date.format(new Date(item.last_message_at))}` : null}
                </p>
                {item.last_message ? (
                  <p className="support-preview">
                    <span className="visually-hidden">{t('admin.lastMessage')}: </span>
                    {item.last_message.from_support ? `${t('name')}: ` : null}
                    {item.last_message.body.length > 200 ? `${item.last_message.body.slice(0, 200)}…` : item.last_message.body}
                  </p>
                ) : null}
              </li>
            )
          })}
        </ul>
      )}
      <PageLinks page={page} totalPages={totalPages} label={t('admin.pages')} previous={t('admin.previous')} next={t('admin.next')} />
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
