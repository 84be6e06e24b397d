import { z } from 'zod'
import { sixDigitCode } from './account.ts'

/**
 * Text messages (issue 15 §3, decision 049): confirming the member's phone with a 6-digit code
 * texted to it, before any text is sent to it.
 */

/** What `POST v1/users/me/phone/confirmation` answers (202): where the code went, and for how long it works. */
export const phoneConfirmationStartedSchema = z
  .object({
    phone: z.string().meta({ description: 'The number the code went to, formatted for reading.' }),
    expires_in_minutes: z.number().int(),
  })
  .meta({ id: 'PhoneConfirmationStarted' })
export type PhoneConfirmationStarted = z.infer<typeof phoneConfirmationStartedSchema>

/** `PUT v1/users/me/phone/confirmation`: the code texted to the member's phone. */
export const phoneConfirmationSchema = z
  .object({
    code: sixDigitCode,
  })
  .meta({ id: 'PhoneConfirmation' })
export type PhoneConfirmation = z.infer<typeof phoneConfirmationSchema>

/**
 * The words a member may text back to cancel their seat (trimmed, any case). Not "CANCEL":
 * carriers and Twilio read it as STOP (decision 057), so it would end every text to the member.
 */
export const smsCancelWords = ['c', 'annuler', 'annuleer'] as const

/**
 * The words after which carriers and Twilio stop every text from us to the number (Twilio's
 * default opt-out keywords; trimmed, any case), and those that allow texts again (decision 057).
 */
export const smsStopWords = ['stop', 'stopall', 'unsubscribe', 'cancel', 'end', 'quit', 'optout', 'revoke'] as const
export const smsStartWords = ['start', 'unstop', 'yes'] as const
/** The words Twilio answers with its own help text on a long code (trimmed, any case). */
export const smsHelpWords = ['help', 'info'] as const
