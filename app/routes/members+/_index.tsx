import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { MemberPhoto, ProfileSummary } from '#app/components/member-summary.tsx'
import { VerifiedBadge } from '#app/components/verified-badge.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { unavailableOnServerError } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { pageFrom } from '#app/utils/paging.server.ts'
import { maxMemberSearchLength } from '#contract/limits.ts'
import type { MemberSuggestion } from '#contract/members.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'

/** `/members`: people met at activities, and members near by who share an interest (issue 13 §3). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context)
  const url = new URL(request.url)
  const page = pageFrom(url)
  // A longer name matches nobody: it is cut rather than refused, so the page always answers.
  const name = (url.searchParams.get('name') ?? '').trim().slice(0, maxMemberSearchLength)
  const [members, t] = await Promise.all([
    getApi(request, context).members.list({ page, name }).catch(unavailableOnServerError),
    getT(request, context, 'members'),
  ])
  return { members, page, name, hasHome: user.lat !== null && user.long !== null, title: t('list.title') }
}

export default function Members() {
  const { members, page, name, hasHome } = useLoaderData<typeof loader>()
  const { t } = useTranslation('members')
  const met = members.data.filter((member) => member.reason === 'attended_with')
  const nearby = members.data.filter((member) => member.reason === 'nearby')
  const totalPages = members.metadata.total_pages
  const link = (to: number) => {
    const params = new URLSearchParams()
    if (name) params.set('name', name)
    if (to > 1) params.set('page', String(to))
    const query = params.toString()
    return query ? `/members?${query}` : '/members'
  }
  return (
    <>
      <h1>{t('list.title')}</h1>
      <p className="lead">{t('list.intro')}</p>
      <Form method="get" className="filters" role="search">
        <div className="field">
          <label htmlFor="name">{t('list.searchLabel')}</label>
          <span className="hint" id="name-hint">
            {t('list.searchHint')}
          </span>
          <input id="name" name="name" type="search" defaultValue={name} maxLength={maxMemberSearchLength} autoComplete="off" aria-describedby="name-hint" />
        </div>
        <div className="button-row">
          <SubmitButton pending="searching" className="button">
            {t('list.search')}
          </SubmitButton>
          {name ? (
            <Link to="/members" className="button button--secondary">
              {t('list.clear')}
            </Link>
          ) : null}
        </div>
      </Form>
      {name ? <p role="status">{t('list.results', { name })}</p> : null}
      {members.data.length === 0 ? (
        <div className="card">
          {name ? (
            <p>{t('list.noMatch', { name })}</p>
          ) : (
            <>
              <h2>{t('list.empty')}</h2>
              <p>{t('list.emptyHint')}</p>
              <p>
                <Link to="/activities">{t('list.explore')}</Link>
              </p>
            </>
          )}
        </div>
      ) : null}
      {met.length > 0 ? <MemberSection id="met" title={t('list.metHeading')} members={met} /> : null}
      {nearby.length > 0 ? <MemberSection id="nearby" title={t('list.nearbyHeading')} members={nearby} /> : null}
      {hasHome ? null : (
        <div className="notice">
          <p>{t('list.noLocation')}</p>
          <p>
            <Link to="/account/edit">{t('list.addLocation')}</Link>
          </p>
        </div>
      )}
      {totalPages > 1 ? (
        <nav className="pagination" aria-label={t('pagination.label')}>
          {page > 1 ? <Link to={link(page - 1)}>{t('pagination.previous')}</Link> : <span />}
          <span>{t('pagination.status', { page, total: totalPages })}</span>
          {page < totalPages ? <Link to={link(page + 1)}>{t('pagination.next')}</Link> : <span />}
        </nav>
      ) : null}
    </>
  )
}

function MemberSection({ id, title, members }: { id: string; title: string; members: MemberSuggestion[] }) {
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <ul className="member-list">
        {members.map((member) => (
          <li key={member.id}>
            <MemberCard member={member} />
          </li>
        ))}
      </ul>
    </section>
  )
}

function MemberCard({ member }: { member: MemberSuggestion }) {
  const { t } = useTranslation(['members', 'profile', 'common'])
  const name = member.display_name ?? t('common:member.generic')
  return (
    <article className="card member-card">
      <MemberPhoto member={member} name={name} size="small" />
      <div>
        <h3>
          <Link to={`/p/${member.slug}`}>{name}</Link>
        </h3>
        {member.is_verified ? (
          <p>
            <VerifiedBadge />
          </p>
        ) : null}
        <ProfileSummary member={member} />
        {member.activities_in_common > 0 ? <p>{t('members:list.together', { count: member.activities_in_common })}</p> : null}
        {member.shared_interests.length > 0 ? (
          <p>{t('members:list.shared', { interests: member.shared_interests.map((key) => t(`profile:interests.${key}`)).join(', ') })}</p>
        ) : null}
      </div>
    </article>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
