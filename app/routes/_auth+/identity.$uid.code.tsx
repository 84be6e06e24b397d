import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { IdentityLayout } from '#app/components/identity-layout.tsx'
import { CodeEntry } from '#app/components/code-entry.tsx'
import { TextField } from '#app/components/ui/field.tsx'
import { detectLanguage, getT } from '#app/utils/i18next.server.ts'
import { codeRefusal, completeSignIn, requireInteraction, sendRefusal } from '#app/utils/identity.server.ts'
import { codeFormAction } from '#app/utils/form-action.server.ts'
import { readIdentityStep, redirectWithStep } from '#app/utils/identity-step.server.ts'
import { resendCodeSchema, sendCodeSchema, verifyCodeSchema } from '#app/utils/identity-schemas.ts'
import { loadFormPage } from '#app/utils/forms.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { useZodForm } from '#app/utils/use-zod-form.ts'

const schema = z.discriminatedUnion('intent', [sendCodeSchema, verifyCodeSchema, resendCodeSchema])

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'auth')
  const url = new URL(request.url)
  return loadFormPage(
    context,
    async () => {
      const { interaction } = await requireInteraction(context, params.uid)
      // The email typed on the password form, or the one a code went to: reloading the code
      // step, or coming back to it from the mail app, shows it again.
      const kept = await readIdentityStep(request, context, interaction.uid)
      const step = url.searchParams.get('step') === 'verify' && kept?.sent === 'sign_in' ? ('verify' as const) : ('send' as const)
      return { uid: interaction.uid, title: t('code.title'), step, email: kept?.email ?? '', resent: step === 'verify' && url.searchParams.get('notice') === 'resent' }
    },
    // The database is down: the form is drawn again from what the member sent.
    () => ({ uid: params.uid ?? '', title: t('code.title'), step: 'send' as const, email: '', resent: false }),
  )
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  // Read first: with the database down the page answers with what the member typed.
  const submission = parseWithZod(await request.formData(), { schema })
  return codeFormAction({ request, context }, submission, {
    steps: ['send', 'verify'],
    verifyIntent: 'verify',
    notSaved: 'auth:errors.unavailable',
    ready: () => requireInteraction(context, params.uid),
    send: async ({ email }, { identity, interaction }, again) => {
      // The same answer whether or not the address has an account.
      const outcome = await identity.sendCode(email, 'sign_in', await detectLanguage(request, context))
      if ('error' in outcome) return sendRefusal(outcome.error)
      // The code step is a page of its own (a redirect), so reloading it sends nothing again.
      const to = `/identity/${interaction.uid}/code?step=verify${again ? '&notice=resent' : ''}`
      return redirectWithStep(context, to, { uid: interaction.uid, email, sent: 'sign_in' })
    },
    verify: async (value, { identity, interaction }) => {
      const result = await identity.verifyCode(value.email, value.code, 'sign_in')
      return 'error' in result ? codeRefusal(result.error) : completeSignIn(context, interaction.uid, result.accountId)
    },
  })
}

export default function SignInWithCode() {
  const loaded = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('auth')
  const step = actionData?.step ?? loaded.step
  const email = actionData?.email ?? loaded.email
  const [form, fields] = useZodForm({
    id: `code-${step}`,
    lastResult: actionData?.result,
    schema,
    constraintSchema: step === 'send' ? sendCodeSchema : verifyCodeSchema,
  })
  return (
    <IdentityLayout title={t('code.title')}>
      <ErrorSummary errors={summaryFrom({ email: fields.email.errors, code: fields.code.errors }, ['email', 'code'])} formErrors={form.errors} />
      {step === 'send' ? (
        <>
          <p>{t('code.intro')}</p>
          <Form method="post" {...getFormProps(form)}>
            <input type="hidden" name="intent" value="send" />
            <TextField id="email" name="email" label={t('fields.email')} type="email" autoComplete="username" inputMode="email" spellCheck={false} required defaultValue={email} errors={fields.email.errors} />
            <div className="button-row">
              <SubmitButton pending="sending" className="button">
                {t('code.send')}
              </SubmitButton>
            </div>
          </Form>
        </>
      ) : (
        <CodeEntry
          formProps={getFormProps(form)}
          intent="verify"
          email={email}
          sent={t(loaded.resent && !actionData ? 'code.resent' : 'code.sent', { email })}
          submit={t('code.verify')}
          errors={fields.code.errors}
        />
      )}
      <p>
        <Link to={`/identity/${loaded.uid}`}>{t('code.usePassword')}</Link>
      </p>
    </IdentityLayout>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
