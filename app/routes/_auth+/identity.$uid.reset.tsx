import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { IdentityLayout } from '#app/components/identity-layout.tsx'
import { CodeField } from '#app/components/code-entry.tsx'
import { TextField } from '#app/components/ui/field.tsx'
import { detectLanguage, getT } from '#app/utils/i18next.server.ts'
import { codeRefusal, requireInteraction, sendRefusal } from '#app/utils/identity.server.ts'
import { codeFormAction } from '#app/utils/form-action.server.ts'
import { resetConfirmSchema, resetRequestSchema } from '#app/utils/identity-schemas.ts'
import { loadFormPage } from '#app/utils/forms.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { BreakableText } from '#app/components/ui/breakable-text.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { useZodForm } from '#app/utils/use-zod-form.ts'

const schema = z.discriminatedUnion('intent', [resetRequestSchema, resetConfirmSchema])

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'auth')
  return loadFormPage(
    context,
    async () => ({ uid: (await requireInteraction(context, params.uid)).interaction.uid, title: t('reset.title') }),
    // The database is down: the form is drawn again from what the member sent.
    () => ({ uid: params.uid ?? '', title: t('reset.title') }),
  )
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  // Read first: with the database down the page answers with what the member typed.
  const submission = parseWithZod(await request.formData(), { schema })
  return codeFormAction({ request, context }, submission, {
    steps: ['send', 'reset'],
    verifyIntent: 'reset',
    notSaved: 'auth:errors.unavailable',
    hideFields: ['password'],
    ready: () => requireInteraction(context, params.uid),
    send: async ({ email }, { identity }) => {
      const outcome = await identity.sendCode(email, 'reset_password', await detectLanguage(request, context))
      return 'error' in outcome ? sendRefusal(outcome.error) : null
    },
    verify: async ({ email, code, password }, { identity, interaction }) => {
      const result = await identity.resetPassword(email, code, password)
      if ('error' in result) return codeRefusal(result.error)
      throw redirect(`/identity/${interaction.uid}?notice=reset`)
    },
  })
}

export default function ResetPassword() {
  const { uid } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('auth')
  const step = actionData?.step ?? 'send'
  const [form, fields] = useZodForm({
    id: `reset-${step}`,
    lastResult: actionData?.result,
    schema,
    constraintSchema: step === 'send' ? resetRequestSchema : resetConfirmSchema,
  })
  const errors = { email: fields.email.errors, code: fields.code.errors, password: fields.password.errors }
  return (
    <IdentityLayout title={t('reset.title')}>
      <ErrorSummary errors={summaryFrom(errors, ['email', 'code', 'password'])} formErrors={form.errors} />
      {step === 'send' ? (
        <>
          <p>{t('reset.intro')}</p>
          <Form method="post" {...getFormProps(form)}>
            <input type="hidden" name="intent" value="send" />
            <TextField id="email" name="email" label={t('fields.email')} type="email" autoComplete="username" inputMode="email" spellCheck={false} required defaultValue={actionData?.email} errors={fields.email.errors} />
            <div className="button-row">
              <SubmitButton pending="sending" className="button">
                {t('reset.send')}
              </SubmitButton>
            </div>
          </Form>
        </>
      ) : (
        <>
          <div className="notice" role="status">
            <p>
              <BreakableText text={t('reset.sent', { email: actionData?.email })} />
            </p>
          </div>
          <Form method="post" {...getFormProps(form)}>
            <input type="hidden" name="intent" value="reset" />
            <input type="hidden" name="email" value={actionData?.email} />
            <CodeField label={t('fields.code')} hint={t('code.hint')} errors={fields.code.errors} />
            <TextField id="password" name="password" label={t('fields.newPassword')} hint={t('signUp.passwordHint')} type="password" autoComplete="new-password" minLength={10} required errors={fields.password.errors} />
            <div className="button-row">
              <SubmitButton pending="saving" className="button">
                {t('reset.submit')}
              </SubmitButton>
            </div>
          </Form>
        </>
      )}
      <p>
        <Link to={`/identity/${uid}`}>{t('reset.back')}</Link>
      </p>
    </IdentityLayout>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
