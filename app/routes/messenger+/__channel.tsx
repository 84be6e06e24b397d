import type { SubmissionResult } from '@conform-to/react'
import { Form, Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ErrorSummary } from '#app/components/error-summary.tsx'
import { MessageText } from '#app/components/message-text.tsx'
import { FieldErrors } from '#app/components/ui/field.tsx'
import type { ChannelWithMessages, Message } from '#contract/chat.ts'
import { maxMessageLength } from '#contract/limits.ts'
import { TimeAgo, useChannelName, useMemberName } from './__channel-parts.tsx'

const channelHref = (id: string, extra = '') => `/messenger?channel=${encodeURIComponent(id)}${extra}`
/** The forms post to the index route with the channel kept, so an error shows the same channel again. */
const formAction = (id: string) => `/messenger?index&channel=${encodeURIComponent(id)}`
/** The report page (decision 037): the conversation, or one of its messages. */
const reportHref = (channelId: string, messageId?: string) =>
  `/messenger/report?channel=${encodeURIComponent(channelId)}${messageId ? `&message=${encodeURIComponent(messageId)}` : ''}`

/** The open channel: its messages oldest first (newest at the bottom), its state, and the send form. */
export function OpenChannel({
  channel,
  before,
  now,
  userId,
  result,
}: {
  channel: ChannelWithMessages
  before: string | null
  now: number
  userId: string
  result: SubmissionResult<string[]> | undefined
}) {
  const { t } = useTranslation('messenger')
  const name = useChannelName(channel)
  const productOnly = channel.cannot_write_reason === 'product_messages'
  return (
    <section aria-labelledby="channel-title" className="channel">
      <h1 id="channel-title">{name}</h1>
      {/* At the top (GOV.UK): without JavaScript the page opens here, and each entry links to the field below the messages. */}
      <ErrorSummary errors={(result?.error?.text ?? []).map((message) => ({ fieldId: 'message-text', message }))} formErrors={result?.error?.[''] ?? []} />
      {channel.experience ? (
        <p>
          <Link to={`/activities/${encodeURIComponent(channel.experience.slug)}`}>{t('channel.activityLink', { title: channel.experience.title })}</Link>
        </p>
      ) : channel.other_member ? (
        <p>
          <Link to={`/p/${encodeURIComponent(channel.other_member.slug)}`}>{t('channel.profileLink', { name })}</Link>
        </p>
      ) : null}
      {!channel.is_accepted ? <RequestNotice channel={channel} name={name} /> : null}
      {channel.is_awaiting_acceptance ? (
        <div className="notice" role="note">
          <p>{t('channel.waiting', { name })}</p>
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
          <Link to={channelHref(channel.id, `&before=${encodeURIComponent(channel.older_cursor)}`)}>{t('channel.older')}</Link>
        </p>
      ) : null}
      {channel.messages.length === 0 ? (
        <p>{t('channel.noMessages')}</p>
      ) : (
        <>
          <h2 className="visually-hidden">{t('channel.messagesLabel', { name })}</h2>
          <ol className="messages">
            {channel.messages.map((message) => (
              <MessageItem key={message.id} message={message} now={now} own={message.sender?.id === userId} />
            ))}
          </ol>
        </>
      )}
      {channel.can_write ? (
        <SendForm channelId={channel.id} result={result} />
      ) : (
        <p className="notice">{t(productOnly ? 'channel.cannotWrite.product_messages' : `channel.cannotWrite.${channel.cannot_write_reason ?? 'not_participant'}`, { name })}</p>
      )}
      {productOnly ? null : (
        <p>
          <Link to={channelHref(channel.id, '&confirm=leave')}>{t('leave.start')}</Link>
        </p>
      )}
      {productOnly ? null : (
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
        <button type="submit" name="intent" value="accept" className="button">
          {t('request.accept')}
        </button>
        <Link to={channelHref(channel.id, '&confirm=leave')} className="button button--secondary">
          {t('request.decline')}
        </Link>
        <Link to={reportHref(channel.id)} className="button button--secondary">
          {t('moderation:report.link')}
        </Link>
      </Form>
    </div>
  )
}

function MessageItem({ message, now, own }: { message: Message; now: number; own: boolean }) {
  const { t } = useTranslation('messenger')
  const memberName = useMemberName()
  const sender = message.is_system ? t('common:brand') : own ? t('you') : memberName(message.sender)
  const className = message.is_system ? 'message message--product' : own ? 'message message--own' : 'message'
  return (
    <li id={`m-${message.id}`} className={className}>
      <p className="message__meta">
        <span className="message__sender">{message.is_system ? t('product.from') : sender}</span> <TimeAgo date={message.created_at} now={now} />
      </p>
      <p className="message__body">
        <MessageText text={message.body} />
      </p>
      {own || message.is_system || !message.sender ? null : (
        <p className="message__actions">
          <Link to={reportHref(message.channel_id, message.id)}>{t('moderation:report.link')}</Link>
        </p>
      )}
    </li>
  )
}

/** Works without JavaScript: POST, then back to the new message; on an error, the text comes back with it. */
function SendForm({ channelId, result }: { channelId: string; result: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation('messenger')
  const fieldErrors = result?.error?.text ?? null
  const typed = typeof result?.initialValue?.text === 'string' ? result.initialValue.text : ''
  const describedBy = ['message-text-hint', fieldErrors?.length ? 'message-text-error' : null].filter(Boolean).join(' ')
  return (
    <Form method="post" action={formAction(channelId)} className="send-form" aria-labelledby="send-title">
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
        <textarea
          id="message-text"
          name="text"
          rows={4}
          defaultValue={typed}
          aria-invalid={fieldErrors?.length ? true : undefined}
          aria-describedby={describedBy}
        />
      </div>
      <button type="submit" name="intent" value="send" className="button">
        {t('send.submit')}
      </button>
    </Form>
  )
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
        <button type="submit" name="intent" value="leave" className="button button--danger">
          {t('leave.confirm')}
        </button>
        <Link to={channelHref(channel.id)} className="button button--secondary">
          {t('leave.cancel')}
        </Link>
      </Form>
    </section>
  )
}
