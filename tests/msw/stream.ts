import { jwtVerify } from 'jose'
import { http, HttpResponse, type JsonBodyType } from 'msw'

/**
 * Stream Chat's server-side REST API as its reference documents it
 * (https://getstream.io/chat/docs/rest/, the `stream-chat` 9.x client's requests):
 * - every request carries `?api_key=`, `Stream-Auth-Type: jwt` and `Authorization: <JWT>` (no
 *   "Bearer"), a server token `{ server: true }` signed HS256 with the app's secret; otherwise 401
 *   `{ code: 5, message, StatusCode }`;
 * - `POST /users` `{ users: { [id]: user } }` upserts users (201 `{ users }`);
 * - `POST /channels/{type}/{id}/query` `{ data: { created_by_id, members, … }, state, watch,
 *   presence }` gets or creates a channel (a server request must name `created_by_id`; members
 *   apply only when it is created) and answers its state `{ channel, members, messages, read, … }`;
 * - `POST /channels/{type}/{id}` `{ add_members }` or `{ remove_members }` updates its members;
 * - `POST /channels/{type}/{id}/message` `{ message: { id, text, user_id }, skip_push }` sends (a
 *   server request names `user_id`); an id already used answers 400 code 4 "already exists", an
 *   unknown channel 404 code 16;
 * - `DELETE /messages/{id}?hard=true` deletes one (404 code 16 when there is none);
 * - `POST /users/block` and `/users/unblock` `{ blocked_user_id, user_id }`;
 * - `POST /moderation/ban` `{ target_user_id, banned_by_id, timeout?, reason? }` bans a user from
 *   every channel (`timeout` in minutes; without it, for good; a server request must name
 *   `banned_by_id`; the target must be a user Stream knows), and `DELETE /moderation/ban
 *   ?target_user_id=` lifts it (the `stream-chat` client's `banUser` / `unbanUser`).
 * Errors are `{ code, message, StatusCode, duration }`.
 */
export const STREAM_TEST_BASE_URL = 'https://chat.stream.test'

export interface StreamRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: Headers
  body: any
}

export interface StreamChannelState {
  type: string
  id: string
  created_by_id: string
  name?: string
  members: Set<string>
}

export interface StreamMessageState {
  id: string
  cid: string
  text: string
  user_id: string
  type: string
}

export interface StreamMock {
  handlers: ReturnType<typeof http.all>[]
  requests: StreamRequest[]
  users: Map<string, Record<string, unknown>>
  channels: Map<string, StreamChannelState>
  messages: Map<string, StreamMessageState>
  blocks: Set<string>
  /** Banned users by id: who banned them, for how many minutes (null: for good), and why. */
  bans: Map<string, { banned_by_id: string; timeout: number | null; reason: string | null }>
  /** While set, every request answers this status (Stream down: 500, 503…). */
  failWith: number | null
  reset(): void
}

const error = (status: number, code: number, message: string) =>
  HttpResponse.json({ code, message, StatusCode: status, duration: '0.10ms', more_info: 'https://getstream.io/chat/docs/api_errors_response' }, { status })

const json = (body: JsonBodyType, status = 201) => HttpResponse.json({ ...(body as object), duration: '1.00ms' }, { status })

export function streamHandlers(options: { apiKey: string; apiSecret: string; baseUrl?: string }): StreamMock {
  const base = options.baseUrl ?? STREAM_TEST_BASE_URL
  const secret = new TextEncoder().encode(options.apiSecret)
  const mock: StreamMock = {
    handlers: [],
    requests: [],
    users: new Map(),
    channels: new Map(),
    messages: new Map(),
    blocks: new Set(),
    bans: new Map(),
    failWith: null,
    reset() {
      mock.requests.length = 0
      mock.failWith = null
    },
  }

  const now = () => new Date().toISOString()
  const userOf = (id: string) => ({ id, role: 'user', ...(mock.users.get(id) ?? {}), created_at: now(), updated_at: now() })
  const channelJson = (channel: StreamChannelState) => ({
    id: channel.id,
    type: channel.type,
    cid: `${channel.type}:${channel.id}`,
    created_by: userOf(channel.created_by_id),
    member_count: channel.members.size,
    frozen: false,
    disabled: false,
    config: { name: channel.type, typing_events: true, read_events: true, connect_events: true, replies: true, mutes: true, max_message_length: 5000 },
    own_capabilities: [],
    created_at: now(),
    updated_at: now(),
    ...(channel.name ? { name: channel.name } : {}),
  })
  const membersJson = (channel: StreamChannelState) =>
    [...channel.members].map((id) => ({ user_id: id, user: userOf(id), role: 'member', channel_role: 'channel_member', created_at: now(), updated_at: now() }))
  const messageJson = (message: StreamMessageState) => ({
    id: message.id,
    cid: message.cid,
    text: message.text,
    type: message.type,
    user: userOf(message.user_id),
    attachments: [],
    mentioned_users: [],
    latest_reactions: [],
    own_reactions: [],
    reaction_counts: {},
    reply_count: 0,
    created_at: now(),
    updated_at: now(),
  })

  /** Records the request and checks Stream's server authentication; answers the refusal, or null. */
  async function accept(request: Request): Promise<{ refused: Response | null; body: any; url: URL }> {
    const url = new URL(request.url)
    const text = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.text()
    const body = text ? JSON.parse(text) : null
    mock.requests.push({ method: request.method, path: url.pathname, query: url.searchParams, headers: request.headers, body })
    if (mock.failWith) return { refused: error(mock.failWith, -1, 'Internal error'), body, url }
    if (url.searchParams.get('api_key') !== options.apiKey) return { refused: error(401, 2, 'api_key not valid'), body, url }
    if (request.headers.get('stream-auth-type') !== 'jwt') return { refused: error(401, 5, 'Stream-Auth-Type missing'), body, url }
    try {
      const { payload } = await jwtVerify(request.headers.get('authorization') ?? '', secret, { algorithms: ['HS256'] })
      if (payload.server !== true) return { refused: error(403, 17, 'server-side requests need a server token'), body, url }
    } catch {
      return { refused: error(401, 5, 'JWTAuth error: signature is not valid'), body, url }
    }
    return { refused: null, body, url }
  }

  mock.handlers = [
    http.post(`${base}/users`, async ({ request }) => {
      const { refused, body } = await accept(request)
      if (refused) return refused
      for (const [id, user] of Object.entries((body?.users ?? {}) as Record<string, Record<string, unknown>>)) {
        if (user.id !== id) return error(400, 4, 'UpdateUsers failed with error: "user id does not match its key"')
        mock.users.set(id, { ...(mock.users.get(id) ?? {}), ...user })
      }
      return json({ users: Object.fromEntries(Object.keys(body?.users ?? {}).map((id) => [id, userOf(id)])) })
    }),

    http.post(`${base}/users/block`, async ({ request }) => {
      const { refused, body } = await accept(request)
      if (refused) return refused
      mock.blocks.add(`${body.user_id}>${body.blocked_user_id}`)
      return json({ blocked_by_user_id: body.user_id, blocked_user_id: body.blocked_user_id, created_at: now() })
    }),

    http.post(`${base}/users/unblock`, async ({ request }) => {
      const { refused, body } = await accept(request)
      if (refused) return refused
      mock.blocks.delete(`${body.user_id}>${body.blocked_user_id}`)
      return json({}, 200)
    }),

    http.post(`${base}/moderation/ban`, async ({ request }) => {
      const { refused, body } = await accept(request)
      if (refused) return refused
      if (typeof body?.banned_by_id !== 'string') return error(400, 4, 'BanUser failed with error: "either banned_by or banned_by_id must be provided when using server side auth."')
      if (!mock.users.has(body.target_user_id)) return error(400, 4, `BanUser failed with error: "target user ${String(body.target_user_id)} does not exist"`)
      if (body.timeout !== undefined && !(Number.isInteger(body.timeout) && body.timeout > 0)) return error(400, 4, 'BanUser failed with error: "timeout must be a positive number of minutes"')
      mock.bans.set(body.target_user_id, { banned_by_id: body.banned_by_id, timeout: body.timeout ?? null, reason: body.reason ?? null })
      return json({}, 201)
    }),

    http.delete(`${base}/moderation/ban`, async ({ request }) => {
      const { refused, url } = await accept(request)
      if (refused) return refused
      const target = url.searchParams.get('target_user_id')
      if (!target) return error(400, 4, 'UnbanUser failed with error: "target_user_id is a required field"')
      mock.bans.delete(target)
      return json({}, 200)
    }),

    http.post(`${base}/channels/:type/:id/query`, async ({ request, params }) => {
      const { refused, body } = await accept(request)
      if (refused) return refused
      const cid = `${String(params.type)}:${String(params.id)}`
      let channel = mock.channels.get(cid)
      if (!channel) {
        const data = body?.data ?? {}
        if (typeof data.created_by_id !== 'string') return error(400, 4, 'GetOrCreateChannel failed with error: "either data.created_by or data.created_by_id must be provided when using server side auth."')
        channel = { type: String(params.type), id: String(params.id), created_by_id: data.created_by_id, name: data.name, members: new Set(data.members ?? []) }
        mock.channels.set(cid, channel)
      }
      const messages = [...mock.messages.values()].filter((message) => message.cid === cid).map(messageJson)
      return json({ channel: channelJson(channel), members: membersJson(channel), messages, pinned_messages: [], read: [], watchers: [], watcher_count: 0 })
    }),

    http.post(`${base}/channels/:type/:id/message`, async ({ request, params }) => {
      const { refused, body } = await accept(request)
      if (refused) return refused
      const cid = `${String(params.type)}:${String(params.id)}`
      if (!mock.channels.has(cid)) return error(404, 16, `SendMessage failed with error: "Can't find channel with id ${cid}"`)
      const message = body?.message ?? {}
      if (typeof message.user_id !== 'string') return error(400, 4, 'SendMessage failed with error: "either message.user or message.user_id must be provided when using server side auth."')
      if (message.id && mock.messages.has(message.id)) return error(400, 4, `SendMessage failed with error: "a message with ID ${message.id} already exists"`)
      const stored: StreamMessageState = { id: message.id ?? crypto.randomUUID(), cid, text: message.text ?? '', user_id: message.user_id, type: 'regular' }
      mock.messages.set(stored.id, stored)
      return json({ message: messageJson(stored) })
    }),

    http.post(`${base}/channels/:type/:id`, async ({ request, params }) => {
      const { refused, body } = await accept(request)
      if (refused) return refused
      const channel = mock.channels.get(`${String(params.type)}:${String(params.id)}`)
      if (!channel) return error(404, 16, `UpdateChannel failed with error: "Can't find channel with id ${String(params.type)}:${String(params.id)}"`)
      for (const id of (body?.add_members ?? []) as string[]) {
        if (!mock.users.has(id)) return error(400, 4, `UpdateChannel failed with error: "The following users are involved in channel update operation, but don't exist: [${id}]"`)
        channel.members.add(id)
      }
      for (const id of (body?.remove_members ?? []) as string[]) channel.members.delete(id)
      return json({ channel: channelJson(channel), members: membersJson(channel) })
    }),

    http.delete(`${base}/messages/:id`, async ({ request, params }) => {
      const { refused } = await accept(request)
      if (refused) return refused
      const message = mock.messages.get(String(params.id))
      if (!message) return error(404, 16, `DeleteMessage failed with error: "message with id ${String(params.id)} doesn't exist"`)
      mock.messages.delete(message.id)
      return json({ message: { ...messageJson(message), type: 'deleted' } }, 200)
    }),
  ]
  return mock
}
