import type { SubmissionResult } from '@conform-to/react'
import { Form, Link, useFetcher } from '@remix-run/react'
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react'
import { useRootData } from '#app/utils/root-data.ts'
import { useTranslation } from 'react-i18next'
import { ErrorSummary } from '#app/components/error-summary.tsx'
import { MessageText } from '#app/components/message-text.tsx'
import { FieldErrors } from '#app/components/ui/field.tsx'
import type { ChannelWithMessages, Message } from '#contract/chat.ts'
import { maxMessageLength } from '#contract/limits.ts'
import { isNotSent, type NotSent } from '#app/utils/chat-live.tsx'
import type { TimelineItem } from '#app/utils/chat-timeline.ts'
import { BlockControl } from '#app/components/block-control.tsx'
import { ChannelBlockLink, FromBlockedLabel, HiddenMessages, blockReturnTo, offersBlock, useOptimisticBlock, useShowBlocked } from './__blocking.tsx'
import { TimeAgo, reportHref, useChannelName, useMemberName } from './__channel-parts.tsx'
import { useKeepPlace, type LiveChannel } from './__live.tsx'
import { ContactReminder, ScamWarning, splitContactReminder, useScamWarned } from './__scam-shield.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'

const channelHref = (id: string, extra = '') => `/messenger?channel=${encodeURIComponent(id)}${extra}`
/** The forms post to the index route with the channel kept, so an error shows the same channel again. */
const formAction = (id: string) => `/messenger?index&channel=${encodeURIComponent(id)}`

/** The open channel: its messages oldest first (newest at the bottom), its state, and the send form. */
export function OpenChannel({
  channel: loadedChannel,
  before,
  now,
  userId,
  result,
  live,
}: {
  channel: ChannelWithMessages
  before: string | null
  now: number
  userId: string
  result: SubmissionResult<string[]> | undefined
  /** With JavaScript: the messages as they arrive and the member's own being sent (decision 035). */
  live?: LiveChannel
}) {
  const { t } = useTranslation('messenger')
  // Blocking from this page closes the conversation at once (decision 041).
  const channel = useOptimisticBlock(loadedChannel)
  const name = useChannelName(channel)
  const productOnly = channel.cannot_write_reason === 'product_messages'
  const showBlocked = useShowBlocked()
  const viewingAs = useRootData()?.impersonation ?? null
  const items: TimelineItem[] = live?.items ?? channel.messages.map((message) => ({ message, pending: false }))
  const list = useRef<HTMLOListElement>(null)
  const { unseen, showUnseen } = useKeepPlace(list, items, userId)
  return (
    <section aria-labelledby="channel-title" className="channel">
      <h1 id="channel-title">{name}</h1>
      {/* At the top (GOV.UK): without JavaScript the page opens here, and each entry links to the field below the messages. */}
      <ErrorSummary errors={(result?.error?.text ?? []).map((message) => ({ fieldId: 'message-text', message }))} formErrors={result?.error?.[''] ?? []} />
      {channel.experience ? (
        <p>
          <Link to={`/activities/${encodeURIComponent(channel.experience.slug)}`}>{t('channel.activityLink', { title: channel.experience.title })}</Link>
        </p>
      ) : channel.other_member?.display_name ? (
        // A deleted, suspended or banned member (no name) has no profile to open (issue 29 §4).
        <p>
          <Link to={`/p/${encodeURIComponent(channel.other_member.slug)}`}>{t('channel.profileLink', { name })}</Link>
        </p>
      ) : channel.kind === 'support' ? (
        <p>{t('support:intro')}</p>
      ) : null}
      {!channel.is_accepted ? <RequestNotice channel={channel} name={name} /> : null}
      {channel.is_awaiting_acceptance ? (
        // Nothing written yet: nothing to accept, so nothing waits (issue 29 §4); the first message is the request.
        <div className="notice" role="note">
          <p>{t(items.some((item) => item.message.sender?.id === userId) ? 'channel.waiting' : 'channel.firstMessage', { name })}</p>
          <p>{t('channel.waitingLimit')}</p>
        </div>
      ) : null}
      {before ? (
        <p>
          <Link to={channelHref(channel.id)}>{t('channel.newest')}</Link>
        </p>
      ) : null}
      {channel.older_cursor ? (
        <p>
          <Link to={channelHref(channel.id, `&before=${encodeURIComponent(channel.older_cursor)}${showBlocked ? '&show_blocked=1' : ''}`)}>{t('channel.older')}</Link>
        </p>
      ) : null}
      <HiddenMessages channel={channel} />
      {items.length === 0 ? (
        <p>{t('channel.noMessages')}</p>
      ) : (
        <>
          <h2 className="visually-hidden">{t('channel.messagesLabel', { name })}</h2>
          <ol className="messages" ref={list}>
            {items.map(({ message, pending }) => (
              <MessageItem
                key={message.id}
                message={message}
                now={now}
                own={message.sender?.id === userId}
                pending={pending}
                fromBlocked={channel.blocked_message_ids.includes(message.id)}
                support={channel.kind === 'support'}
              />
            ))}
          </ol>
          {unseen > 0 ? (
            <p className="new-messages">
              <button type="button" className="button" onClick={showUnseen}>
                {t('live.newMessages', { count: unseen })}
              </button>
            </p>
          ) : null}
        </>
      )}
      {viewingAs ? (
        // Nobody on the team writes as the member (decision 078).
        <p className="notice">{t('common:impersonation.noMessages')}</p>
      ) : channel.can_write ? (
        <SendForm channelId={channel.id} result={result} live={live} />
      ) : (
        <p className="notice">{t(productOnly ? 'channel.cannotWrite.product_messages' : `channel.cannotWrite.${channel.cannot_write_reason ?? 'not_participant'}`, { name })}</p>
      )}
      {productOnly || channel.kind === 'support' ? null : (
        <p>
          <Link to={channelHref(channel.id, '&confirm=leave')}>{t('leave.start')}</Link>
        </p>
      )}
      <ChannelBlockLink channel={channel} name={name} />
      {productOnly || channel.kind === 'support' ? null : (
        <p>
          <Link to={reportHref(channel.id)}>{t('moderation:report.linkConversation')}</Link>
        </p>
      )}
    </section>
  )
}

/** A message request the member received (issue 14 §1): Accept, or Leave; nothing is sent until they reply or accept. */
function RequestNotice({ channel, name }: { channel: ChannelWithMessages; name: string }) {
  const { t } = useTranslation('messenger')
  return (
    <div className="notice" role="note">
      <h2>{t('request.heading')}</h2>
      <p>{t('request.body', { name })}</p>
      <Form method="post" action={formAction(channel.id)} className="button-row">
        <input type="hidden" name="channel" value={channel.id} />
        <SubmitButton pending="working" name="intent" value="accept" className="button">
          {t('request.accept')}
        </SubmitButton>
        <Link to={channelHref(channel.id, '&confirm=leave')} className="button button--secondary">
          {t('request.decline')}
        </Link>
        {/* Not for the blocked member (decision 034): they read "not available", as for a suspended member. */}
        {channel.other_member && offersBlock(channel) ? (
          <BlockControl
            slug={channel.other_member.slug}
            name={name}
            isBlocked={channel.cannot_write_reason === 'blocked'}
            returnTo={blockReturnTo(channel.id)}
            short
            className="button button--secondary"
          />
        ) : null}
        <Link to={reportHref(channel.id)} className="button button--secondary">
          {t('moderation:report.link')}
        </Link>
      </Form>
    </div>
  )
}

/** One message; `pending`: the member's own, shown before the server has it ("Sending…", decision 035). */
function MessageItem({
  message,
  now,
  own,
  pending = false,
  fromBlocked = false,
  support = false,
}: {
  message: Message
  now: number
  own: boolean
  pending?: boolean
  fromBlocked?: boolean
  support?: boolean
}) {
  const { t } = useTranslation('messenger')
  const fromMember = !own && !message.is_system && message.sender !== null
  const warned = useScamWarned(fromMember ? message.body : '')
  const memberName = useMemberName()
  // In a support conversation, answers come from "Circle 55 support", never an admin's name (decision 039).
  const from = support ? t('support:name') : t('product.from')
  const sender = message.is_system ? t('common:brand') : own ? t('you') : memberName(message.sender)
  const className = message.is_system ? 'message message--product' : own ? `message message--own${pending ? ' message--pending' : ''}` : fromBlocked ? 'message message--blocked' : 'message'
  return (
    <li id={`m-${message.id}`} className={className}>
      <p className="message__meta">
        <span className="message__sender">{message.is_system ? from : sender}</span>{' '}
        {pending ? <span className="message__status">{t('live.sending')}</span> : <TimeAgo date={message.created_at} now={now} />}
        {fromBlocked ? <FromBlockedLabel /> : null}
      </p>
      <p className="message__body">
        <MessageText text={message.body} />
      </p>
      {/* Another member's message: Report, inside the scam warning when it shows (decisions 037, 038). */}
      {!fromMember ? null : warned ? (
        <ScamWarning message={message} />
      ) : (
        <p className="message__actions">
          <Link to={reportHref(message.channel_id, message.id)}>{t('moderation:report.link')}</Link>
        </p>
      )}
    </li>
  )
}

/** The client action's answers to a message sent with JavaScript (`_index.tsx`): sent, refused (the action's own answer), or not sent at all. */
export type LiveSendAnswer = { done: true; messageId: string | null } | { result: SubmissionResult<string[]> } | NotSent

interface Sending {
  key: string
  /** The optimistic message's key; null when nothing was shown (an empty text the server will refuse). */
  pendingKey: string | null
  text: string
  form: FormData
}

/**
 * Works without JavaScript: POST, then back to the new message; on an error, the text comes back
 * with it. With JavaScript (decision 035) the message shows at once as "Sending…" through a
 * fetcher, the field empties and keeps the focus; if it is not sent, the message leaves the list,
 * the text goes back into the field and the reason shows beside it (the action's own error, or
 * "not sent, check your connection").
 */
function SendForm({ channelId, result, live }: { channelId: string; result: SubmissionResult<string[]> | undefined; live?: LiveChannel }) {
  const { t } = useTranslation('messenger')
  const field = useRef<HTMLTextAreaElement>(null)
  const [sending, setSending] = useState<Sending[]>([])
  /** The answer to the last message sent with JavaScript that was not sent (replaces the page's action data). */
  const [refused, setRefused] = useState<SubmissionResult<string[]> | null>(null)
  const shown = refused ?? result
  // With JavaScript the form's own errors show beside the field too (there is no page reload to show the summary).
  // The one-time contact reminder (decision 038) comes as a field message, shown apart from errors.
  const { reminded, errors: fieldErrors } = splitContactReminder(
    refused ? [...(refused.error?.text ?? []), ...(refused.error?.[''] ?? [])] : (result?.error?.text ?? null),
  )
  const typed = typeof shown?.initialValue?.text === 'string' && !refused ? shown.initialValue.text : ''
  const describedBy = ['message-text-hint', fieldErrors?.length ? 'message-text-error' : null, reminded ? 'message-text-reminder' : null]
    .filter(Boolean)
    .join(' ')

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const textarea = field.current
    if (!live || !textarea) return
    event.preventDefault()
    const text = textarea.value
    const form = new FormData(event.currentTarget)
    form.set('intent', 'send')
    form.set('live', '1')
    const trimmed = text.trim()
    // The action's schema decides what is valid; an empty or too long text is not shown as sent.
    const pendingKey = trimmed.length > 0 && trimmed.length <= maxMessageLength ? live.addPending(text) : null
    setSending((current) => [...current, { key: `send-${Date.now().toString(36)}-${current.length}`, pendingKey, text, form }])
    setRefused(null)
    if (pendingKey) textarea.value = ''
    textarea.focus()
  }

  const onAnswer = useCallback(
    (sent: Sending, answer: LiveSendAnswer | undefined) => {
      setSending((current) => current.filter((entry) => entry.key !== sent.key))
      if (answer && 'done' in answer) {
        if (sent.pendingKey && answer.messageId) live?.confirmPending(sent.pendingKey, answer.messageId)
        else if (sent.pendingKey) live?.dropPending(sent.pendingKey)
        return
      }
      if (sent.pendingKey) live?.dropPending(sent.pendingKey)
      const textarea = field.current
      if (textarea && sent.pendingKey) {
        // Nothing typed is lost: the text goes back, before anything written since.
        const now = textarea.value
        textarea.value = now.trim() ? `${sent.text}\n${now}` : sent.text
      }
      const answered = answer && !isNotSent(answer) && 'result' in answer ? answer.result : null
      const errors = answered ? [...(answered.error?.text ?? []), ...(answered.error?.[''] ?? [])] : []
      // An answer without errors is a state of the form (another step to confirm) and shows as such.
      const reply = answered ?? { status: 'error' as const, error: { '': ['messenger:live.notSent'] } }
      setRefused(reply)
      const said = (answered ? errors : ['messenger:live.notSent']).map((key) => t(key)).join(' ')
      if (said) live?.announce(said)
      textarea?.focus()
    },
    [live, t],
  )

  return (
    <Form method="post" action={formAction(channelId)} className="send-form" aria-labelledby="send-title" onSubmit={live ? onSubmit : undefined}>
      <h2 id="send-title" className="visually-hidden">
        {t('send.heading')}
      </h2>
      <input type="hidden" name="channel" value={channelId} />
      <div className={fieldErrors?.length ? 'field field--error' : 'field'}>
        <label htmlFor="message-text">{t('send.label')}</label>
        <span id="message-text-hint" className="hint">
          {t('send.hint', { max: maxMessageLength.toLocaleString() })}
        </span>
        <FieldErrors id="message-text-error" errors={fieldErrors} />
        {reminded ? <ContactReminder id="message-text-reminder" /> : null}
        <textarea
          ref={field}
          id="message-text"
          name="text"
          rows={4}
          defaultValue={typed}
          aria-invalid={fieldErrors?.length ? true : undefined}
          aria-describedby={describedBy}
        />
      </div>
      {live ? (
        // Sent at once and shown as sending in the list (optimistic): the next message can follow at once.
        <button type="submit" name="intent" value="send" className="button">
          {reminded ? t('chat:scamShield.sendAnyway') : t('send.submit')}
        </button>
      ) : (
        <SubmitButton pending="sending" name="intent" value="send" className="button">
          {reminded ? t('chat:scamShield.sendAnyway') : t('send.submit')}
        </SubmitButton>
      )}
      {sending.map((entry) => (
        <Send key={entry.key} sending={entry} channelId={channelId} onAnswer={onAnswer} />
      ))}
    </Form>
  )
}

/** One message on its way: its own fetcher, so several can be in flight without cancelling each other. */
function Send({ sending, channelId, onAnswer }: { sending: Sending; channelId: string; onAnswer: (sent: Sending, answer: LiveSendAnswer | undefined) => void }) {
  const fetcher = useFetcher<LiveSendAnswer>({ key: sending.key })
  const submitted = useRef(false)
  const { submit } = fetcher
  useEffect(() => {
    if (submitted.current) return
    submitted.current = true
    submit(sending.form, { method: 'post', action: formAction(channelId) })
  }, [submit, sending.form, channelId])
  const answered = fetcher.state === 'idle' && submitted.current && fetcher.data !== undefined
  useEffect(() => {
    if (answered) onAnswer(sending, fetcher.data)
  }, [answered, fetcher.data, onAnswer, sending])
  return null
}

/** Leaving, confirmed on its own view (works without JavaScript): says what leaving does. */
export function ConfirmLeave({ channel }: { channel: ChannelWithMessages }) {
  const { t } = useTranslation('messenger')
  const name = useChannelName(channel)
  return (
    <section aria-labelledby="leave-title">
      <h1 id="leave-title">{t('leave.title', { name })}</h1>
      <p>{channel.experience ? t('leave.bodyActivity') : t('leave.bodyDirect', { name })}</p>
      <Form method="post" action={formAction(channel.id)} className="button-row">
        <input type="hidden" name="channel" value={channel.id} />
        <SubmitButton pending="working" name="intent" value="leave" className="button button--danger">
          {t('leave.confirm')}
        </SubmitButton>
        <Link to={channelHref(channel.id)} className="button button--secondary">
          {t('leave.cancel')}
        </Link>
      </Form>
    </section>
  )
}
