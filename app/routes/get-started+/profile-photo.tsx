import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { OnboardingProgress, SkipStep } from '#app/components/onboarding-progress.tsx'
import { PhotoField } from '#app/components/photo-field.tsx'
import { profilePhotoSchema } from '#app/utils/photo-schema.ts'
import { knownUser, requireUser, returnToFrom } from '#app/utils/auth.server.ts'
import { refusedForm } from '#app/utils/form-action.server.ts'
import { formPageHeaders, keepFormOnOutage, loadFormPage } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { readPhotoForm, savePhotoForm } from '#app/utils/photo-upload.server.ts'
import { nextOnboardingStep } from '#app/utils/onboarding.ts'
import { continueOnboarding, isSkip } from '#app/utils/onboarding.server.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'

/**
 * Onboarding's profile photo (spec §2 `/get-started/profile-photo`, §5 "exactly one face,
 * appropriate content"): why a photo helps, the photo field, "Save photo" and "Skip for now".
 * Works without JavaScript (a multipart form); with it, the chosen photo is previewed.
 */
export const headers = formPageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'photo')
  const title = t('onboarding.title')
  return loadFormPage(
    context,
    async () => {
      const user = await requireUser(request, context)
      return { title, photoUrl: user.avatar?.url ?? null, returnTo: returnToFrom(request) }
    },
    () => ({ title, photoUrl: knownUser(context)?.avatar?.url ?? null, returnTo: returnToFrom(request) }),
  )
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (await isSkip(request)) {
    await requireUser(request, context)
    return continueOnboarding(request, context, nextOnboardingStep('profile-photo'))
  }
  // Read first: an outage (the session store included) still answers on this page.
  const received = await readPhotoForm(request)
  const submission = parseWithZod(received.formData, { schema: profilePhotoSchema })
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      const refusal = await savePhotoForm(request, context, received, submission)
      if (refusal) return refusedForm(context, submission.reply(refusal.errors), refusal.status)
      return continueOnboarding(request, context, nextOnboardingStep('profile-photo'))
    },
    () => submission.reply({ fieldErrors: { photo: ['photo:errors.again'] } }),
  )
}

export default function ProfilePhoto() {
  const { photoUrl, returnTo } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation('photo')
  const location = useLocation()
  const [form, fields] = useForm({
    id: 'profile-photo',
    lastResult,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: profilePhotoSchema }),
  })
  return (
    <div className="form">
      <OnboardingProgress page="profile-photo" returnTo={returnTo} />
      <h1>{t('onboarding.title')}</h1>
      <ErrorSummary errors={summaryFrom({ photo: fields.photo.errors }, ['photo'])} formErrors={form.errors} />
      <p>{t('onboarding.intro')}</p>
      <p>{t('onboarding.rules')}</p>
      {/* Posts to this page's address, query included, so `returnTo` comes along. */}
      <Form method="post" encType="multipart/form-data" action={`${location.pathname}${location.search}`} {...getFormProps(form)}>
        <PhotoField
          id="photo"
          name="photo"
          label={t('field.label')}
          hint={t('field.hint')}
          errors={fields.photo.errors}
          currentUrl={photoUrl}
        />
        <div className="button-row">
          <SubmitButton pending="uploading" className="button">
            {t('onboarding.submit')}
          </SubmitButton>
        </div>
      </Form>
      <SkipStep />
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
