import { z } from 'zod'
import { employments, familyMembers, joinReasons, languages, relationshipStatuses } from '#contract/enums.ts'
import { memberText } from '#contract/input-validation.ts'
import { maxPhoneLength } from '#contract/limits.ts'
import { interests, maxInterests, maxPromptAnswerLength, nearbyVisibilities, profilePrompts } from '#contract/profile.ts'
import { memberTextMessages } from './form-messages.ts'
import { nameSchema } from './identity-schemas.ts'
import { genderChoices, preferNotToSay, promptRows, type ProfileSection } from './profile-sections.ts'

/**
 * The forms of `/account/edit` (issue 13 §1): one schema per section, shared by the browser
 * (conform) and the server. Each section sends its own `intent`. Messages are translation keys
 * (`validation.*` in common, `profile:validation.*`).
 */

export { isProfileSection, profileSections, promptRows, sectionAnchor, type ProfileSection } from './profile-sections.ts'

const choiceInvalid = 'profile:validation.choiceInvalid'

/** A checkbox group: none ticked sends nothing, one ticked sends a string. */
const ticked = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? (value as unknown[]) : [value]), z.array(z.enum(values, { error: choiceInvalid })))

/** A select or radio group that may be left empty ("Not chosen"): empty saves nothing (null). */
const optionalChoice = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .enum(values, { error: choiceInvalid })
    .optional()
    .transform((value) => value ?? null)

export const nameFormSchema = z.object({
  intent: z.literal('name'),
  firstName: nameSchema('firstName'),
  lastName: nameSchema('lastName'),
})

export const aboutFormSchema = z.object({
  intent: z.literal('about'),
  gender: z
    .enum(genderChoices, { error: 'validation.genderInvalid' })
    .optional()
    .transform((choice) => (choice === preferNotToSay ? null : (choice ?? null))),
  relationship: optionalChoice(relationshipStatuses),
  employment: optionalChoice(employments),
  family: ticked(familyMembers),
  reasons: ticked(joinReasons),
})

export const interestsFormSchema = z.object({
  intent: z.literal('interests'),
  interests: ticked(interests as unknown as readonly [string, ...string[]]).pipe(
    z.array(z.enum(interests)).max(maxInterests, 'profile:validation.tooManyInterests'),
  ),
})

const promptRow = z
  .object({
    prompt: z.enum(profilePrompts, { error: choiceInvalid }).optional(),
    answer: memberText(z.string().trim(), memberTextMessages, { multiline: true })
      .max(maxPromptAnswerLength, 'profile:validation.answerTooLong')
      .optional(),
  })
  .optional()

/**
 * Up to three rows of a question and an answer. A row left empty is skipped; a question without
 * an answer, an answer without a question, and a question asked twice are refused on the row.
 */
export const promptsFormSchema = z.object({
  intent: z.literal('prompts'),
  prompts: z
    .array(promptRow)
    .max(promptRows, choiceInvalid)
    .optional()
    .superRefine((rows = [], ctx) => {
      const seen = new Set<string>()
      rows.forEach((row, index) => {
        const prompt = row?.prompt
        const answer = row?.answer ?? ''
        if (!prompt && !answer) return
        if (!prompt) ctx.addIssue({ code: 'custom', message: 'profile:validation.questionRequired', path: [index, 'prompt'] })
        else if (seen.has(prompt)) ctx.addIssue({ code: 'custom', message: 'profile:validation.duplicatePrompt', path: [index, 'prompt'] })
        if (prompt && !answer) ctx.addIssue({ code: 'custom', message: 'profile:validation.answerRequired', path: [index, 'answer'] })
        if (prompt) seen.add(prompt)
      })
    })
    .transform((rows = []) =>
      rows.flatMap((row) => (row?.prompt && row.answer ? [{ prompt: row.prompt, answer: row.answer }] : [])),
    ),
})

export const cityFormSchema = z.object({
  intent: z.literal('city'),
  /** The words in the city field: the server resolves them when no place was chosen. */
  q: z.string().trim().max(100, 'profile:validation.unknown_place').optional(),
  /** The place chosen from the suggestions (JavaScript only). */
  place: z.string().trim().max(200).optional(),
})

export const phoneFormSchema = z.object({
  intent: z.literal('phone'),
  phone: z.string().trim().max(maxPhoneLength, 'validation.invalid_phone').optional(),
})

export const privacyFormSchema = z.object({
  intent: z.literal('privacy'),
  showAge: z.enum(['yes', 'no'], { error: choiceInvalid }),
  nearbyVisibility: z.enum(nearbyVisibilities, { error: choiceInvalid }),
  /** New-message search: leave out (default) or show the members one blocked (spec §6, decision 034). */
  blockedInSearch: z.enum(['hide', 'show'], { error: choiceInvalid }).optional(),
})

export const languageFormSchema = z.object({
  intent: z.literal('language'),
  language: z.enum(languages, { error: choiceInvalid }),
})

export const profileFormSchemas = {
  name: nameFormSchema,
  about: aboutFormSchema,
  interests: interestsFormSchema,
  prompts: promptsFormSchema,
  city: cityFormSchema,
  phone: phoneFormSchema,
  privacy: privacyFormSchema,
  language: languageFormSchema,
} as const satisfies Record<ProfileSection, z.ZodType>

