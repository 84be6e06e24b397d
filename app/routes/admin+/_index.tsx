import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { requireUser } from '#app/utils/auth.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'

/**
 * `/admin`: the team's start page, linking to the tools. Members who are not admins get a 404
 * (the tools themselves are guarded by the API: `review:verification`, `review:reports`, `answer:support`).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context)
  if (!user.admin) throw new Response(null, { status: 404 })
  const t = await getT(request, context, 'moderation')
  return { title: t('admin.home.title') }
}

export default function AdminHome() {
  useLoaderData<typeof loader>()
  const { t } = useTranslation('moderation')
  return (
    <div className="prose">
      <h1>{t('admin.home.title')}</h1>
      <p className="lead">{t('admin.home.intro')}</p>
      <ul className="review-list">
        <li className="card">
          <p>
            <Link to="/admin/reports">{t('admin.home.reports')}</Link>
          </p>
          <p className="hint">{t('admin.home.reportsHint')}</p>
        </li>
        <li className="card">
          <p>
            <Link to="/admin/support">{t('admin.home.support')}</Link>
          </p>
          <p className="hint">{t('admin.home.supportHint')}</p>
        </li>
        <li className="card">
          <p>
            <Link to="/admin/verifications">{t('admin.home.verifications')}</Link>
          </p>
          <p className="hint">{t('admin.home.verificationsHint')}</p>
        </li>
        <li className="card">
          <p>
            <Link to="/admin/payments">{t('admin.home.payments')}</Link>
          </p>
          <p className="hint">{t('admin.home.paymentsHint')}</p>
        </li>
        <li className="card">
          <p>
            <Link to="/admin/partners">{t('subscriptions:admin.title')}</Link>
          </p>
          <p className="hint">{t('subscriptions:admin.hint')}</p>
        </li>
      </ul>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
