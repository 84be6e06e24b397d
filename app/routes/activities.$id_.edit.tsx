import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { listOf } from '#app/utils/api.server.ts'
import { ActivityForm } from '#app/components/activity-form.tsx'
import { defaultsFrom } from '#app/utils/activity-defaults.ts'
import { submitActivityForm } from '#app/utils/activity-form.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { experienceSchema } from '#app/utils/experience-schema.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'

export const handle = { i18n: ['common', 'activities'] }

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context)
  const result = await getApi(request, context)
    .get(`v1/experiences/${encodeURIComponent(params.id ?? '')}`, { schema: listOf(experienceSchema) })
    .catch(notFoundOnMissing)
  const experience = result.data[0]
  if (!experience) throw data(null, { status: 404 })
  // The API enforces this too; the page only avoids showing a form that cannot be saved.
  if (!experience.viewer?.can_manage) throw data(null, { status: 403 })
  const t = await getT(request, context, 'activities')
  return { id: experience.id, isAdmin: user.admin, defaults: defaultsFrom(experience, { keepDate: true }), title: t('form.editTitle') }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context)
  return submitActivityForm(request, context, { kind: 'edit', id: params.id ?? '' }, user.admin)
}

export default function EditActivity() {
  const { isAdmin, defaults } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('activities')
  return (
    <>
      <h1>{t('form.editTitle')}</h1>
      <ActivityForm lastResult={actionData?.result} matches={actionData?.matches ?? []} defaults={defaults} isAdmin={isAdmin} submitLabel={t('form.save')} />
    </>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)
