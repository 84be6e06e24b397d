import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { OnlyTheMember, useViewingAs } from '#app/components/only-the-member.tsx'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { CodeField } from '#app/components/code-entry.tsx'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { codeFormAction } from '#app/utils/form-action.server.ts'
import { formPageHeaders, loadFormPage } from '#app/utils/forms.server.ts'
import type { ApiErrorMapping } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { useZodForm } from '#app/utils/use-zod-form.ts'

/**
 * `/account/phone` (issue 15 §3, decision 049): the member confirms their phone with a 6-digit
 * code texted to it before any text is sent there. Plain forms: "Send me a code", then the code.
 */
export const headers = formPageHeaders

const e = (key: string) => `sms:page.errors.${key}`
const sendSchema = z.object({ intent: z.literal('send') })
const verifySchema = z.object({
  intent: z.literal('verify'),
  code: z
    .string({ error: e('codeRequired') })
    .transform((value) => value.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, e('codeFormat'))),
})
const schema = z.discriminatedUnion('intent', [sendSchema, verifySchema])
const parse = (formData: FormData) => parseWithZod(formData, { schema })

const apiErrorMapping: ApiErrorMapping = {
  messages: { code: (codes) => codes.map((code) => e(code === 'code_expired' ? 'codeExpired' : 'codeInvalid')) },
  conflict: (code) => e(code === 'texts_stopped' ? 'stopped' : 'noPhone'),
  tooMany: () => e('tooMany'),
  notDelivered: { sms_not_sent: e('notSent') },
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'sms')
  const url = new URL(request.url)
  return loadFormPage(
    context,
    async () => {
      const user = await requireUser(request, context)
      return {
        phone: user.formatted_phone,
        confirmed: user.phone_confirmed,
        stopped: user.texts_stopped,
        codeSent: !user.phone_confirmed && user.phone !== null && url.searchParams.get('step') === 'code',
        title: t('page.title'),
      }
    },
    () => ({ phone: null, confirmed: false, stopped: false, codeSent: false, title: t('page.title') }),
  )
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parse(await request.formData())
  const api = getApi(request, context).account
  return codeFormAction({ request, context }, submission, {
    steps: ['send', 'code'],
    verifyIntent: 'verify',
    notSaved: 'common:errors.notSaved',
    apiErrors: apiErrorMapping,
    send: async () => {
      await api.startPhoneConfirmation().catch(confirmedMeanwhile)
      return redirect('/account/phone?step=code')
    },
    verify: async ({ code }) => {
      await api.confirmPhone(code).catch(confirmedMeanwhile)
      return redirectWithToast(context, '/account/phone', 'sms:page.done')
    },
  })
}

/** Confirmed in the meantime (another tab): the page says so. */
function confirmedMeanwhile(error: unknown): never {
  if (error instanceof ApiError && error.code === 'phone_confirmed') throw redirect('/account/phone')
  throw error
}

export default function Phone() {
  const loaded = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('sms')
  const codeSent = actionData ? actionData.step === 'code' : loaded.codeSent
  const [form, fields] = useZodForm({
    id: 'phone-code',
    lastResult: actionData?.result,
    schema,
    constraintSchema: verifySchema,
  })
  const viewingAs = useViewingAs()
  if (viewingAs)
    return (
      <div className="prose">
        <h1>{t('page.title')}</h1>
        <OnlyTheMember>{null}</OnlyTheMember>
      </div>
    )
  return (
    <div className="prose">
      <h1>{t('page.title')}</h1>
      <ErrorSummary errors={summaryFrom({ code: fields.code.errors }, ['code'])} formErrors={form.errors} />
      <p>{t('page.intro')}</p>
      {loaded.phone ? (
        <>
          <dl className="details">
            <dt>{t('page.phoneLabel')}</dt>
            <dd data-testid="phone">{loaded.phone}</dd>
          </dl>
          <div className="notice" role="status">
            <p>{t(loaded.confirmed ? 'page.confirmed' : 'page.notConfirmed')}</p>
            {/* The carrier blocks our texts to it too (decision 057): only the member's START lifts it. */}
            {loaded.stopped ? <p data-testid="texts-stopped">{t('page.stopped')}</p> : null}
          </div>
          {loaded.confirmed ? null : (
            <>
              {codeSent ? (
                <>
                  <p>{t('page.sent', { phone: loaded.phone })}</p>
                  <Form method="post" className="form" {...getFormProps(form)}>
                    <input type="hidden" name="intent" value="verify" />
                    <CodeField label={t('page.codeLabel')} hint={t('page.codeHint')} errors={fields.code.errors} />
                    <div className="button-row">
                      <SubmitButton pending="checking" className="button">
                        {t('page.confirm')}
                      </SubmitButton>
                    </div>
                  </Form>
                </>
              ) : null}
              <Form method="post">
                <input type="hidden" name="intent" value="send" />
                <SubmitButton pending="sending" className={codeSent ? 'button button--link' : 'button'}>
                  {t(codeSent ? 'page.resend' : 'page.send')}
                </SubmitButton>
              </Form>
            </>
          )}
          <p>
            <Link to="/account/edit">{t('page.changePhone')}</Link>
          </p>
        </>
      ) : (
        <>
          <p>{t('page.noPhone')}</p>
          <p>
            <Link to="/account/edit" className="button button--secondary">
              {t('page.addPhone')}
            </Link>
          </p>
        </>
      )}
      <p>
        <Link to="/account">{t('page.back')}</Link>
      </p>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
