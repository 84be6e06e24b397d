import { z } from 'zod'
import { employments, familyMembers, genders, joinReasons, languages, onboardingSteps, relationshipStatuses, userStates } from './enums.ts'
import { memberText, memberTextCodes } from './input-validation.ts'
import { maxNameLength, maxPhoneLength } from './limits.ts'
import { interests, maxInterests, maxProfilePrompts, maxPromptAnswerLength, nearbyVisibilities, profilePrompts } from './profile.ts'
import { staffRoles } from './staff.ts'

/** Members (spec §3 "User", §7 `v1/users`): what the API accepts and answers. */

const nullableString = z.string().nullable()

/** The signed-in member (`GET v1/users/me`, spec §3). */
export const userSchema = z
  .object({
    id: z.string(),
    stream_id: z.string(),
    slug: z.string(),
    email: nullableString,
    phone: nullableString.meta({ description: 'E.164.' }),
    formatted_phone: nullableString.meta({ description: 'US national format (international for other countries).' }),
    phone_confirmed: z.boolean().meta({ description: 'Whether the member confirmed the phone with a texted code; texts go only to a confirmed phone.' }),
    texts_stopped: z.boolean().meta({ description: 'Whether the phone texted STOP to us and not START since: no text goes to it (decision 057).' }),
    first_name: nullableString,
    last_name: nullableString,
    name: nullableString,
    formatted_name: nullableString,
    display_name: nullableString.meta({ description: 'Spec §3 display-name rule; null shows as the generic member label.' }),
    dob: nullableString.meta({ description: 'YYYY-MM-DD.' }),
    age: z.number().int().nullable(),
    gender: z.enum(genders).nullable(),
    join_reasons: z.array(z.enum(joinReasons)),
    avatar: z.object({ url: z.string() }).nullable(),
    admin: z.boolean(),
    staff_role: z.enum(staffRoles).nullable().meta({ description: 'The member’s role on the Circle 55 team (decision 077); null for members.' }),
    banned: z.boolean(),
    is_suspended: z.boolean(),
    state: z.enum(userStates),
    lat: z.number().nullable(),
    long: z.number().nullable(),
    city: nullableString,
    region: nullableString.meta({ description: 'Two-letter US state code of `city`.' }),
    locale: z.enum(languages).nullable(),
    onboarded: z.boolean(),
    onboarding_step: z.enum(onboardingSteps).nullable().meta({ description: 'Where onboarding resumes after basic info; null or `done` when there is nothing left.' }),
    employment: z.enum(employments).nullable(),
    relationship: z.enum(relationshipStatuses).nullable(),
    family: z.array(z.enum(familyMembers)),
    show_age: z.boolean().meta({ description: 'Others see the age by decade ("in their 60s"); false by default.' }),
    nearby_visibility: z.enum(nearbyVisibilities).meta({ description: 'Who sees the member in Members near them; everyone by default.' }),
    show_blocked_in_chat_search: z
      .boolean()
      .meta({ description: 'New-message search (`GET v1/chat/users`) also lists the members one blocked (spec §6); false by default.' }),
    interests: z.array(z.enum(interests)).meta({ description: 'Interest keys of the catalogue, in the order chosen.' }),
    prompts: z.array(z.object({ prompt: z.enum(profilePrompts), answer: z.string() })).meta({ description: 'Prompt keys and answers, in order.' }),
    created_at: z.string(),
    stream_token: nullableString,
    badges: z
      .object({
        messages: z.number().int().meta({ description: 'Unread messages, as `GET v1/chat/message-channels` counts `total_unread`.' }),
        notifications: z.number().int().meta({ description: 'Unread notifications, as `GET users/notifications?seen_at=null` counts them.' }),
      })
      .optional()
      .meta({ description: 'Only with `include=badges` on `GET v1/users/me`: the header\'s unread totals, read with the member (every page asks for both).' }),
  })
  .meta({ id: 'User' })
export type User = z.infer<typeof userSchema>

/** `GET v1/users/me`'s query: `include=badges` adds the unread totals (decision 052). */
export const meQuerySchema = z.object({
  include: z.enum(['badges'], { error: 'include_invalid' }).optional().meta({ description: '`badges`: the unread messages and notifications too, in `badges`.' }),
})

/** `POST v1/users/me/sign-ins`: the sign-in before this one, and whether it was long ago. */
export const signInSchema = z
  .object({
    previous_sign_in_at: nullableString.meta({ description: 'The sign-in before this one; null for the first one recorded.' }),
    welcome_back: z.boolean().meta({ description: 'The member had not signed in for 90 days or more: greet them back.' }),
  })
  .meta({ id: 'SignIn' })
export type SignIn = z.infer<typeof signInSchema>

/**
 * Another member (`GET users/{id}`, issue 13 §3, decision 027): what any signed-in member may
 * see. Anonymous callers get `id`, `slug` and `display_name` only (for referral banners); a
 * suspended or banned member answers `id`, `slug`, `display_name: null` (the generic member
 * label) and `is_suspended: true`, nothing else. Never contact details, birth date, exact age or
 * coordinates: the age only by decade, and only when the member chose to show it.
 */
export const publicUserSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    display_name: nullableString.meta({ description: 'Spec §3 display-name rule; null shows as the generic member label.' }),
    is_suspended: z.boolean().optional().meta({ description: 'Suspended, banned or deleted: show the generic member label and nothing else.' }),
    avatar: z.object({ url: z.string() }).nullable().optional(),
    is_verified: z.boolean().optional().meta({ description: 'The member’s identity check was approved.' }),
    city: nullableString.optional().meta({ description: 'Home town and state ("Portland, OR"); never coordinates.' }),
    created_at: z.string().optional().meta({ description: 'Member since.' }),
    age_decade: z
      .number()
      .int()
      .nullable()
      .optional()
      .meta({ description: 'The decade of the member’s age (60: "in their 60s"), only when they chose to show it.' }),
    employment: z.enum(employments).nullable().optional(),
    relationship: z.enum(relationshipStatuses).nullable().optional(),
    family: z.array(z.enum(familyMembers)).optional(),
  })
  .meta({ id: 'PublicUser' })
export type PublicUser = z.infer<typeof publicUserSchema>

/** A name: one that only invisible characters make up counts as missing (`required`). */
const nameField = memberText(z.string().trim(), memberTextCodes).min(1, 'required').max(maxNameLength, 'too_long')

function isUnique(values: readonly string[]) {
  return new Set(values).size === values.length
}

/** One answered prompt: a catalogue key and the member's words (1 to 300 characters, line breaks kept). */
export const promptAnswerSchema = z.object({
  prompt: z.enum(profilePrompts),
  answer: memberText(z.string().trim(), memberTextCodes, { multiline: true })
    .min(1, 'required')
    .max(maxPromptAnswerLength, 'too_long'),
})

/** `PUT v1/users/me`: the fields a member may change on their own record; others are ignored. */
export const updateMeSchema = z
  .object({
    first_name: nameField.optional(),
    last_name: nameField.optional(),
    gender: z.enum(genders).nullable().optional(),
    join_reasons: z.array(z.enum(joinReasons)).max(joinReasons.length).optional(),
    phone: z
      .string()
      .trim()
      .max(maxPhoneLength, 'invalid_phone')
      .nullable()
      .optional()
      .meta({ description: 'Parsed as US and saved in E.164 (invalid_phone otherwise); null or "" removes it.' }),
    locale: z.enum(languages).optional(),
    onboarded: z.literal(true).optional(),
    onboarding_step: z.enum(onboardingSteps).optional(),
    employment: z.enum(employments).nullable().optional(),
    relationship: z.enum(relationshipStatuses).nullable().optional(),
    family: z.array(z.enum(familyMembers)).max(familyMembers.length).nullable().optional(),
    show_age: z.boolean().optional(),
    nearby_visibility: z.enum(nearbyVisibilities).optional(),
    show_blocked_in_chat_search: z.boolean().optional(),
    interests: z
      .array(z.enum(interests))
      .max(maxInterests, 'too_many_interests')
      .refine(isUnique, 'duplicate_interest')
      .nullable()
      .optional()
      .meta({ description: `Catalogue keys, at most ${maxInterests}, each once (too_many_interests, duplicate_interest); null or [] clears them.` }),
    prompts: z
      .array(promptAnswerSchema)
      .max(maxProfilePrompts, 'too_many_prompts')
      .refine((answers) => isUnique(answers.map((answer) => answer.prompt)), 'duplicate_prompt')
      .nullable()
      .optional()
      .meta({ description: `At most ${maxProfilePrompts}, each prompt once (too_many_prompts, duplicate_prompt); null or [] clears them.` }),
    city: z
      .string()
      .trim()
      .max(100, 'unknown_place')
      .nullable()
      .optional()
      .meta({ description: 'A place id of `v1/places` or a city name ("Portland, OR"), resolved to a US city (422 unknown_place otherwise); null or "" clears it.' }),
  })
export type UpdateMe = z.infer<typeof updateMeSchema>
