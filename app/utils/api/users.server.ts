import { pageOf } from '#contract/common.ts'
import { experienceSchema } from '#contract/experiences.ts'
import { publicUserSchema, signInSchema, userSchema, type SignIn, type UpdateMe, type User } from '#contract/users.ts'
import type { ApiTransport } from '../api.server.ts'

/** Members (spec §7 users): the only code that knows their paths. */
export function usersClient(api: ApiTransport) {
  return {
    /** The signed-in member; `token` reads it with a token not yet in the session (sign-in). */
    /** The member; with `badges`, the header's unread totals too (one call for every page's shell, decision 052). */
    me: ({ badges, ...options }: { token?: string; badges?: boolean } = {}): Promise<User> =>
      api.one('GET', 'v1/users/me', userSchema, badges ? { ...options, query: { include: 'badges' } } : options),
    /** Records a new sign-in (with the token not yet in the session); says whether to welcome the member back. */
    recordSignIn: (options: { token?: string } = {}): Promise<SignIn> => api.one('POST', 'v1/users/me/sign-ins', signInSchema, options),
    updateMe: (update: UpdateMe): Promise<User> => api.one('PUT', 'v1/users/me', userSchema, { body: update }),
    delete: (id: string) => api.empty('DELETE', `v1/users/${encodeURIComponent(id)}`),
    /** Another member's public profile, by id or slug (the name only for anonymous callers). */
    profile: (idOrSlug: string) => api.json('GET', `users/${encodeURIComponent(idOrSlug)}`, publicUserSchema),
    /** A member's activities: upcoming or past, all or only those they host. */
    experiences: (id: string, filter: { type: 'upcoming' | 'past'; hosting?: boolean; page: number }) =>
      api.json('GET', `v1/users/${encodeURIComponent(id)}/experiences`, pageOf(experienceSchema), {
        query: { type: filter.type, hosting: filter.hosting ? 'true' : undefined, page: filter.page },
      }),
  }
}
