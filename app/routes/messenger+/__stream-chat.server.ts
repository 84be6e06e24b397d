import type { AppLoadContext } from '@remix-run/node'
import type { User } from '#contract/users.ts'

/**
 * What `/messenger` needs to use Stream's React client (decision 036): the public key, Stream's
 * address and the member's Stream id and token (`stream_token` of `v1/users/me`). Null with the
 * built-in chat service, or when the API issued no token: the page stays as it is without JavaScript.
 */
export interface StreamChatConfig {
  apiKey: string
  baseUrl: string
  userId: string
  token: string
}

export function streamChatFor(user: Pick<User, 'stream_id' | 'stream_token'>, context: AppLoadContext): StreamChatConfig | null {
  const stream = context.services.config.stream
  if (!stream || !user.stream_token) return null
  return { apiKey: stream.apiKey, baseUrl: stream.baseUrl, userId: user.stream_id, token: user.stream_token }
}
