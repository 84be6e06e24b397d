import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useLocation } from '@remix-run/react'
import { useEffect } from 'react'
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

export const handle = { i18n: ['common', 'activities'] }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { cookie, ...explore } = await loadExplore(request, context)
  const t = await getT(request, context, 'activities')
  return data({ ...explore, title: t('explore.title') }, { headers: { 'Set-Cookie': cookie, 'Cache-Control': 'private, no-store' } })
}

export default function Explore() {
  const { date, distance, place, guessed, matches, placeError, hasOrigin, experiences, page, query } = useLoaderData<typeof loader>()
  const { t } = useTranslation('activities')
  const location = useLocation()
  const { total_pages: totalPages, total_count: totalCount } = experiences.metadata
  const pageLink = (target: number) => {
    const params = new URLSearchParams(location.search)
    params.set('page', String(target))
    return `?${params.toString()}`
  }
  // With JavaScript the choices are also kept in local storage (spec §2).
  useEffect(() => {
    window.localStorage.setItem('explore-filters', JSON.stringify({ date, distance }))
  }, [date, distance])
  return (
    <>
      <h1>{t('explore.title')}</h1>
      <Form method="get" className="filters" aria-label={t('filters.label')}>
        <SelectField id="date" name="date" label={t('filters.date')} defaultValue={date} options={dateFilters.map((value) => ({ value, label: t(`dates.${value}`) }))} />
        <SelectField
          id="distance"
          name="distance"
          label={t('filters.distance')}
          defaultValue={distance}
          options={distanceFilters.map((value) => ({ value, label: value === '100' ? t('distances.any') : t('distances.miles', { count: Number(value) }) }))}
        />
        <CitySearch key={place?.id ?? query} defaultLabel={place?.label ?? query} defaultPlaceId={place?.id ?? null} />
        <div className="field">
          <button type="submit" className="button">
            {t('filters.submit')}
          </button>
        </div>
      </Form>
      {guessed && place ? <GuessedPlace label={place.label} /> : null}
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
                <Link to={`?date=${date}&distance=${distance}&place=${encodeURIComponent(match.id)}`}>{match.label}</Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p role="status">
        {place ? t('explore.countNear', { count: totalCount ?? experiences.data.length, place: place.label }) : t('explore.count', { count: totalCount ?? experiences.data.length })}
        {!hasOrigin ? ` ${t('explore.chooseCity')}` : null}
      </p>
      {experiences.data.length === 0 ? (
        <div className="card">
          <h2>{t('explore.emptyTitle')}</h2>
          <p>{t('explore.emptyBody')}</p>
          <Link to="/activities?date=any-day&distance=100">{t('explore.widen')}</Link>
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

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
