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

async function loadSource(request: Request, context: LoaderFunctionArgs['context']) {
  const from = new URL(request.url).searchParams.get('from')
  if (!from) throw data(null, { status: 404 })
  const result = await getApi(request, context)
    .get(`v1/experiences/${encodeURIComponent(from)}`, { schema: listOf(experienceSchema) })
    .catch(notFoundOnMissing)
  const source = result.data[0]
  if (!source) throw data(null, { status: 404 })
  return source
}

/** Spec §2 Duplicate: the form prefilled from an existing activity; a new date is chosen. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context)
  const source = await loadSource(request, context)
  const t = await getT(request, context, 'activities')
  return { isAdmin: user.admin, defaults: defaultsFrom(source, { keepDate: false }), title: t('form.duplicateTitle') }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context)
  const source = await loadSource(request, context)
  return submitActivityForm(request, context, { kind: 'duplicate', sourceId: source.id }, user.admin)
}

export default function DuplicateActivity() {
  const { isAdmin, defaults } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('activities')
  return (
    <>
      <h1>{t('form.duplicateTitle')}</h1>
      <p>{t('form.duplicateIntro')}</p>
      <ActivityForm lastResult={actionData?.result} matches={actionData?.matches ?? []} defaults={defaults} isAdmin={isAdmin} submitLabel={t('form.create')} />
    </>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)
