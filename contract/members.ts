import { z } from 'zod'
import { pageQuerySchema } from './common.ts'
import { maxMemberSearchLength } from './limits.ts'
import { publicUserSchema } from './users.ts'

/**
 * Members to meet (issue 13 §3, `GET v1/members`, decision 027): people the signed-in member has
 * been to activities with, and members near them who share an interest, each as the public
 * profile of `GET users/{id}` plus why they are listed.
 */

/** How far "near you" reaches, in miles (decision 027). */
export const nearbyMiles = 25

export const memberReasons = ['attended_with', 'nearby'] as const
export type MemberReason = (typeof memberReasons)[number]

export const memberSuggestionSchema = publicUserSchema
  .extend({
    reason: z.enum(memberReasons).meta({ description: 'attended_with: been to an activity together; nearby: lives near and shares an interest.' }),
    shared_interests: z.array(z.string()).meta({ description: 'Interest keys both members chose.' }),
    activities_in_common: z.number().int().meta({ description: 'Past activities both attended or hosted.' }),
  })
  .meta({ id: 'MemberSuggestion' })
export type MemberSuggestion = z.infer<typeof memberSuggestionSchema>

/** `GET v1/members`: `name` narrows the list to first names starting with it (accents and case ignored). */
export const membersQuerySchema = pageQuerySchema.extend({
  name: z
    .string()
    .trim()
    .max(maxMemberSearchLength, 'name_too_long')
    .optional()
    .meta({ description: 'First name starts with this (accents and case ignored); searches only the members listed anyway.' }),
})
export type MembersQuery = z.infer<typeof membersQuerySchema>

/** Folds a name for search: lower case, no accents ("Hélène" → "helene"). */
export function foldName(value: string) {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase('en-US')
    .replace(/ł/g, 'l')
    .replace(/ø/g, 'o')
}
