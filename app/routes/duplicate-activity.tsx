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

export const headers = formPageHeaders

const sourceFrom = (request: Request) => new URL(request.url).searchParams.get('from')

/** Spec §2 Duplicate: the form prefilled from an existing activity; a new date is chosen. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'activities')
  return loadFormPage(
    context,
    async () => {
      const user = await requireUser(request, context)
      const source = await loadExperience(request, context, sourceFrom(request))
      return { isAdmin: user.admin, defaults: defaultsFrom(source, { keepDate: false }), title: t('form.duplicateTitle') }
    },
    // The database is down: the form is drawn from what the member sent (see keepFormOnOutage).
    () => ({ isAdmin: knownUser(context)?.admin ?? false, defaults: {}, title: t('form.duplicateTitle') }),
  )
}

export async function action({ request, context }: ActionFunctionArgs) {
  const from = sourceFrom(request)
  if (!from) throw data(null, { status: 404 })
  return submitActivityForm(request, context, { kind: 'duplicate', from })
}

export default function DuplicateActivity() {
  const { isAdmin, defaults } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('activities')
  return (
    <>
      <h1>{t('form.duplicateTitle')}</h1>
      <p>{t('form.duplicateIntro')}</p>
      <ActivityForm lastResult={actionData?.result} matches={actionData?.matches ?? []} defaults={defaults} isAdmin={isAdmin || actionData?.adminOptions === true} submitLabel={t('form.create')} />
    </>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
