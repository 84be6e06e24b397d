import { z } from 'zod'
import { maxEmailLength } from './limits.ts'

/**
 * The member's own account (issue 13 §4, decision 028): changing the sign-in email address with
 * a code sent to the new one, and signing out everywhere. Deleting is `DELETE v1/users/{id}`.
 */

/** `POST v1/users/me/email-change`: the new address; a 6-digit code goes to it. */
export const emailChangeSchema = z
  .object({
    email: z
      .string({ error: 'required' })
      .trim()
      .min(1, 'required')
      .max(maxEmailLength, 'email_invalid')
      .pipe(z.email({ error: 'email_invalid' }))
      .meta({ description: 'The new address (email_invalid, required; same_email when it is the current one).' }),
  })
  .meta({ id: 'EmailChange' })
export type EmailChange = z.infer<typeof emailChangeSchema>

/** A 6-digit one-time code as a member types it (spaces are ignored): required, code_invalid. */
export const sixDigitCode = z
  .string({ error: 'required' })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'code_invalid'))
  .meta({ description: 'The 6 digits (spaces are ignored).' })

/** `POST v1/users/me/email-change/confirm`: the code emailed to the new address. */
export const emailChangeConfirmSchema = z
  .object({
    code: sixDigitCode,
  })
  .meta({ id: 'EmailChangeConfirm' })
export type EmailChangeConfirm = z.infer<typeof emailChangeConfirmSchema>

/** What `POST v1/users/me/email-change` answers (202): where the code went, and for how long it works. */
export const emailChangeStartedSchema = z
  .object({
    email: z.string(),
    expires_in_minutes: z.number().int(),
  })
  .meta({ id: 'EmailChangeStarted' })
export type EmailChangeStarted = z.infer<typeof emailChangeStartedSchema>

/** `GET v1/users/me/email-change`: the change waiting for its code (the code step shows where it went). */
export const pendingEmailChangeSchema = z
  .object({
    email: z.string(),
    expires_at: z.string(),
  })
  .meta({ id: 'PendingEmailChange' })
export type PendingEmailChange = z.infer<typeof pendingEmailChangeSchema>
