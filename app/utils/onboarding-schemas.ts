import { z } from 'zod'
import { genders, joinReasons } from '#contract/enums.ts'
import { genderChoices, preferNotToSay } from './profile-sections.ts'
import { maxPhoneLength } from '#contract/limits.ts'
import { nameSchema } from './identity-schemas.ts'

/** The options of spec §3, for the form's choices. */
export { genders, joinReasons }

export { genderChoices, preferNotToSay } from './profile-sections.ts'

/**
 * Basic info (spec §2 onboarding start). The server normalises the phone with libphonenumber-js.
 * Gender is optional (issue 12 §4): none chosen and "Prefer not to say" both save no gender.
 */
export const basicInfoSchema = z.object({
  firstName: nameSchema('firstName'),
  lastName: nameSchema('lastName'),
  gender: z
    .enum(genderChoices, { error: 'validation.genderInvalid' })
    .optional()
    .transform((choice) => (choice === preferNotToSay ? null : (choice ?? null))),
  reasons: z.array(z.enum(joinReasons), { error: 'validation.reasonsRequired' }).min(1, 'validation.reasonsRequired'),
  phone: z.string().trim().max(maxPhoneLength, 'validation.invalid_phone').optional(),
})
