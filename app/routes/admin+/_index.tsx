import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { StaffOverview, StaffTool } from '#contract/staff.ts'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'

/**
 * `/admin`: the team's start page (issue 32 §1, decision 077). The tools the caller's role may use,
 * as the API's policy says (`GET v1/admin/overview`), each with how many items wait in it. Members
 * who are not on the team get a 404.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context)
  if (!user.staff_role) throw new Response(null, { status: 404 })
  const t = await getT(request, context, 'moderation')
  return { title: t('admin.home.title'), overview: await getApi(request, context).staff.overview() }
}

/** Each tool's page, its words, and the count that says what waits there. */
const toolPages: Record<StaffTool, { href: string; label: string; hint: string; waiting?: keyof StaffOverview['attention'] }> = {
  members: { href: '/admin/members', label: 'admin.home.members', hint: 'admin.home.membersHint' },
  reports: { href: '/admin/reports', label: 'admin.home.reports', hint: 'admin.home.reportsHint', waiting: 'reports' },
  verifications: { href: '/admin/verifications', label: 'admin.home.verifications', hint: 'admin.home.verificationsHint', waiting: 'verifications' },
  support: { href: '/admin/support', label: 'admin.home.support', hint: 'admin.home.supportHint', waiting: 'support' },
  payments: { href: '/admin/payments', label: 'admin.home.payments', hint: 'admin.home.paymentsHint', waiting: 'disputes' },
  partners: { href: '/admin/partners', label: 'subscriptions:admin.title', hint: 'subscriptions:admin.hint' },
  medicare: { href: '/admin/medicare', label: 'medicare:admin.tool', hint: 'medicare:admin.toolHint' },
  staff: { href: '/admin/staff', label: 'admin.home.staff', hint: 'admin.home.staffHint' },
  flags: { href: '/admin/flags', label: 'admin.home.flags', hint: 'admin.home.flagsHint' },
  banners: { href: '/admin/banners', label: 'banners:admin.tool', hint: 'banners:admin.toolHint' },
  analytics: { href: '/admin/analytics', label: 'dashboards:admin.tool', hint: 'dashboards:admin.toolHint' },
  audit: { href: '/admin/audit', label: 'admin.home.audit', hint: 'admin.home.auditHint' },
}

export default function AdminHome() {
  const { overview } = useLoaderData<typeof loader>()
  const { t } = useTranslation('moderation')
  return (
    <div className="prose">
      <h1>{t('admin.home.title')}</h1>
      <p className="lead">{t('admin.home.intro')}</p>
      <p>{t('admin.home.yourRole', { role: t(`admin.roles.${overview.role}`) })}</p>
      <ul className="review-list">
        {overview.tools.map((tool) => {
          const page = toolPages[tool]
          const count = page.waiting ? overview.attention[page.waiting] : undefined
          return (
            <li className="card" key={tool} data-testid={`tool-${tool}`}>
              <p>
                <Link to={page.href}>{t(page.label)}</Link>
              </p>
              <p className="hint">{t(page.hint)}</p>
              {count === undefined ? null : <p className={count > 0 ? 'attention' : undefined}>{count > 0 ? t(`admin.home.count.${page.waiting}`, { count }) : t('admin.home.nothing')}</p>}
            </li>
          )
        })}
      </ul>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
