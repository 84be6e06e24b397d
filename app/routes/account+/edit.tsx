import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData, useRouteLoaderData } from '@remix-run/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { ErrorSummary } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { useToastOfThisPage } from '#app/components/toast.tsx'
import type { loader as rootLoader } from '#app/root.tsx'
import { knownUser, requireUser } from '#app/utils/auth.server.ts'
import { formPageHeaders, loadFormPage } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { isProfileSection, sectionAnchor, type ProfileSection } from '#app/utils/profile-sections.ts'
import { PhotoSection } from './__profile-photo.tsx'
import { summaryOf } from './__profile-sections.tsx'
import { ProfileSummary } from './__profile-summary.tsx'
import { runPhotoIntent } from './edit.server.ts'

export const headers = formPageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'profile')
  return loadFormPage(
    context,
    async () => ({ user: await requireUser(request, context), title: t('edit.title') }),
    // The database is down: the page is drawn from what the member sent (see keepFormOnOutage).
    () => ({ user: knownUser(context), title: t('edit.title') }),
  )
}

export async function action(args: ActionFunctionArgs) {
  return runPhotoIntent(args)
}

/**
 * `/account/edit` (issue 13 §1, issue 29 §4): the photo, then what the profile says, section by
 * section, each with "Change" to its own short page (`edit_.$section.tsx`). One form to a page:
 * saving never drops what was typed somewhere else, with JavaScript or without. The photo form
 * stays here, at this address (the web's body limit gives photo forms their size by path).
 */
export default function EditProfile() {
  const { user } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('profile')
  const { errors, formErrors } = summaryOf(actionData?.result.error)
  const saved = useJustSaved()
  const headings: Record<ProfileSection | 'email', string> = {
    name: t('edit.name.heading'),
    about: t('edit.about.heading'),
    interests: t('edit.interests.heading'),
    prompts: t('edit.prompts.heading'),
    city: t('edit.city.heading'),
    phone: t('edit.phone.heading'),
    privacy: t('edit.privacy.heading'),
    language: t('edit.language.heading'),
    email: t('edit.email.heading'),
  }
  // Where the member comes back to: the part they saved, focused (the page has scrolled to it).
  const savedSection = saved?.section
  useEffect(() => {
    if (savedSection) document.getElementById(sectionAnchor(savedSection))?.focus()
  }, [savedSection])
  return (
    <div className="form profile-edit">
      <h1>{t('edit.title')}</h1>
      <ErrorSummary errors={errors} formErrors={formErrors} />
      <p>{t('edit.intro')}</p>
      <PhotoSection user={user} heading={t('edit.photo.heading')} saved={saved?.section === 'photo' ? t(saved.key) : null} />
      {user ? <ProfileSummary user={user} headings={headings} savedSection={saved && saved.section !== 'photo' ? saved.section : null} /> : null}
    </div>
  )
}

/** The part of the profile whose "saved" message arrived with this page, if any. */
function useJustSaved(): { section: ProfileSection | 'photo'; key: string } | null {
  const toast = useToastOfThisPage(useRouteLoaderData<typeof rootLoader>('root')?.toast ?? null)
  const section = /^profile:edit\.(\w+)\.(?:saved|removed)$/.exec(toast?.key ?? '')?.[1]
  if (!toast || !section) return null
  if (section === 'photo' || isProfileSection(section)) return { section, key: toast.key }
  return null
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
