import { z } from 'zod'
import { nameSchema } from './identity-schemas.ts'

export const genders = ['woman', 'man', 'other'] as const
export const joinReasons = ['close_friends', 'new_people', 'relationship', 'things_to_do'] as const

/** Basic info (spec §2 onboarding start). The server normalises the phone with libphonenumber-js. */
export const basicInfoSchema = z.object({
  firstName: nameSchema('firstName'),
  lastName: nameSchema('lastName'),
  gender: z.enum(genders, { error: 'validation.genderRequired' }),
  reasons: z.array(z.enum(joinReasons), { error: 'validation.reasonsRequired' }).min(1, 'validation.reasonsRequired'),
  phone: z.string().trim().max(30, 'validation.invalid_phone').optional(),
})
