import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { DateOfBirthField } from '#app/components/date-of-birth-field.tsx'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { IdentityLayout } from '#app/components/identity-layout.tsx'
import { CodeEntry } from '#app/components/code-entry.tsx'
import { TextField } from '#app/components/ui/field.tsx'
import { isoDate } from '#contract/birth-date.ts'
import { detectLanguage, getT } from '#app/utils/i18next.server.ts'
import { abortSignIn, codeRefusal, completeSignIn, requireInteraction, sendRefusal } from '#app/utils/identity.server.ts'
import { codeFormAction } from '#app/utils/form-action.server.ts'
import { readIdentityStep, redirectWithStep } from '#app/utils/identity-step.server.ts'
import { confirmSignUpSchema, resendCodeSchema, signUpSchema } from '#app/utils/identity-schemas.ts'
import { loadFormPage } from '#app/utils/forms.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { useZodForm } from '#app/utils/use-zod-form.ts'

const schema = z.discriminatedUnion('intent', [signUpSchema, confirmSignUpSchema, resendCodeSchema])
const fieldOrder = ['firstName', 'lastName', 'email', 'birthMonth', 'birthDay', 'birthYear', 'password', 'code']

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'auth')
  const url = new URL(request.url)
  return loadFormPage(
    context,
    async () => {
      const { interaction } = await requireInteraction(context, params.uid)
      // Reloaded, or back from the mail app: still the code step, for the email the code went to.
      const kept = await readIdentityStep(request, context, interaction.uid)
      if (url.searchParams.get('step') === 'code' && kept?.sent === 'sign_up') {
        return { uid: interaction.uid, title: t('signUp.confirmTitle'), step: 'confirm' as const, email: kept.email, resent: url.searchParams.get('notice') === 'resent' }
      }
      return { uid: interaction.uid, title: t('signUp.title'), step: 'details' as const, email: '', resent: false }
    },
    // The database is down: the form is drawn again from what the member sent.
    () => ({ uid: params.uid ?? '', title: t('signUp.title'), step: 'details' as const, email: '', resent: false }),
  )
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  // Read first: with the database down the page answers with what the member typed.
  const formData = await request.formData()
  const submission = parseWithZod(formData, { schema })
  // The code step is a page of its own (a redirect), so reloading it asks for nothing again.
  const codeStep = (uid: string, email: string, again: boolean) =>
    redirectWithStep(context, `/identity/${uid}/signup?step=code${again ? '&notice=resent' : ''}`, { uid, email, sent: 'sign_up' })
  return codeFormAction({ request, context }, submission, {
    steps: ['details', 'confirm'],
    verifyIntent: 'confirm',
    notSaved: 'auth:errors.unavailable',
    hideFields: ['password'],
    ready: async () => {
      const found = await requireInteraction(context, params.uid)
      if (formData.get('intent') === 'cancel') throw await abortSignIn(context, found.interaction.uid)
      return found
    },
    send: async (value, { identity, interaction }, again) => {
      const language = await detectLanguage(request, context)
      if (value.intent === 'resend') {
        // Only the address this browser's sign-up sent a code to: a crafted request for another
        // address starts again at the first step.
        const kept = await readIdentityStep(request, context, interaction.uid)
        if (kept?.sent !== 'sign_up' || kept.email !== value.email) throw redirect(`/identity/${interaction.uid}/signup`)
        const outcome = await identity.resendSignUp(value.email, language)
        return 'error' in outcome ? sendRefusal(outcome.error) : codeStep(interaction.uid, value.email, again)
      }
      const outcome = await identity.startSignUp({
        email: value.email,
        password: value.password ?? null,
        firstName: value.firstName,
        lastName: value.lastName,
        dob: isoDate({ year: value.birthYear, month: value.birthMonth, day: value.birthDay }),
        language,
      })
      return 'error' in outcome ? sendRefusal(outcome.error) : codeStep(interaction.uid, value.email, again)
    },
    verify: async ({ email, code }, { identity, interaction }) => {
      const result = await identity.confirmSignUp(email, code)
      return 'error' in result ? codeRefusal(result.error) : completeSignIn(context, interaction.uid, result.accountId)
    },
  })
}

export default function SignUp() {
  const loaded = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('auth')
  const step = actionData?.step ?? loaded.step
  const email = actionData?.email ?? loaded.email
  const { uid } = loaded
  const [form, fields] = useZodForm({
    id: `sign-up-${step}`,
    lastResult: actionData?.result,
    schema,
    constraintSchema: step === 'details' ? signUpSchema : confirmSignUpSchema,
  })
  const errors = {
    firstName: fields.firstName.errors,
    lastName: fields.lastName.errors,
    email: fields.email.errors,
    birthMonth: fields.birthMonth.errors,
    birthDay: fields.birthDay.errors,
    birthYear: fields.birthYear.errors,
    password: fields.password.errors,
    code: fields.code.errors,
  }
  if (step === 'confirm') {
    return (
      <IdentityLayout title={t('signUp.confirmTitle')}>
        <ErrorSummary errors={summaryFrom(errors, ['code'])} formErrors={form.errors} />
        <CodeEntry
          formProps={getFormProps(form)}
          intent="confirm"
          email={email}
          sent={t(loaded.resent && !actionData ? 'signUp.codeResent' : 'signUp.codeSent', { email })}
          submit={t('signUp.confirm')}
          errors={fields.code.errors}
        />
        <p>
          <Link to={`/identity/${uid}/signup`} reloadDocument>
            {t('signUp.startAgain')}
          </Link>
        </p>
      </IdentityLayout>
    )
  }
  const initial = fields.birthMonth.initialValue
  return (
    <IdentityLayout title={t('signUp.title')}>
      <ErrorSummary
        errors={summaryFrom(errors, fieldOrder)}
        formErrors={form.errors}
      />
      <p>{t('signUp.intro')}</p>
      <Form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="details" />
        <TextField id="firstName" name="firstName" label={t('fields.firstName')} autoComplete="given-name" required defaultValue={fields.firstName.initialValue} errors={fields.firstName.errors} />
        <TextField id="lastName" name="lastName" label={t('fields.lastName')} autoComplete="family-name" required defaultValue={fields.lastName.initialValue} errors={fields.lastName.errors} />
        <TextField id="email" name="email" label={t('fields.email')} type="email" autoComplete="email" inputMode="email" spellCheck={false} required defaultValue={fields.email.initialValue} errors={fields.email.errors} />
        <DateOfBirthField
          defaultValue={{ month: typeof initial === 'string' ? initial : undefined, day: fields.birthDay.initialValue as string | undefined, year: fields.birthYear.initialValue as string | undefined }}
          errors={{ month: fields.birthMonth.errors, day: fields.birthDay.errors, year: fields.birthYear.errors }}
        />
        <TextField id="password" name="password" label={t('fields.newPasswordOptional')} hint={t('signUp.passwordHint')} type="password" autoComplete="new-password" minLength={10} errors={fields.password.errors} />
        <div className="button-row">
          <SubmitButton pending="sending" className="button">
            {t('signUp.submit')}
          </SubmitButton>
        </div>
      </Form>
      <p>
        {t('signUp.haveAccount')} <Link to={`/identity/${uid}`}>{t('signUp.signIn')}</Link>
      </p>
      <p>
        <Link to="/legal/terms">{t('signUp.terms')}</Link> · <Link to="/legal/privacy">{t('signUp.privacy')}</Link>
      </p>
    </IdentityLayout>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
