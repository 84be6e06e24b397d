import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { ReportForm } from '#app/components/report-form.tsx'
import { loadExperience } from '#app/utils/activity-form.server.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import type { Experience } from '#app/utils/experience.ts'
import { formPageHeaders, loadFormPage } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { reportAction } from '#app/utils/report-form.server.ts'

export const headers = formPageHeaders

/**
 * The host the reporter may also block in the same step (issue 14 §4, decision 041): a named
 * member host who is not the reporter (not a hostless activity, not the team's, not a host whose
 * account is gone).
 */
function blockableHost(experience: Experience, userId: string) {
  const host = experience.host
  if (experience.is_hostless || !host?.display_name || host.id === userId) return null
  return { name: host.display_name }
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'reports')
  return loadFormPage(
    context,
    async () => {
      const user = await requireUser(request, context)
      const experience = await loadExperience(request, context, params.id)
      return { id: experience.id, activityTitle: experience.title, host: blockableHost(experience, user.id), title: t('title') }
    },
    // The database is down: the form is drawn from what the member sent (see keepFormOnOutage).
    () => ({ id: params.id ?? '', activityTitle: null, host: null, title: t('title') }),
  )
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  return reportAction({ request, context }, async () => {
    const experience = await loadExperience(request, context, params.id)
    return {
      target: { experience_id: experience.id },
      redirectTo: `/activities/${experience.id}`,
      toastKey: 'activities:toast.reported',
      // "Also block the host": the API blocks the activity's host in the same step (decision 037).
      blockedToastKey: 'activities:toast.reportedBlocked',
    }
  })
}

export default function ReportActivity() {
  const { id, activityTitle, host } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation(['reports', 'moderation'])
  return (
    <ReportForm
      title={t('title')}
      intro={activityTitle ? t('intro', { title: activityTitle }) : null}
      lastResult={lastResult}
      back={{ to: `/activities/${id}`, label: t('back') }}
      blockLabel={host ? { label: t('blockHost', { name: host.name }), hint: t('moderation:report.blockHint', { name: host.name }) } : null}
    />
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
