import { z } from 'zod'

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
    code: z
      .string({ error: 'required' })
      .transform((value) => value.replace(/\s+/g, ''))
      .pipe(z.string().regex(/^\d{6}$/, 'code_invalid'))
      .meta({ description: 'The 6 digits (spaces are ignored).' }),
  })
  .meta({ id: 'PhoneConfirmation' })
export type PhoneConfirmation = z.infer<typeof phoneConfirmationSchema>

/** The words a member may text back to cancel their seat (trimmed, any case). */
export const smsCancelWords = ['c', 'cancel', 'annuler', 'annuleer'] as const
