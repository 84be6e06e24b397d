import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { IdentityLayout } from '#app/components/identity-layout.tsx'
import { TextField } from '#app/components/ui/field.tsx'
import { detectLanguage, getT } from '#app/utils/i18next.server.ts'
import { codeErrorReply, completeSignIn, interactionAction, requireInteraction, sendErrorReply, sentStep } from '#app/utils/identity.server.ts'
import { sendCodeSchema, verifyCodeSchema } from '#app/utils/identity-schemas.ts'
import { loadFormPage } from '#app/utils/forms.server.ts'
import { markFormError, pageTitle } from '#app/utils/meta.ts'
import { BreakableText } from '#app/components/ui/breakable-text.tsx'

export const handle = { i18n: ['common', 'auth'] }

const schema = z.discriminatedUnion('intent', [sendCodeSchema, verifyCodeSchema])

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'auth')
  return loadFormPage(
    context,
    async () => ({ uid: (await requireInteraction(context, params.uid)).interaction.uid, title: t('code.title') }),
    // The database is down: the form is drawn again from what the member sent.
    () => ({ uid: params.uid ?? '', title: t('code.title') }),
  )
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  // Read first: with the database down the page answers with what the member typed.
  const submission = parseWithZod(await request.formData(), { schema })
  const sent = sentStep(submission.payload, 'send', 'verify')
  const reply = (options: Parameters<typeof submission.reply>[0], step = sent.step, email = sent.email) => ({ result: submission.reply(options), step, email })
  return interactionAction(
    context,
    params.uid,
    async (identity, interaction) => {
      if (submission.status !== 'success') {
        markFormError(context)
        return data(reply({}), { status: 400 })
      }
      const { email } = submission.value
      if (submission.value.intent === 'send') {
        // The same answer whether or not the address has an account.
        const outcome = await identity.sendCode(email, 'sign_in', await detectLanguage(request, context))
        if ('error' in outcome) {
          markFormError(context)
          const { key, status } = sendErrorReply(outcome.error)
          return data(reply({ formErrors: [key] }, 'send', email), { status })
        }
        return reply({ resetForm: true }, 'verify', email)
      }
      const result = await identity.verifyCode(email, submission.value.code, 'sign_in')
      if ('error' in result) {
        markFormError(context)
        const { key, status } = codeErrorReply(result.error)
        return data(reply({ fieldErrors: { code: [key] } }, 'verify', email), { status })
      }
      return completeSignIn(context, interaction.uid, result.accountId)
    },
    () => reply({ formErrors: ['auth:errors.unavailable'] }),
  )
}

export default function SignInWithCode() {
  const { uid } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('auth')
  const step = actionData?.step ?? 'send'
  const [form, fields] = useForm({
    id: `code-${step}`,
    lastResult: actionData?.result,
    constraint: getZodConstraint(step === 'send' ? sendCodeSchema : verifyCodeSchema),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  return (
    <IdentityLayout title={t('code.title')}>
      <ErrorSummary errors={summaryFrom({ email: fields.email.errors, code: fields.code.errors }, ['email', 'code'])} formErrors={form.errors} />
      {step === 'send' ? (
        <>
          <p>{t('code.intro')}</p>
          <Form method="post" {...getFormProps(form)}>
            <input type="hidden" name="intent" value="send" />
            <TextField id="email" name="email" label={t('fields.email')} type="email" autoComplete="username" inputMode="email" spellCheck={false} required defaultValue={actionData?.email} errors={fields.email.errors} />
            <div className="button-row">
              <button type="submit" className="button">
                {t('code.send')}
              </button>
            </div>
          </Form>
        </>
      ) : (
        <>
          <div className="notice" role="status">
            <p>
              <BreakableText text={t('code.sent', { email: actionData?.email })} />
            </p>
          </div>
          <Form method="post" {...getFormProps(form)}>
            <input type="hidden" name="intent" value="verify" />
            <input type="hidden" name="email" value={actionData?.email} />
            <TextField
              id="code"
              name="code"
              label={t('fields.code')}
              hint={t('code.hint')}
              className="input--code"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={12}
              required
              errors={fields.code.errors}
            />
            <div className="button-row">
              <button type="submit" className="button">
                {t('code.verify')}
              </button>
            </div>
          </Form>
          <Form method="post">
            <input type="hidden" name="intent" value="send" />
            <input type="hidden" name="email" value={actionData?.email} />
            <button type="submit" className="button button--link">
              {t('code.resend')}
            </button>
          </Form>
        </>
      )}
      <p>
        <Link to={`/identity/${uid}`}>{t('code.usePassword')}</Link>
      </p>
    </IdentityLayout>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
