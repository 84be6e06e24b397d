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
