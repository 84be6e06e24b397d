import { Fragment } from 'react'
import { useTranslation } from 'react-i18next'
import type { HostDashboard } from '#contract/dashboards.ts'

/**
 * A host's numbers over the weeks shown, in words (decision 082): how many activities, places
 * booked, people who came, and the average rating with how many gave one. A number hidden by the
 * API (fewer than 5) is said as such; "did not come" only where `withNoShows` asks for it — the
 * summary on My activities leaves it out.
 */
export function HostingTotals({ totals, withNoShows = false }: { totals: HostDashboard['totals']; withNoShows?: boolean }) {
  const { t, i18n } = useTranslation('dashboards')
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 })
  const rows: Array<[string, string]> = [
    [t('host.totals.activities'), number.format(totals.activities)],
    [t('host.totals.booked'), number.format(totals.booked)],
    [t('host.totals.came'), number.format(totals.came)],
  ]
  if (withNoShows) rows.push([t('host.totals.didNotCome'), totals.did_not_come === null ? t('fewerThan5') : number.format(totals.did_not_come)])
  rows.push([
    t('host.totals.rating'),
    totals.average_rating === null || totals.ratings === null ? t('host.notEnoughRatings') : t('host.ratingValue', { value: number.format(totals.average_rating), count: totals.ratings }),
  ])
  return (
    <dl className="details dashboard-totals">
      {rows.map(([term, value]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  )
}
