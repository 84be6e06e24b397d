import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { smallCountBelow } from '#contract/dashboard-rules.ts'
import { Chart } from '#app/components/charts/chart.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { HostingTotals } from '#app/components/hosting-totals.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { weekWords } from '#app/utils/dashboards.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'

/**
 * `/attending/numbers` (issue 32 §5, decision 082): a host's own activities week by week — the
 * totals in words first, then places booked and people who came, "did not come" and the average
 * rating, each a chart with its table. The API answers the caller's own activities only and hides
 * small counts; the page says why, and says "did not come" without blame. Linked from My
 * activities (hosting), behind the `host-numbers` flag. No JavaScript needed; never kept by a cache
 * (entry.server.tsx).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  // The `host-numbers` flag off for the host (migration 0046): the API answers 404, and so does the page.
  const dashboard = await getApi(request, context).dashboards.hosting().catch(notFoundOnMissing)
  const t = await getT(request, context, 'dashboards')
  return { title: t('host.title'), dashboard, weeks: await weekWords(request, context, dashboard.weeks) }
}

export default function HostingNumbers() {
  const { dashboard, weeks } = useLoaderData<typeof loader>()
  const { t } = useTranslation('dashboards')
  const shared = { categories: weeks.categories, axisLabels: weeks.axis, categoryHeader: t('weekColumn') }
  const column = (pick: (week: (typeof dashboard.weeks)[number]) => number | null) => dashboard.weeks.map(pick)
  return (
    <div className="dashboard">
      <p>
        <Link to="/attending?hosting=true">{t('host.back')}</Link>
      </p>
      <h1>{t('host.title')}</h1>
      <p className="lead">{t('host.intro', { weeks: dashboard.weeks.length })}</p>
      <p>{t('host.privacy')}</p>
      {dashboard.totals.activities === 0 ? (
        <p className="card">{t('host.none')}</p>
      ) : (
        <>
          <HostingTotals totals={dashboard.totals} withNoShows />
          <Chart
            id="hosting-attendance"
            title={t('host.attendance.title')}
            {...shared}
            integer
            series={[
              { label: t('host.attendance.booked'), values: column((week) => week.booked) },
              { label: t('host.attendance.came'), values: column((week) => week.came) },
            ]}
          />
          <Chart
            id="hosting-did-not-come"
            title={t('host.didNotCome.title')}
            description={t('host.didNotCome.description')}
            {...shared}
            integer
            hiddenBelow={smallCountBelow}
            hiddenText={t('fewerThan5')}
            series={[{ label: t('host.didNotCome.series'), values: column((week) => week.did_not_come) }]}
          />
          <Chart
            id="hosting-rating"
            kind="line"
            top={5}
            title={t('host.rating.title')}
            description={t('host.rating.description')}
            {...shared}
            hiddenText={t('fewerThan5')}
            series={[{ label: t('host.rating.series'), values: column((week) => week.average_rating) }]}
          />
        </>
      )}
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
