import { blockStateSchema, reachabilitySchema, type BlockState, type Reachability } from '#contract/blocks.ts'
import type { ApiTransport } from '../api.server.ts'

const blockPath = (userId: string) => `v1/block/${encodeURIComponent(userId)}`

/** Blocking (spec §7 `v1/block/{id}`, decision 030): the only code that knows its paths. */
export function blocksClient(api: ApiTransport) {
  return {
    /** Whether the member may be messaged: false when either blocked the other or they are suspended, never saying which. */
    reachability: (userId: string): Promise<Reachability> => api.json('GET', `${blockPath(userId)}/me`, reachabilitySchema),
    /** Whether the signed-in member blocked this member. */
    state: (userId: string): Promise<BlockState> => api.json('GET', blockPath(userId), blockStateSchema),
    block: (userId: string): Promise<BlockState> => api.json('PUT', blockPath(userId), blockStateSchema),
    unblock: (userId: string) => api.empty('DELETE', blockPath(userId)),
  }
}
