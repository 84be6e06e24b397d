import { z } from 'zod'
import { employments, familyMembers, genders, joinReasons, relationshipStatuses } from './enums.ts'
import { interestGroupNames, interests, nearbyVisibilities, profilePrompts } from './profile.ts'

/**
 * Profiles over the API (issue 13 §1, spec §7 `v1/users/{id}/interests`, `…/profile-prompts`):
 * keys of the catalogues in `profile.ts` with their words in the caller's language.
 */

/** One of a member's interests: its catalogue key, its group and its name in the caller's language. */
export const memberInterestSchema = z
  .object({
    key: z.enum(interests),
    group: z.enum(interestGroupNames),
    name: z.string(),
  })
  .meta({ id: 'Interest' })
export type MemberInterest = z.infer<typeof memberInterestSchema>

/** One of a member's answered prompts: the key, the question in the caller's language, the answer. */
export const memberPromptSchema = z
  .object({
    prompt: z.enum(profilePrompts),
    question: z.string(),
    answer: z.string(),
  })
  .meta({ id: 'ProfilePrompt' })
export type MemberPrompt = z.infer<typeof memberPromptSchema>

const choice = <const T extends readonly [string, ...string[]]>(keys: T) => z.object({ key: z.enum(keys), name: z.string() })

/** `GET v1/profile/catalogue`: every choice a profile offers, in order, named in the caller's language. */
export const profileCatalogueSchema = z
  .object({
    interest_groups: z.array(
      z.object({
        key: z.enum(interestGroupNames),
        name: z.string(),
        interests: z.array(choice(interests as unknown as readonly [string, ...string[]])),
      }),
    ),
    prompts: z.array(z.object({ key: z.enum(profilePrompts), question: z.string() })),
    genders: z.array(choice(genders)),
    join_reasons: z.array(choice(joinReasons)),
    employments: z.array(choice(employments)),
    relationships: z.array(choice(relationshipStatuses)),
    family: z.array(choice(familyMembers)),
    nearby_visibilities: z.array(choice(nearbyVisibilities)),
  })
  .meta({ id: 'ProfileCatalogue' })
export type ProfileCatalogue = z.infer<typeof profileCatalogueSchema>
