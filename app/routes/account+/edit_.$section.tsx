import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ErrorSummary } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { knownUser, requireUser } from '#app/utils/auth.server.ts'
import { formPageHeaders, loadFormPage } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { isProfileSection, sectionAnchor, type ProfileSection } from '#app/utils/profile-sections.ts'
import { SectionForm, summaryOf } from './__profile-sections.tsx'
import { saveSection } from './edit.server.ts'

export const headers = formPageHeaders

/** The section named in the address; any other name is a page that does not exist. */
function sectionOf(params: LoaderFunctionArgs['params']): ProfileSection {
  if (!isProfileSection(params.section)) throw data(null, { status: 404 })
  return params.section
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const section = sectionOf(params)
  const t = await getT(request, context, 'profile')
  const title = t(`edit.${section}.heading`)
  return loadFormPage(
    context,
    async () => ({ section, user: await requireUser(request, context), title }),
    // The database is down: the page is drawn from what the member sent (see keepFormOnOutage).
    () => ({ section, user: knownUser(context), title }),
  )
}

export async function action(args: ActionFunctionArgs) {
  return saveSection(args, sectionOf(args.params))
}

/**
 * `/account/edit/{section}` (issue 29 §4): one part of the profile on a short page of its own,
 * with one Save button; saving goes back to that part's row of `/account/edit`, which says it is
 * saved. "Go back without saving" leaves what is saved as it was.
 */
export default function EditProfileSection() {
  const { section, user, title } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('profile')
  const { errors, formErrors } = summaryOf(actionData?.result.error)
  return (
    <div className="form profile-edit">
      <p className="back-link">
        <Link to={`/account/edit#${sectionAnchor(section)}`}>{t('edit.backToProfile')}</Link>
      </p>
      <h1 id={`${section}-heading`}>{title}</h1>
      <ErrorSummary errors={errors} formErrors={formErrors} />
      <SectionForm section={section} user={user} />
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
