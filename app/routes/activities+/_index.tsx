import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useLocation } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { CitySearch } from '#app/components/city-search.tsx'
import { ExperienceCard } from '#app/components/experience-card.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { GuessedPlace } from '#app/components/guessed-place.tsx'
import { SelectField } from '#app/components/ui/field.tsx'
import { dateFilters, distanceFilters } from '#app/utils/date-range.ts'
import { loadExplore } from '#app/utils/explore.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { cookie, ...explore } = await loadExplore(request, context)
  const t = await getT(request, context, 'activities')
  return data({ ...explore, title: t('explore.title') }, { headers: { 'Set-Cookie': cookie, 'Cache-Control': 'private, no-store' } })
}

export default function Explore() {
  const { date, distance, place, guessed, locationDenied, matches, placeError, hasOrigin, range, nextDate, experiences, page, query } = useLoaderData<typeof loader>()
  const { t } = useTranslation('activities')
  const location = useLocation()
  const { total_pages: totalPages, total_count: totalCount } = experiences.metadata
  const pageLink = (target: number) => {
    const params = new URLSearchParams(location.search)
    params.set('page', String(target))
    return `?${params.toString()}#results`
  }
  const nextLink = `/activities?${new URLSearchParams({ date: nextDate, distance, ...(place ? { place: place.id } : {}) }).toString()}#results`
  // With JavaScript the choices are also kept in local storage (spec §2).
  useEffect(() => {
    window.localStorage.setItem('explore-filters', JSON.stringify({ date, distance }))
  }, [date, distance])
  const results = useTakeToResults(location.key, location.hash)
  const count = totalCount ?? experiences.data.length
  return (
    <>
      <h1>{t('explore.title')}</h1>
      {/* Issue 29 §4: after a search the page opens at the results (without JavaScript too: the
          browser keeps the address's #results), not at the top of the form on a phone. */}
      <Form method="get" action="/activities#results" className="filters" aria-label={t('filters.label')}>
        <SelectField id="date" name="date" label={t('filters.date')} defaultValue={date} options={dateFilters.map((value) => ({ value, label: t(`dates.${value}`) }))} />
        <SelectField
          id="distance"
          name="distance"
          label={t('filters.distance')}
          defaultValue={distance}
          options={distanceFilters.map((value) => ({ value, label: value === '100' ? t('distances.any') : t('distances.miles', { count: Number(value) }) }))}
        />
        <CitySearch key={place?.id ?? query} defaultLabel={place?.label ?? query} defaultPlaceId={place?.id ?? null} searchOnLocate />
        <div className="field">
          <SubmitButton pending="searching" className="button">
            {t('filters.submit')}
          </SubmitButton>
        </div>
      </Form>
      <div role="status">
        {locationDenied ? <p className="hint">{t('filters.locationDenied')}</p> : null}
        {guessed && place ? <GuessedPlace label={place.label} /> : null}
      </div>
      {placeError ? (
        <div className="notice notice--error" role="alert">
          <p>{t('common:errors.unknown_place')}</p>
        </div>
      ) : null}
      {matches.length > 0 ? (
        <div className="notice">
          <p>{t('explore.otherMatches')}</p>
          <ul>
            {matches.map((match) => (
              <li key={match.id}>
                <Link to={`?date=${date}&distance=${distance}&place=${encodeURIComponent(match.id)}#results`}>{match.label}</Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <h2 id="results" tabIndex={-1} ref={results} className="results-heading">
        {place ? t('explore.countNear', { count, place: place.label }) : t('explore.count', { count })}
      </h2>
      {range ? (
        <p>{range.from === range.to ? t('explore.rangeDay', { filter: t(`dates.${date}`), day: range.from }) : t('explore.range', { filter: t(`dates.${date}`), from: range.from, to: range.to })}</p>
      ) : null}
      {!hasOrigin ? <p>{t('explore.chooseCity')}</p> : null}
      {experiences.data.length === 0 ? (
        <div className="card">
          {/* Nothing left in the chosen days: the next days are one press away (issue 29 §4). */}
          <h3>{date !== 'any-day' ? t(`explore.nothingLeft.${date}`) : t('explore.emptyTitle')}</h3>
          {date !== 'any-day' ? (
            <p>
              <Link to={nextLink} className="button">
                {t(`explore.seeNext.${nextDate}`)}
              </Link>
            </p>
          ) : null}
          <p>{t('explore.emptyBody')}</p>
          <Link to="/activities?date=any-day&distance=100#results">{t('explore.widen')}</Link>
        </div>
      ) : (
        <ul className="experience-list">
          {experiences.data.map((experience) => (
            <li key={experience.id}>
              <ExperienceCard experience={experience} />
            </li>
          ))}
        </ul>
      )}
      {totalPages > 1 ? (
        <nav className="pagination" aria-label={t('pagination.label')}>
          {page > 1 ? <Link to={pageLink(page - 1)}>{t('pagination.previous')}</Link> : <span />}
          <span>{t('pagination.status', { page, total: totalPages })}</span>
          {page < totalPages ? <Link to={pageLink(page + 1)}>{t('pagination.next')}</Link> : <span />}
        </nav>
      ) : null}
    </>
  )
}

/**
 * With JavaScript, a search (or a page of results) that goes to #results moves focus to the
 * results heading, as the browser does without JavaScript, so a screen reader reads the count and
 * a phone shows the results. Not on the first render: the browser already went there.
 */
function useTakeToResults(key: string, hash: string) {
  const heading = useRef<HTMLHeadingElement>(null)
  const first = useRef(true)
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    if (hash === '#results') heading.current?.focus()
  }, [key, hash])
  return heading
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
