import { reachabilitySchema, type Reachability } from '#contract/blocks.ts'
import type { ApiTransport } from '../api.server.ts'

/** Blocking (spec §7 `v1/block/{id}`, decision 030): the only code that knows its paths. */
export function blocksClient(api: ApiTransport) {
  return {
    /** Whether the member may be messaged: false when either blocked the other or they are suspended, never saying which. */
    reachability: (userId: string): Promise<Reachability> => api.json('GET', `v1/block/${encodeURIComponent(userId)}/me`, reachabilitySchema),
  }
}
