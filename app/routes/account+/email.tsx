import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { OnlyTheMember, useViewingAs } from '#app/components/only-the-member.tsx'
import { CodeEntry } from '#app/components/code-entry.tsx'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { BreakableText } from '#app/components/ui/breakable-text.tsx'
import { TextField } from '#app/components/ui/field.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { codeFormAction } from '#app/utils/form-action.server.ts'
import { formPageHeaders, loadFormPage } from '#app/utils/forms.server.ts'
import type { ApiErrorMapping } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { useZodForm } from '#app/utils/use-zod-form.ts'

export const headers = formPageHeaders

const e = (key: string) => `account:email.errors.${key}`
const emailField = z
  .string({ error: e('emailRequired') })
  .trim()
  .min(1, e('emailRequired'))
  .max(254, e('emailInvalid'))
  .pipe(z.email({ error: e('emailInvalid') }))
const sendSchema = z.object({ intent: z.literal('send'), email: emailField })
const resendSchema = z.object({ intent: z.literal('resend'), email: emailField })
const verifySchema = z.object({
  intent: z.literal('verify'),
  code: z
    .string({ error: e('codeRequired') })
    .transform((value) => value.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, e('codeFormat'))),
})
const schema = z.discriminatedUnion('intent', [sendSchema, resendSchema, verifySchema])
const parse = (formData: FormData) => parseWithZod(formData, { schema })

// The API's codes (contract/account.ts) as this page's messages.
const apiErrorMapping: ApiErrorMapping = {
  messages: {
    email: (codes) => codes.map((code) => e(code === 'same_email' ? 'sameEmail' : code === 'required' ? 'emailRequired' : 'emailInvalid')),
    code: (codes) => codes.map((code) => e(code === 'code_expired' ? 'codeExpired' : 'codeInvalid')),
  },
  conflict: (code) => e(code === 'email_taken' ? 'taken' : 'unavailable'),
  tooMany: () => e('tooMany'),
  notDelivered: { email_not_sent: e('notSent') },
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'account')
  const url = new URL(request.url)
  return loadFormPage(
    context,
    async () => {
      const user = await requireUser(request, context)
      // The code step is a page of its own: reloading it, or coming back from the mail app, shows it again.
      const pending = url.searchParams.get('step') === 'code' ? await getApi(request, context).account.pendingEmailChange() : null
      return {
        currentEmail: user.email,
        step: pending ? ('code' as const) : ('email' as const),
        pendingEmail: pending?.email ?? '',
        resent: pending !== null && url.searchParams.get('notice') === 'resent',
        expired: pending === null && url.searchParams.get('step') === 'code',
        title: t('email.title'),
      }
    },
    // The database is down: the form is drawn again from what the member sent.
    () => ({ currentEmail: null, step: 'email' as const, pendingEmail: '', resent: false, expired: false, title: t('email.title') }),
  )
}

export async function action({ request, context }: ActionFunctionArgs) {
  // Read first: with the database down the page answers with what the member typed.
  const submission = parse(await request.formData())
  const api = getApi(request, context).account
  return codeFormAction({ request, context }, submission, {
    steps: ['email', 'code'],
    verifyIntent: 'verify',
    notSaved: 'common:errors.notSaved',
    apiErrors: apiErrorMapping,
    send: async ({ email }, _user, again) => {
      await api.startEmailChange(email)
      return redirect(`/account/email?step=code${again ? '&notice=resent' : ''}`)
    },
    verify: async ({ code }) => {
      await api.confirmEmailChange(code)
      return redirectWithToast(context, '/account', 'account:email.done')
    },
  })
}

export default function ChangeEmail() {
  const loaded = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('account')
  const step = actionData?.step ?? loaded.step
  const pendingEmail = loaded.pendingEmail || actionData?.email || ''
  const [form, fields] = useZodForm({
    id: `email-${step}`,
    lastResult: actionData?.result,
    schema,
    constraintSchema: step === 'email' ? sendSchema : verifySchema,
  })
  const viewingAs = useViewingAs()
  if (viewingAs)
    return (
      <div className="prose">
        <h1>{t('email.title')}</h1>
        <OnlyTheMember>{null}</OnlyTheMember>
      </div>
    )
  return (
    <div className="prose">
      <h1>{t('email.title')}</h1>
      <ErrorSummary errors={summaryFrom({ email: fields.email.errors, code: fields.code.errors }, ['email', 'code'])} formErrors={form.errors} />
      {step === 'email' ? (
        <>
          {loaded.expired ? (
            <div className="notice" role="status">
              <p>{t('email.expired')}</p>
            </div>
          ) : null}
          {loaded.currentEmail ? (
            <p>
              <BreakableText text={t('email.current', { email: loaded.currentEmail })} />
            </p>
          ) : null}
          <p>{t('email.intro')}</p>
          <Form method="post" className="form" {...getFormProps(form)}>
            <input type="hidden" name="intent" value="send" />
            <TextField
              id="email"
              name="email"
              label={t('email.newLabel')}
              hint={<BreakableText text={t('email.newHint')} />}
              type="email"
              autoComplete="email"
              inputMode="email"
              spellCheck={false}
              required
              defaultValue={typeof fields.email.initialValue === 'string' ? fields.email.initialValue : ''}
              errors={fields.email.errors}
            />
            <div className="button-row">
              <SubmitButton pending="sending" className="button">
                {t('email.send')}
              </SubmitButton>
              <Link to="/account" className="button button--secondary">
                {t('email.cancel')}
              </Link>
            </div>
          </Form>
        </>
      ) : (
        <>
          <CodeEntry
            formProps={getFormProps(form)}
            intent="verify"
            email={pendingEmail}
            sent={t(loaded.resent && !actionData ? 'email.resent' : 'email.sent', { email: pendingEmail })}
            submit={t('email.verify')}
            errors={fields.code.errors}
          />
          <p>{t('email.notReceived')}</p>
          <p>
            <Link to="/account/email">{t('email.otherAddress')}</Link>
          </p>
        </>
      )}
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
