import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ActivityForm } from '#app/components/activity-form.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { defaultsFrom } from '#app/utils/activity-defaults.ts'
import { loadExperience, submitActivityForm } from '#app/utils/activity-form.server.ts'
import { knownUser, requireUser } from '#app/utils/auth.server.ts'
import { formPageHeaders, loadFormPage } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'

export const handle = { i18n: ['common', 'activities'] }

export const headers = formPageHeaders

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'activities')
  return loadFormPage(
    context,
    async () => {
      const user = await requireUser(request, context)
      const experience = await loadExperience(request, context, params.id)
      // The API enforces this too; the page only avoids showing a form that cannot be saved.
      if (!experience.viewer?.can_manage) throw data(null, { status: 403 })
      return { isAdmin: user.admin, defaults: defaultsFrom(experience, { keepDate: true }), title: t('form.editTitle') }
    },
    // The database is down: the form is drawn from what the member sent (see keepFormOnOutage).
    () => ({ isAdmin: knownUser(context)?.admin ?? false, defaults: {}, title: t('form.editTitle') }),
  )
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  return submitActivityForm(request, context, { kind: 'edit', id: params.id ?? '' })
}

export default function EditActivity() {
  const { isAdmin, defaults } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('activities')
  return (
    <>
      <h1>{t('form.editTitle')}</h1>
      <ActivityForm lastResult={actionData?.result} matches={actionData?.matches ?? []} defaults={defaults} isAdmin={isAdmin || actionData?.adminOptions === true} submitLabel={t('form.save')} />
    </>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
