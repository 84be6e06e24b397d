import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { HostDashboard } from '#contract/dashboards.ts'
import { ExperienceCard } from '#app/components/experience-card.tsx'
import { HostingTotals } from '#app/components/hosting-totals.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import type { Experience } from '#app/utils/experience.ts'
import { ignoreUnlessUnavailable } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageFrom } from '#app/utils/paging.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { useCancellation } from '#app/utils/use-cancellation.ts'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context)
  const url = new URL(request.url)
  const type = url.searchParams.get('type') === 'past' ? 'past' : 'upcoming'
  const hosting = url.searchParams.get('hosting') === 'true'
  const page = pageFrom(url)
  const api = getApi(request, context)
  // Hosting: the host's own activities in numbers too, in words, with a link to the charts (decision
  // 082); an extra: the list stands without it, as when the `host-numbers` flag is off (the API's 404);
  // the API reports its own failures, and an API that is down gives the 503 page at once.
  const [experiences, numbers] = await Promise.all([api.users.experiences(user.id, { type, hosting, page }), hosting ? api.dashboards.hosting().catch(ignoreUnlessUnavailable) : null])
  const t = await getT(request, context, 'activities')
  return { experiences, type, hosting, page, numbers, title: t('attending.title') }
}

export default function Attending() {
  const { experiences, type, hosting, page, numbers } = useLoaderData<typeof loader>()
  const { t } = useTranslation('activities')
  const link = (next: { type?: string; hosting?: boolean; page?: number }) => {
    const params = new URLSearchParams()
    params.set('type', next.type ?? type)
    if (next.hosting ?? hosting) params.set('hosting', 'true')
    if (next.page && next.page > 1) params.set('page', String(next.page))
    return `/attending?${params.toString()}`
  }
  const totalPages = experiences.metadata.total_pages
  return (
    <>
      <h1>{t('attending.title')}</h1>
      <nav aria-label={t('attending.views')}>
        {/* Links side by side, not list items: a flex list item keeps its bullet (issue 12 §5). */}
        <div className="button-row">
          <Link to={link({ type: 'upcoming' })} aria-current={type === 'upcoming' ? 'page' : undefined} className={type === 'upcoming' ? 'button' : 'button button--secondary'}>
            {t('attending.upcoming')}
          </Link>
          <Link to={link({ type: 'past' })} aria-current={type === 'past' ? 'page' : undefined} className={type === 'past' ? 'button' : 'button button--secondary'}>
            {t('attending.past')}
          </Link>
          <Link to={link({ hosting: !hosting })} className="button button--link">
            {hosting ? t('attending.showAll') : t('attending.onlyHosting')}
          </Link>
        </div>
      </nav>
      {experiences.data.length === 0 ? (
        <div className="card">
          <h2>{t(type === 'past' ? 'attending.emptyPast' : 'attending.emptyUpcoming')}</h2>
          <Link to="/activities">{t('attending.find')}</Link>
        </div>
      ) : (
        <ul className="experience-list">
          {experiences.data.map((experience) => (
            <li key={experience.id}>
              <AttendingCard experience={experience} />
            </li>
          ))}
        </ul>
      )}
      {totalPages > 1 ? (
        <nav className="pagination" aria-label={t('pagination.label')}>
          {page > 1 ? <Link to={link({ page: page - 1 })}>{t('pagination.previous')}</Link> : <span />}
          <span>{t('pagination.status', { page, total: totalPages })}</span>
          {page < totalPages ? <Link to={link({ page: page + 1 })}>{t('pagination.next')}</Link> : <span />}
        </nav>
      ) : null}
      {numbers && numbers.totals.activities > 0 ? <HostingSummary totals={numbers.totals} weeks={numbers.weeks.length} /> : null}
    </>
  )
}

/** "Your activities in numbers": the host's totals in words, and the way to the charts week by week. */
function HostingSummary({ totals, weeks }: { totals: HostDashboard['totals']; weeks: number }) {
  const { t } = useTranslation('dashboards')
  return (
    <section aria-labelledby="hosting-numbers" className="card">
      <h2 id="hosting-numbers">{t('host.heading')}</h2>
      <p>{t('host.intro', { weeks })}</p>
      <HostingTotals totals={totals} />
      <p>
        <Link to="/attending/numbers">{t('host.link')}</Link>
      </p>
    </section>
  )
}

/**
 * An activity with where the member stands, as the API says it: cancelled (by whom, when), hosting,
 * going, or their place on the notify list.
 */
function AttendingCard({ experience }: { experience: Experience }) {
  const { t } = useTranslation('activities')
  const canceled = useCancellation(experience)
  const viewer = experience.viewer
  const status =
    canceled ??
    (viewer?.is_host
      ? t('attending.hosting')
      : viewer?.is_attending
        ? t('attending.going')
        : viewer?.waitlist_position
          ? t('attending.onWaitlist', { position: viewer.waitlist_position })
          : undefined)
  return <ExperienceCard experience={experience} status={status} />
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
