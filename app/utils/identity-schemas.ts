import { z } from 'zod'
import { birthYears, daysInMonth, isOldEnough } from '#contract/birth-date.ts'
import { memberText } from '#contract/input-validation.ts'
import { maxNameLength } from '#contract/limits.ts'
import { memberTextMessages } from './form-messages.ts'

/**
 * Schemas of the identity pages, shared by the browser (conform) and the server.
 * Messages are translation keys.
 */
export const emailSchema = z
  .string({ error: 'validation.emailRequired' })
  .trim()
  .max(254, 'validation.emailInvalid')
  .pipe(z.email({ error: 'validation.emailInvalid' }))

export const newPasswordSchema = z
  .string({ error: 'validation.passwordRequired' })
  .min(10, 'validation.passwordTooShort')
  .max(200, 'validation.passwordTooLong')

export const codeSchema = z
  .string({ error: 'validation.codeRequired' })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'validation.codeFormat'))

export const passwordSignInSchema = z.object({
  email: emailSchema,
  password: z.string({ error: 'validation.passwordRequired' }).max(200, 'validation.passwordTooLong'),
})

/** "Sign in with a code instead", from the password form: the email typed goes along, as it is. */
export const useCodeSchema = z.object({ intent: z.literal('code') })

export const sendCodeSchema = z.object({ intent: z.literal('send'), email: emailSchema })
export const verifyCodeSchema = z.object({ intent: z.literal('verify'), email: emailSchema, code: codeSchema })
/** "Send a new code" on a code step (sign-in with a code, sign-up). */
export const resendCodeSchema = z.object({ intent: z.literal('resend'), email: emailSchema })

/** A name; one made only of invisible characters (zero-width spaces…) counts as missing. */
export const nameSchema = (key: 'firstName' | 'lastName') =>
  memberText(z.string({ error: `validation.${key}Required` }).trim(), memberTextMessages)
    .min(1, `validation.${key}Required`)
    .max(maxNameLength, 'validation.tooLong')

export const signUpSchema = z
  .object({
    intent: z.literal('details'),
    firstName: nameSchema('firstName'),
    lastName: nameSchema('lastName'),
    email: emailSchema,
    birthMonth: z.coerce.number({ error: 'validation.birthMonthRequired' }).int().min(1, 'validation.birthMonthRequired').max(12, 'validation.birthMonthRequired'),
    birthDay: z.coerce.number({ error: 'validation.birthDayRequired' }).int().min(1, 'validation.birthDayRequired').max(31, 'validation.birthDayRequired'),
    birthYear: z.coerce.number({ error: 'validation.birthYearRequired' }).int('validation.birthYearRequired'),
    password: newPasswordSchema.optional(),
  })
  .superRefine((value, ctx) => {
    // A year outside the list comes from a crafted form: one message, about age (issue 12 §4).
    const years = birthYears()
    if (value.birthYear > (years[0] ?? 0)) {
      ctx.addIssue({ code: 'custom', path: ['birthYear'], message: 'validation.minimumAge' })
      return
    }
    if (value.birthYear < (years.at(-1) ?? 0)) {
      ctx.addIssue({ code: 'custom', path: ['birthYear'], message: 'validation.birthYearTooEarly' })
      return
    }
    if (value.birthDay > daysInMonth(value.birthMonth, value.birthYear)) {
      ctx.addIssue({ code: 'custom', path: ['birthDay'], message: 'validation.birthDayInvalid' })
      return
    }
    if (!isOldEnough({ year: value.birthYear, month: value.birthMonth, day: value.birthDay })) {
      ctx.addIssue({ code: 'custom', path: ['birthYear'], message: 'validation.minimumAge' })
    }
  })

export const confirmSignUpSchema = z.object({ intent: z.literal('confirm'), email: emailSchema, code: codeSchema })

export const resetRequestSchema = z.object({ intent: z.literal('send'), email: emailSchema })
export const resetConfirmSchema = z.object({
  intent: z.literal('reset'),
  email: emailSchema,
  code: codeSchema,
  password: newPasswordSchema,
})
