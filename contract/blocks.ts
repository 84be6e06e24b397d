import { z } from 'zod'

/**
 * Blocking (spec §1, §3 "Block record", §4 block states, §7 `v1/block/{id}`, decision 030).
 * A block is private to the member who made it: nothing here ever tells a member that someone
 * blocked them.
 */

/** `GET/PUT v1/block/{id}`: whether the caller blocked member `{id}`, and since when. */
export const blockStateSchema = z
  .object({
    is_blocked: z.boolean().meta({ description: 'Whether the caller blocked this member (spec §3 "Block record").' }),
    blocked_at: z.string().nullable().meta({ description: 'When the caller blocked them (ISO 8601); null when not blocked.' }),
  })
  .meta({ id: 'BlockState' })
export type BlockState = z.infer<typeof blockStateSchema>

/**
 * `GET v1/block/{id}/me`: what the caller may know about reaching member `{id}`. The spec asks
 * "whether the other user blocked the member", but the blocked member must not be told (issue
 * 14 §4), so the answer is only whether the caller can message them: false when either blocked
 * the other or the other member is suspended or banned (spec §8), without saying which.
 */
export const reachabilitySchema = z
  .object({
    can_message: z.boolean().meta({
      description:
        'Whether the caller can message this member. False when either of them blocked the other or the member is suspended or banned; the answer never says which.',
    }),
  })
  .meta({ id: 'BlockReachability' })
export type Reachability = z.infer<typeof reachabilitySchema>
