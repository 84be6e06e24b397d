import { listOf } from '#contract/common.ts'
import { memberInterestSchema, memberPromptSchema, profileCatalogueSchema, type MemberInterest, type MemberPrompt, type ProfileCatalogue } from '#contract/profile-schemas.ts'
import type { ApiTransport } from '../api.server.ts'

const interestList = listOf(memberInterestSchema)
const promptList = listOf(memberPromptSchema)

/**
 * Profiles (spec §7 `v1/users/{id}/interests`, `…/profile-prompts`, issue 13 §1): the only code
 * that knows their paths. `idOrSlug` may be `me`. Names and questions come in the page's language.
 */
export function profilesClient(api: ApiTransport) {
  const path = (idOrSlug: string, what: string) => `v1/users/${encodeURIComponent(idOrSlug)}/${what}`
  /** A member's interests, in the order they chose them (`me` for the signed-in member). */
  const interests = async (idOrSlug: string): Promise<MemberInterest[]> => (await api.json('GET', path(idOrSlug, 'interests'), interestList)).data
  /** A member's answered prompts, in order, each with its question (`me` for the signed-in member). */
  const prompts = async (idOrSlug: string): Promise<MemberPrompt[]> => (await api.json('GET', path(idOrSlug, 'profile-prompts'), promptList)).data
  return {
    interests,
    prompts,
    myInterests: () => interests('me'),
    myPrompts: () => prompts('me'),
    /** Every choice a profile offers, named in the page's language. */
    catalogue: (): Promise<ProfileCatalogue> => api.one('GET', 'v1/profile/catalogue', profileCatalogueSchema),
  }
}
