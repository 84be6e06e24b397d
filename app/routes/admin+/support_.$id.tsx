import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { maxMessageLength } from '#contract/limits.ts'
import type { SupportMessage } from '#contract/support.ts'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { MessageText } from '#app/components/message-text.tsx'
import { FieldErrors } from '#app/components/ui/field.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formAction } from '#app/utils/form-action.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { useZodForm } from '#app/utils/use-zod-form.ts'

/**
 * One member's support conversation for an admin (issue 14 §1, decision 039): the messages,
 * oldest first, an answer form (the member reads it as from "Circle 55 support") and "Mark as
 * done". Two forms, each with its `intent`; both work without JavaScript. The API decides who
 * may see it (`answer:support`): anyone else gets its 403.
 */
const e = (key: string) => `support:admin.errors.${key}`
const answerSchema = z.object({
  intent: z.literal('answer'),
  text: z.string({ error: e('required') }).trim().min(1, e('required')).max(maxMessageLength, e('tooLong')),
})
const apiErrorMapping = {
  messages: { text: (codes: string[]) => codes.map((code) => (code === 'text_required' ? e('required') : code === 'text_too_long' ? e('tooLong') : e('invalid'))) },
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const t = await getT(request, context, ['support', 'common'])
  const conversation = await getApi(request, context).support.conversation(params.id ?? '').catch(notFoundOnMissing)
  const name = conversation.member.display_name ?? t('common:member.generic')
  return { conversation, title: t('admin.conversationTitle', { name }) }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  await requireUser(request, context)
  const form = await request.formData()
  const id = params.id ?? ''
  switch (form.get('intent')) {
    case 'answer':
      return answer(request, context, id, form)
    case 'done':
      await getApi(request, context).support.done(id).catch(notFoundOnMissing)
      return redirectWithToast(context, '/admin/support', 'support:admin.doneToast')
    default:
      throw data({ error: 'Unknown intent' }, { status: 400 })
  }
}

/** The answer: invalid → 400 with the text kept; sent → back to the conversation, at the answer. */
async function answer(request: Request, context: AppLoadContext, id: string, form: FormData) {
  const submission = parseWithZod(form, { schema: answerSchema })
  // 401, 403 and 404 become their error page; the API down keeps the text.
  return formAction({ request, context }, submission, {
    notSaved: e('notSent'),
    apiErrors: apiErrorMapping,
    save: async ({ text }) => {
      const sent = await getApi(request, context).support.answer(id, text)
      return redirectWithToast(context, `/admin/support/${encodeURIComponent(id)}#m-${sent.id}`, 'support:admin.answeredToast')
    },
  })
}

export default function SupportConversationPage() {
  const { conversation } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t, i18n } = useTranslation('support')
  const [form, fields] = useZodForm({
    id: 'answer',
    lastResult,
    schema: answerSchema,
  })
  const name = conversation.member.display_name ?? t('common:member.generic')
  const textErrorId = fields.text.errors?.length ? 'text-error' : undefined
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' })
  return (
    <div className="prose">
      <h1>{t('admin.conversationTitle', { name })}</h1>
      <ErrorSummary errors={summaryFrom({ text: fields.text.errors }, ['text'], 'answer-')} formErrors={form.errors} />
      <p>
        <strong>{conversation.is_waiting ? t('admin.waiting') : t('admin.handled')}</strong>
        {conversation.member.display_name ? (
          <>
            {' · '}
            <Link to={`/p/${encodeURIComponent(conversation.member.slug)}`}>{t('admin.profile', { name })}</Link>
          </>
        ) : null}
      </p>
      {conversation.messages.length === 0 ? (
        <p>{t('admin.noMessages')}</p>
      ) : (
        <>
          <h2 className="visually-hidden">{t('admin.messagesLabel')}</h2>
          <ol className="messages">
            {conversation.messages.map((message) => (
              <SupportMessageItem key={message.id} message={message} name={name} when={date.format(new Date(message.created_at))} />
            ))}
          </ol>
        </>
      )}
      <h2 id="answer-title">{t('admin.answerHeading')}</h2>
      <Form method="post" className="form" {...getFormProps(form)} aria-labelledby="answer-title">
        <input type="hidden" name="intent" value="answer" />
        <div className={textErrorId ? 'field field--error' : 'field'}>
          <label htmlFor="answer-text">{t('admin.answerLabel')}</label>
          <span className="hint" id="answer-text-hint">
            {t('admin.answerHint', { max: maxMessageLength.toLocaleString(i18n.language) })}
          </span>
          <FieldErrors id="text-error" errors={fields.text.errors} />
          <textarea
            id="answer-text"
            name={fields.text.name}
            rows={5}
            defaultValue={typeof fields.text.initialValue === 'string' ? fields.text.initialValue : undefined}
            aria-invalid={textErrorId ? true : undefined}
            aria-describedby={['answer-text-hint', textErrorId].filter(Boolean).join(' ')}
          />
        </div>
        <SubmitButton pending="sending" className="button">
          {t('admin.send')}
        </SubmitButton>
      </Form>
      {conversation.is_waiting ? (
        <Form method="post" className="form">
          <input type="hidden" name="intent" value="done" />
          <p className="hint" id="done-hint">
            {t('admin.markDoneHint')}
          </p>
          <SubmitButton pending="saving" className="button button--secondary" aria-describedby="done-hint">
            {t('admin.markDone')}
          </SubmitButton>
        </Form>
      ) : null}
      <p>
        <Link to="/admin/support">{t('admin.back')}</Link>
      </p>
    </div>
  )
}

function SupportMessageItem({ message, name, when }: { message: SupportMessage; name: string; when: string }) {
  const { t } = useTranslation('support')
  const sender = message.from_support
    ? message.answered_by?.display_name
      ? t('admin.fromSupport', { name: message.answered_by.display_name })
      : t('admin.fromSupportUnknown')
    : name
  return (
    <li id={`m-${message.id}`} className={message.from_support ? 'message message--own' : 'message'}>
      <p className="message__meta">
        <span className="message__sender">{sender}</span> <time dateTime={message.created_at}>{when}</time>
      </p>
      <p className="message__body">
        <MessageText text={message.body} />
      </p>
    </li>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
