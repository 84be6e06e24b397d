import { Link } from '@remix-run/react'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { Message } from '#contract/chat.ts'
import { contactReminderKey, scamSignals, scamWarningKey } from '#contract/scam-shield.ts'
import { reportHref } from './__channel-parts.tsx'

/**
 * The scam shield on `/messenger` (issue 14 §6, decisions 031 and 038). The warning is worked out
 * here, from the message's text, wherever a message is drawn (the server's page and live
 * messages alike); the sender's reminder arrives as the send action's field error.
 */

/** Whether a message's text calls for the warning (worked out once per text). */
export function useScamWarned(text: string) {
  return useMemo(() => text !== '' && scamSignals(text).length > 0, [text])
}

/**
 * Under another member's message that asks for money or moves the talk off the platform
 * (`useScamWarned`): a calm warning with Report one tap away, inside the message's own list item.
 * Never on one's own messages or the product's (the caller decides), and it says nothing to the sender.
 * Stream's React client draws it too (`__stream-shield.client.tsx`, decision 042).
 */
export function ScamWarning({ message }: { message: Pick<Message, 'id' | 'channel_id'> }) {
  const { t } = useTranslation('chat')
  return (
    <p className="scam-warning" role="note">
      <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
        <path d="M12 3 2 21h20z" />
        <path d="M12 10v5M12 18v.01" />
      </svg>
      <span>
        {t(scamWarningKey)}{' '}
        <Link to={reportHref(message.channel_id, message.id)} className="scam-warning__report">
          {t('scamShield.reportMessage')}
        </Link>
      </span>
    </p>
  )
}

/** The send form's field errors without the contact reminder, and whether the reminder is among them. */
export function splitContactReminder(errors: string[] | null | undefined) {
  const reminded = errors?.includes(contactReminderKey) ?? false
  return { reminded, errors: errors?.filter((error) => error !== contactReminderKey) ?? null }
}

/**
 * The one-time reminder before sharing a phone number or email in a first message, next to the
 * field that keeps the typed text; sending again (the button says "Send anyway") acknowledges it.
 */
export function ContactReminder({ id }: { id: string }) {
  const { t } = useTranslation('chat')
  return (
    <div id={id} className="notice contact-reminder">
      <input type="hidden" name="acknowledge_contact_reminder" value="true" />
      <p>{t(contactReminderKey)}</p>
      <p>{t('scamShield.reminderHint')}</p>
    </div>
  )
}
