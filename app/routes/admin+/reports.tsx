import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { PageLinks } from '#app/components/page-links.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { ReportFacts, Snapshot, useReportTitle } from './__report-parts.tsx'

/**
 * The report queue (issue 14 §5, decision 037): open reports, the most-reported member (or
 * content) first, then the newest, each with what was reported. The API decides who may see it
 * (`review:reports`, admins): anyone else gets its 403.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const t = await getT(request, context, 'moderation')
  const asked = Number(new URL(request.url).searchParams.get('page'))
  const page = Number.isInteger(asked) && asked > 0 ? asked : 1
  const reports = await getApi(request, context).moderation.queue(page).catch(notFoundOnMissing)
  return { reports, page, title: t('admin.queue.title') }
}

export default function ReportQueue() {
  const { reports, page } = useLoaderData<typeof loader>()
  const { t } = useTranslation('moderation')
  const titleOf = useReportTitle()
  const { total_pages: totalPages } = reports.metadata
  return (
    <div className="prose">
      <h1>{t('admin.queue.title')}</h1>
      <p className="lead">{t('admin.queue.intro')}</p>
      {reports.data.length === 0 ? (
        <p>{t('admin.queue.empty')}</p>
      ) : (
        <ul className="review-list">
          {reports.data.map((report) => (
            <li key={report.id} className="card">
              <h2>
                <Link to={`/admin/reports/${report.id}`}>{titleOf(report)}</Link>
              </h2>
              {report.open_reports > 1 ? <p className="notice">{t('admin.queue.count', { count: report.open_reports })}</p> : null}
              <ReportFacts report={report} />
              <Snapshot snapshot={report.snapshot} messageRemoved={report.message_removed} />
            </li>
          ))}
        </ul>
      )}
      <PageLinks page={page} totalPages={totalPages} label={t('admin.queue.pages')} previous={t('admin.queue.previous')} next={t('admin.queue.next')} />
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
