import { pageOf } from '#contract/common.ts'
import { experienceSchema } from '#contract/experiences.ts'
import { memberSuggestionSchema } from '#contract/members.ts'
import { publicUserSchema } from '#contract/users.ts'
import type { ApiTransport } from '../api.server.ts'

/** Public profiles and members to meet (issue 13 §3): the only code that knows their paths. */
export function membersClient(api: ApiTransport) {
  const activities = (id: string, page: number, inCommon: boolean) =>
    api.json('GET', `v1/users/${encodeURIComponent(id)}/experiences`, pageOf(experienceSchema), {
      query: { type: 'upcoming', hosting: inCommon ? undefined : 'true', in_common: inCommon ? 'true' : undefined, page },
    })
  return {
    /** A member's public profile, by id or slug (the name only for anonymous callers). */
    profile: (idOrSlug: string) => api.json('GET', `users/${encodeURIComponent(idOrSlug)}`, publicUserSchema),
    /** Members to meet: met at activities, then near by with shared interests; `name` narrows by first name. */
    list: (filter: { page: number; name?: string }) =>
      api.json('GET', 'v1/members', pageOf(memberSuggestionSchema), { query: { page: filter.page, name: filter.name || undefined } }),
    /** The upcoming activities a member hosts. */
    hosting: (id: string, page = 1) => activities(id, page, false),
    /** The activities the caller and this member both take part in, past and upcoming. */
    inCommon: (id: string, page = 1) => activities(id, page, true),
  }
}
