import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ErrorSummary, type SummaryError } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { BreakableText } from '#app/components/ui/breakable-text.tsx'
import { knownUser, requireUser } from '#app/utils/auth.server.ts'
import { formPageHeaders, loadFormPage } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { profileSections, sectionAnchor, type ProfileSection } from '#app/utils/profile-sections.ts'
import { AboutSection, CitySection, InterestsSection, LanguageSection, NameSection, PhoneSection, PhotoSection, PrivacySection, PromptsSection, fieldIdOf } from './__profile-sections.tsx'
import { runProfileIntent } from './edit.server.ts'

export const handle = { i18n: ['common', 'onboarding', 'activities', 'profile', 'photo', 'blocking'] }

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
  return runProfileIntent(args)
}

/**
 * `/account/edit` (issue 13 §1): one form per section, each with its own button, so that a
 * member changes one thing at a time and a mistake in one part never loses another. Choices are
 * the contract's keys, named by the `profile` words.
 */
export default function EditProfile() {
  const { user } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('profile')
  const { errors, formErrors } = summaryOf(actionData?.result.error)
  const headings: Record<ProfileSection, string> = {
    name: t('edit.name.heading'),
    about: t('edit.about.heading'),
    interests: t('edit.interests.heading'),
    prompts: t('edit.prompts.heading'),
    city: t('edit.city.heading'),
    phone: t('edit.phone.heading'),
    privacy: t('edit.privacy.heading'),
    language: t('edit.language.heading'),
  }
  return (
    <div className="form profile-edit">
      <h1>{t('edit.title')}</h1>
      <ErrorSummary errors={errors} formErrors={formErrors} />
      <p>{t('edit.intro')}</p>
      <nav aria-labelledby="profile-contents">
        <h2 id="profile-contents">{t('edit.contents')}</h2>
        <ul>
          <li>
            <a href={`#${sectionAnchor('photo')}`}>{t('edit.photo.heading')}</a>
          </li>
          {profileSections.map((section) => (
            <li key={section}>
              <a href={`#${sectionAnchor(section)}`}>{headings[section]}</a>
            </li>
          ))}
          <li>
            <a href="#email-section">{t('edit.email.heading')}</a>
          </li>
        </ul>
      </nav>
      <PhotoSection user={user} heading={t('edit.photo.heading')} />
      <NameSection user={user} heading={headings.name} />
      <AboutSection user={user} heading={headings.about} />
      <InterestsSection user={user} heading={headings.interests} />
      <PromptsSection user={user} heading={headings.prompts} />
      <CitySection user={user} heading={headings.city} />
      <PhoneSection user={user} heading={headings.phone} />
      <PrivacySection user={user} heading={headings.privacy} />
      <LanguageSection user={user} heading={headings.language} />
      <section id="email-section" aria-labelledby="email-heading">
        <h2 id="email-heading">{t('edit.email.heading')}</h2>
        <p>{user?.email ? <BreakableText text={t('edit.email.current', { email: user.email })} /> : t('edit.email.none')}</p>
        <p>
          <Link to="/account/email">{t('edit.email.change')}</Link>
        </p>
      </section>
    </div>
  )
}

/** The refused section's errors for the summary at the top, each linked to its field. */
function summaryOf(error: Record<string, string[] | null> | undefined) {
  const errors: SummaryError[] = []
  const formErrors: string[] = []
  for (const [name, messages] of Object.entries(error ?? {})) {
    for (const message of messages ?? []) {
      if (name === '') formErrors.push(message)
      else errors.push({ fieldId: fieldIdOf(name), message })
    }
  }
  return { errors, formErrors }
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
