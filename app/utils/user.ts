import { z } from 'zod'

/** The member as `v1/users/me` returns it (spec §3). */
export const userSchema = z.object({
  id: z.string(),
  stream_id: z.string(),
  slug: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  formatted_phone: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  name: z.string().nullable(),
  formatted_name: z.string().nullable(),
  display_name: z.string().nullable(),
  dob: z.string().nullable(),
  age: z.number().nullable(),
  gender: z.enum(['woman', 'man', 'other']).nullable(),
  join_reasons: z.array(z.enum(['close_friends', 'new_people', 'relationship', 'things_to_do'])),
  avatar: z.object({ url: z.string() }).nullable(),
  admin: z.boolean(),
  banned: z.boolean(),
  is_suspended: z.boolean(),
  state: z.enum(['active', 'created', 'deleted', 'suspended']),
  lat: z.number().nullable(),
  long: z.number().nullable(),
  city: z.string().nullable(),
  locale: z.enum(['en', 'fr', 'nl']).nullable(),
  onboarded: z.boolean(),
  created_at: z.string(),
  stream_token: z.string().nullable(),
})
export type User = z.infer<typeof userSchema>
