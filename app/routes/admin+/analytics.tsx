import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Chart, StepBars } from '#app/components/charts/chart.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { weekWords } from '#app/utils/dashboards.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'

/**
 * `/admin/analytics` (issue 32 §5, decision 082): Circle 55 week by week for the team — members
 * (sign-ups, how far onboarding gets, who used it), activities (created, held, who came, the
 * no-show rate), notify lists and reports. Charts drawn on the server, each with its table; no
 * JavaScript needed. The API decides who may (`read:analytics`, every team role); anyone else gets
 * its 403. Like every page, it is never kept by a cache (`private, no-store`, entry.server.tsx).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const dashboard = await getApi(request, context).dashboards.admin().catch(notFoundOnMissing)
  const t = await getT(request, context, 'dashboards')
  return { title: t('admin.title'), dashboard, weeks: await weekWords(request, context, dashboard.weeks) }
}

export default function Analytics() {
  const { dashboard, weeks } = useLoaderData<typeof loader>()
  const { t, i18n } = useTranslation('dashboards')
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 })
  const percent = (value: number) => t('percent', { value: number.format(value) })
  const hours = (value: number) => t('hours', { value: number.format(value) })
  const column = (pick: (week: (typeof dashboard.weeks)[number]) => number | null) => dashboard.weeks.map(pick)
  const shared = { categories: weeks.categories, axisLabels: weeks.axis, categoryHeader: t('weekColumn') }
  const signedUp = dashboard.onboarding[0]?.members ?? 0
  return (
    <div className="dashboard">
      <h1>{t('admin.title')}</h1>
      <p className="lead">{t('admin.intro', { weeks: dashboard.weeks.length })}</p>

      <h2>{t('admin.members')}</h2>
      <Chart id="sign-ups" title={t('admin.signUps.title')} {...shared} integer series={[{ label: t('admin.signUps.series'), values: column((week) => week.sign_ups) }]} />
      <StepBars
        id="onboarding"
        title={t('admin.onboarding.title')}
        description={t('admin.onboarding.description', { count: signedUp })}
        categoryHeader={t('admin.onboarding.column')}
        valueHeader={t('admin.onboarding.series')}
        steps={dashboard.onboarding.map((stage) => ({ label: t(`admin.onboarding.stages.${stage.stage}`), value: stage.members }))}
      />
      <Chart id="active-members" title={t('admin.active.title')} description={t('admin.active.description')} {...shared} integer series={[{ label: t('admin.active.series'), values: column((week) => week.active_members) }]} />

      <h2>{t('admin.activities')}</h2>
      <Chart
        id="activities"
        title={t('admin.created.title')}
        {...shared}
        integer
        series={[
          { label: t('admin.created.created'), values: column((week) => week.activities_created) },
          { label: t('admin.created.held'), values: column((week) => week.activities_held) },
        ]}
      />
      <Chart
        id="attendance"
        title={t('admin.attendance.title')}
        description={t('admin.attendance.description')}
        {...shared}
        integer
        series={[
          { label: t('admin.attendance.came'), values: column((week) => week.came) },
          { label: t('admin.attendance.didNotCome'), values: column((week) => week.did_not_come) },
        ]}
      />
      <Chart id="no-show-rate" kind="line" title={t('admin.noShows.title')} description={t('admin.noShows.description')} {...shared} format={percent} series={[{ label: t('admin.noShows.series'), values: column((week) => week.no_show_rate) }]} />

      <h2>{t('admin.notifyLists')}</h2>
      <Chart id="notify-list-fills" title={t('admin.fills.title')} description={t('admin.fills.description')} {...shared} integer series={[{ label: t('admin.fills.series'), values: column((week) => week.notify_list_fills) }]} />

      <h2>{t('admin.reports')}</h2>
      <p>{t('admin.openReports', { count: dashboard.open_reports })}</p>
      <Chart
        id="reports"
        title={t('admin.reportsChart.title')}
        {...shared}
        integer
        series={[
          { label: t('admin.reportsChart.received'), values: column((week) => week.reports) },
          { label: t('admin.reportsChart.resolved'), values: column((week) => week.reports_resolved) },
        ]}
      />
      <Chart id="response-time" kind="line" title={t('admin.response.title')} description={t('admin.response.description')} {...shared} format={hours} series={[{ label: t('admin.response.series'), values: column((week) => week.median_response_hours) }]} />
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
