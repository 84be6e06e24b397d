import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { OnboardingProgress } from '#app/components/onboarding-progress.tsx'
import { ChoiceGroup, TextField } from '#app/components/ui/field.tsx'
import { knownUser, requireUser, returnToFrom } from '#app/utils/auth.server.ts'
import { formAction } from '#app/utils/form-action.server.ts'
import { formPageHeaders, loadFormPage } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { basicInfoSchema, genderChoices, joinReasons, preferNotToSay } from '#app/utils/onboarding-schemas.ts'
import { nextOnboardingStep } from '#app/utils/onboarding.ts'
import { continueOnboarding } from '#app/utils/onboarding.server.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { useZodForm } from '#app/utils/use-zod-form.ts'

export const headers = formPageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'onboarding')
  return loadFormPage(
    context,
    async () => ({ user: await requireUser(request, context), title: t('basicInfo.title'), returnTo: returnToFrom(request) }),
    // The database is down: the form is drawn from what the member sent (see keepFormOnOutage).
    () => ({ user: knownUser(context), title: t('basicInfo.title'), returnTo: returnToFrom(request) }),
  )
}

export async function action({ request, context }: ActionFunctionArgs) {
  // Read first: an outage (the session store included) answers with what the member typed.
  const submission = parseWithZod(await request.formData(), { schema: basicInfoSchema })
  return formAction({ request, context }, submission, {
    notSaved: 'onboarding:basicInfo.notSaved',
    apiErrors: { fields: { first_name: 'firstName', last_name: 'lastName', join_reasons: 'reasons' } },
    // Where the member was before signing up (decision 020) comes along to the next steps.
    save: ({ firstName, lastName, gender, reasons, phone }) =>
      continueOnboarding(request, context, nextOnboardingStep('basicInfo'), {
        first_name: firstName,
        last_name: lastName,
        gender,
        join_reasons: reasons,
        phone: phone ?? null,
        onboarded: true,
      }),
  })
}

export default function BasicInfo() {
  const { user, returnTo } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation('onboarding')
  const [form, fields] = useZodForm({
    id: 'basic-info',
    lastResult,
    schema: basicInfoSchema,
    defaultValue: {
      firstName: user?.first_name ?? '',
      lastName: user?.last_name ?? '',
      // A member who has been through this page and gave no gender chose "Prefer not to say".
      gender: user?.gender ?? (user?.onboarded ? preferNotToSay : undefined),
      reasons: user?.join_reasons,
      phone: user?.formatted_phone ?? '',
    },
  })
  const errors = {
    firstName: fields.firstName.errors,
    lastName: fields.lastName.errors,
    gender: fields.gender.errors,
    reasons: fields.reasons.errors,
    phone: fields.phone.errors,
  }
  const reasons = fields.reasons.initialValue
  return (
    <div className="form">
      <OnboardingProgress page="basicInfo" returnTo={returnTo} />
      <h1>{t('basicInfo.title')}</h1>
      <ErrorSummary errors={summaryFrom(errors, ['firstName', 'lastName', 'gender', 'reasons', 'phone'])} formErrors={form.errors} />
      <p>{t('basicInfo.intro')}</p>
      <Form method="post" {...getFormProps(form)}>
        <TextField id="firstName" name="firstName" label={t('fields.firstName')} autoComplete="given-name" required defaultValue={fields.firstName.initialValue} errors={fields.firstName.errors} />
        <TextField id="lastName" name="lastName" label={t('fields.lastName')} autoComplete="family-name" required defaultValue={fields.lastName.initialValue} errors={fields.lastName.errors} />
        <ChoiceGroup
          id="gender"
          name="gender"
          type="radio"
          legend={t('fields.gender')}
          options={genderChoices.map((value) => ({ value, label: t(`gender.${value}`) }))}
          defaultValue={fields.gender.initialValue}
          errors={fields.gender.errors}
        />
        <ChoiceGroup
          id="reasons"
          name="reasons"
          type="checkbox"
          legend={t('fields.reasons')}
          hint={t('fields.reasonsHint')}
          options={joinReasons.map((value) => ({ value, label: t(`reasons.${value}`) }))}
          defaultValue={Array.isArray(reasons) ? (reasons as string[]) : typeof reasons === 'string' ? [reasons] : []}
          errors={fields.reasons.errors}
        />
        <TextField id="phone" name="phone" label={t('fields.phone')} hint={t('fields.phoneHint')} type="text" autoComplete="tel-national" inputMode="tel" defaultValue={fields.phone.initialValue} errors={fields.phone.errors} />
        <div className="button-row">
          <SubmitButton pending="saving" className="button">
            {t('basicInfo.submit')}
          </SubmitButton>
        </div>
      </Form>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
