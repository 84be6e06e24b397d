import { parseWithZod } from '@conform-to/zod/v4'
import { getFormProps } from '@conform-to/react'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useRevalidator } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { maxMessageLength } from '#contract/limits.ts'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { HelpCenterLink } from '#app/components/help-center.tsx'
import { HelpByEmail, HelpConversation, HelpMessageForm, HelpSafetyLine, HelpSignedOut } from '#app/components/help-chat.tsx'
import { getApi, getAuthState, isImpersonating } from '#app/utils/auth.server.ts'
import { useChatEvents } from '#app/utils/chat-live.tsx'
import { formAction } from '#app/utils/form-action.server.ts'
import { formPageHeaders } from '#app/utils/forms.server.ts'
import { helpChatPath, type HelpChatSent, type HelpChatView } from '#app/utils/help-chat.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { useZodForm } from '#app/utils/use-zod-form.ts'

/**
 * `/help/chat`, the built-in help chat (issue 32 §6, spec §7, decision 083): the member's
 * conversation with Circle 55 support (the support inbox of decision 039, answered by the team at
 * `/admin/support`) and a form to write, as a plain page without JavaScript; the header's Help
 * panel loads the same data (`?panel`) and posts the same form. A visitor gets the ways in and the
 * support address, which needs no account. `/help` is the help center (decision 088), linked from here.
 */
export const headers = formPageHeaders

const e = (key: string) => `help:errors.${key}`
const messageSchema = z.object({
  text: z.string({ error: e('required') }).trim().min(1, e('required')).max(maxMessageLength, e('tooLong')),
})
const apiErrors = {
  messages: { text: (codes: string[]) => codes.map((code) => (code === 'text_required' ? e('required') : code === 'text_too_long' ? e('tooLong') : e('invalid'))) },
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [auth, t] = await Promise.all([getAuthState(request, context), getT(request, context, ['help', 'common'])])
  const supportEmail = context.services.config.supportEmail
  const title = t('heading')
  const now = Date.now()
  if (auth.status !== 'signed-in') {
    if (auth.status === 'unavailable') throw data(null, { status: 503 })
    return { title, view: { signedIn: false, suspended: auth.status === 'suspended', supportEmail, now } satisfies HelpChatView }
  }
  const chat = await getApi(request, context).support.helpChat()
  // The vendor's widget only for the panel (the Help button pressed), and never while the team views
  // Circle 55 as the member (the API leaves it out then too).
  const panel = new URL(request.url).searchParams.has('panel')
  const impersonating = await isImpersonating(request, context)
  const widget = panel && !impersonating ? chat.widget : null
  return { title, view: { signedIn: true, supportEmail, now, channelId: chat.channel_id, messages: chat.messages, widget } satisfies HelpChatView }
}

/**
 * A message to support: the member's support conversation opened (made on first use), the
 * message sent in it. Invalid → 400 with the text kept; sent → back to the page at the message
 * (the panel's request: `{ sent }`, no redirect, so the page under the panel stays).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData()
  const panel = form.get('panel') === '1'
  const submission = parseWithZod(form, { schema: messageSchema })
  return formAction({ request, context }, submission, {
    notSaved: e('notSent'),
    apiErrors,
    save: async ({ text }) => {
      const api = getApi(request, context)
      const channel = await api.support.open()
      const sent = await api.chat.send(channel.id, text)
      if (panel) return data({ sent: sent.id } satisfies HelpChatSent)
      return redirectWithToast(context, `${helpChatPath}#m-${sent.id}`, 'help:sent')
    },
  })
}

export default function HelpChatPage() {
  const { view } = useLoaderData<typeof loader>()
  const { t } = useTranslation('help')
  return (
    <div className="prose">
      <h1>{t('heading')}</h1>
      <HelpSafetyLine />
      <HelpCenterLink />
      {view.signedIn ? <SignedIn view={view} /> : <HelpSignedOut view={view} />}
    </div>
  )
}

function SignedIn({ view }: { view: Extract<HelpChatView, { signedIn: true }> }) {
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation('help')
  const revalidator = useRevalidator()
  const [form, fields] = useZodForm({
    id: 'help',
    lastResult: lastResult && 'status' in lastResult ? lastResult : undefined,
    schema: messageSchema,
  })
  // Support's answer arrives live (decision 035's stream carries the support channel's messages).
  useChatEvents((event) => {
    if (event.type === 'message' && event.event.channel_id === view.channelId && revalidator.state === 'idle') revalidator.revalidate()
  })
  return (
    <>
      <ErrorSummary errors={summaryFrom({ text: fields.text.errors }, ['text'], 'help-')} formErrors={form.errors} />
      <p>{t('intro')}</p>
      <HelpConversation messages={view.messages} now={view.now} headingId="help-conversation" />
      <HelpMessageForm
        FormComponent={Form}
        formProps={getFormProps(form)}
        idPrefix="help-"
        errors={fields.text.errors}
        defaultValue={typeof fields.text.initialValue === 'string' ? fields.text.initialValue : undefined}
      />
      <h2>{t('otherWays')}</h2>
      {view.channelId ? (
        <p>
          <Link to={`/messenger?channel=${encodeURIComponent(view.channelId)}`}>{t('messenger')}</Link>
        </p>
      ) : null}
      <HelpByEmail email={view.supportEmail} intro={t('emailUs')} />
    </>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
