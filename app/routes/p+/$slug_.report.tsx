import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { ReportForm } from '#app/components/report-form.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formPageHeaders, loadFormPage } from '#app/utils/forms.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { reportAction } from '#app/utils/report-form.server.ts'

export const headers = formPageHeaders

async function loadMember(request: Request, context: LoaderFunctionArgs['context'], slug: string | undefined) {
  await requireUser(request, context)
  return getApi(request, context).members.profile(slug ?? '').catch(notFoundOnMissing)
}

/** `/p/{slug}/report`: report a member to the moderators (works without JavaScript). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, ['members', 'common'])
  return loadFormPage(
    context,
    async () => {
      const member = await loadMember(request, context, params.slug)
      return { slug: member.slug, name: member.display_name ?? t('common:member.generic'), title: t('members:report.title') }
    },
    // The database is down: the form is drawn from what the member sent (see keepFormOnOutage).
    () => ({ slug: params.slug ?? '', name: null, title: t('members:report.title') }),
  )
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  return reportAction({ request, context }, async () => {
    const member = await loadMember(request, context, params.slug)
    return {
      target: { user_id: member.id },
      redirectTo: `/p/${member.slug}`,
      toastKey: 'members:report.done',
      blockedToastKey: 'moderation:report.doneBlocked',
    }
  })
}

export default function ReportMember() {
  const { slug, name } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation(['members', 'moderation'])
  return (
    <ReportForm
      title={t('report.title')}
      intro={name ? t('report.intro', { name }) : null}
      lastResult={lastResult}
      back={{ to: `/p/${slug}`, label: t('report.back') }}
      blockLabel={name ? { label: t('moderation:report.block', { name }), hint: t('moderation:report.blockHint', { name }) } : null}
    />
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
