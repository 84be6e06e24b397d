import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ActivityForm } from '#app/components/activity-form.tsx'
import { ConfiguredLink } from '#app/components/outside-link.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { submitActivityForm } from '#app/utils/activity-form.server.ts'
import { knownUser, requireUser } from '#app/utils/auth.server.ts'
import { formPageHeaders, loadFormPage } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'

export const headers = formPageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'activities')
  return loadFormPage(
    context,
    async () => ({ isAdmin: (await requireUser(request, context)).admin, title: t('form.createTitle') }),
    () => ({ isAdmin: knownUser(context)?.admin ?? false, title: t('form.createTitle') }),
  )
}

export async function action({ request, context }: ActionFunctionArgs) {
  return submitActivityForm(request, context, { kind: 'create' })
}

export default function CreateActivity() {
  const { isAdmin } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('activities')
  return (
    <>
      <h1>{t('form.createTitle')}</h1>
      <p>{t('form.createIntro')}</p>
      {/* The hosts program (spec §2's outside links, decision 088): by default the help center's article on hosting. */}
      <ConfiguredLink name="hostsProgram">{t('help-center:hostsProgram')}</ConfiguredLink>
      <ActivityForm lastResult={actionData?.result} matches={actionData?.matches ?? []} defaults={{}} isAdmin={isAdmin || actionData?.adminOptions === true} submitLabel={t('form.create')} />
    </>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
