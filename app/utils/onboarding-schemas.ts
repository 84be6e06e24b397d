import { z } from 'zod'
import { genders, joinReasons } from '#contract/enums.ts'
import { maxPhoneLength } from '#contract/limits.ts'
import { nameSchema } from './identity-schemas.ts'

/** The options of spec §3, for the form's choices. */
export { genders, joinReasons }

/** Basic info (spec §2 onboarding start). The server normalises the phone with libphonenumber-js. */
export const basicInfoSchema = z.object({
  firstName: nameSchema('firstName'),
  lastName: nameSchema('lastName'),
  gender: z.enum(genders, { error: 'validation.genderRequired' }),
  reasons: z.array(z.enum(joinReasons), { error: 'validation.reasonsRequired' }).min(1, 'validation.reasonsRequired'),
  phone: z.string().trim().max(maxPhoneLength, 'validation.invalid_phone').optional(),
})
