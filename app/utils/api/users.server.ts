import { z } from 'zod'
import { experienceSchema } from '../experience-schema.ts'
import { userSchema, type User } from '../user.ts'
import { oneOf, pageOf, type ApiTransport } from '../api.server.ts'

// Another member's public profile: anonymous callers get the name only (referral banners).
const publicProfileSchema = z.object({ id: z.string(), display_name: z.string().nullable() })

/** The fields a member changes about themselves (spec §7 `PUT v1/users/me`). */
export interface MeUpdate {
  first_name?: string
  last_name?: string
  gender?: string
  join_reasons?: string[]
  phone?: string | null
  onboarded?: boolean
  locale?: string
}

/** Members (spec §7 users): the only code that knows their paths. */
export function usersClient(api: ApiTransport) {
  return {
    /** The signed-in member; `token` reads it with a token not yet in the session (sign-in). */
    me: (options: { token?: string } = {}): Promise<User> => api.json('GET', 'v1/users/me', oneOf(userSchema), options),
    updateMe: (update: MeUpdate): Promise<User> => api.json('PUT', 'v1/users/me', oneOf(userSchema), { body: update }),
    delete: (id: string) => api.empty('DELETE', `v1/users/${encodeURIComponent(id)}`),
    /** Another member's public profile, by id or slug. */
    profile: (idOrSlug: string) => api.json('GET', `users/${encodeURIComponent(idOrSlug)}`, publicProfileSchema),
    /** A member's activities: upcoming or past, all or only those they host. */
    experiences: (id: string, filter: { type: 'upcoming' | 'past'; hosting?: boolean; page: number }) =>
      api.json('GET', `v1/users/${encodeURIComponent(id)}/experiences`, pageOf(experienceSchema), {
        query: { type: filter.type, hosting: filter.hosting ? 'true' : undefined, page: filter.page },
      }),
  }
}
