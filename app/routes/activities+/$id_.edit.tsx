import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
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

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'activities')
  return loadFormPage(
    context,
    async () => {
      const user = await requireUser(request, context)
      const experience = await loadExperience(request, context, params.id)
      // The API enforces this too; the page only avoids showing a form that cannot be saved.
      if (!experience.viewer?.can_manage) throw data(null, { status: 403 })
      // Begun or cancelled: it can no longer change (the API refuses it too), so no form (issue 29 §4).
      const closed = experience.canceled_at ? ('canceled' as const) : experience.is_past ? ('past' as const) : null
      return { isAdmin: user.admin, defaults: defaultsFrom(experience, { keepDate: true }), title: t('form.editTitle'), closed, id: experience.id }
    },
    // The database is down: the form is drawn from what the member sent (see keepFormOnOutage).
    () => ({ isAdmin: knownUser(context)?.admin ?? false, defaults: {}, title: t('form.editTitle'), closed: null, id: params.id ?? '' }),
  )
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  return submitActivityForm(request, context, { kind: 'edit', id: params.id ?? '' })
}

export default function EditActivity() {
  const { isAdmin, defaults, closed, id } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('activities')
  if (closed) {
    return (
      <div className="prose">
        <h1>{t('form.editTitle')}</h1>
        <p>{t(closed === 'past' ? 'form.closedPast' : 'form.closedCanceled')}</p>
        <p className="button-row">
          <Link to={`/duplicate-activity?from=${encodeURIComponent(id)}`} className="button">
            {t('host.duplicate')}
          </Link>
          <Link to={`/activities/${encodeURIComponent(id)}`} className="button button--secondary">
            {t('form.backToActivity')}
          </Link>
        </p>
      </div>
    )
  }
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
