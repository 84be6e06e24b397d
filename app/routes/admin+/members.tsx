import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { BreakableText } from '#app/components/ui/breakable-text.tsx'
import { TextField } from '#app/components/ui/field.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'

/**
 * `/admin/members?q=` (issue 32 §2, decision 078): the team finds a member by name or email, and
 * opens their admin page. Every team role (`read:user:admin`); others get the API's 403.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const t = await getT(request, context, 'moderation')
  const q = (new URL(request.url).searchParams.get('q') ?? '').trim().slice(0, 100)
  const found = await getApi(request, context).staff.findMembers(q).catch(notFoundOnMissing)
  return { title: t('admin.members.title'), q, found }
}

export default function Members() {
  const { q, found } = useLoaderData<typeof loader>()
  const { t } = useTranslation('moderation')
  return (
    <div className="prose">
      <h1>{t('admin.members.title')}</h1>
      <Form method="get" role="search">
        <TextField id="q" name="q" type="search" label={t('admin.members.search')} hint={t('admin.members.searchHint')} defaultValue={q} autoComplete="off" spellCheck={false} />
        <button type="submit" className="button">
          {t('admin.members.find')}
        </button>
      </Form>
      {q.length >= 2 ? (
        found.length === 0 ? (
          <p role="status">{t('admin.members.none')}</p>
        ) : (
          <ul className="review-list">
            {found.map((member) => (
              <li key={member.id} className="card" data-testid="admin-member">
                <p>
                  <Link to={`/admin/members/${member.id}`}>{member.name || t('common:member.generic')}</Link>
                </p>
                <p className="hint">
                  <BreakableText text={[member.email, [member.city, member.region].filter(Boolean).join(', ')].filter(Boolean).join(' · ')} />
                </p>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
