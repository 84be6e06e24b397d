import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { ApiProblem, problems } from '../http/errors.ts'
import type { Logger } from '../logger.ts'
import { requirePermission } from '../policy/permissions.ts'
import type { MediaStorage } from '../providers/storage/storage.ts'
import type { HubSignal, RealtimeHub } from '../realtime/hub.ts'
import { chatMembers, latestSeq, readableMessagesAfter, unreadTotals, type EventMessage } from './queries.ts'
import { serializeMessage } from './service.ts'
import { unreadNotifications } from '../notifications/inbox.ts'
import { lastEventIdSchema, maxChatStreamsPerMember, type ChatMessageEvent, type ChatUnreadEvent } from '#contract/chat.ts'

/**
 * One member's live chat stream, `GET v1/chat/events` (decision 032), as Server-Sent Events.
 *
 * The stream keeps a cursor: the `seq` of the last message it sent (or, for a fresh stream, the
 * newest message when it opened). Whenever there may be something new (the hub says a message
 * this member reads was committed, the hub reconnected, the stream opened with `Last-Event-ID`),
 * it reads the member's readable messages after the cursor, through the chat's read rules, and
 * sends them in `seq` order with `id: seq`. Messages commit in `seq` order (the chat's write
 * lock), so "after the cursor" never skips one that commits later, and nothing is sent twice.
 */
export const chatStreamLimits = {
  /** A comment line this often keeps proxies and the browser from closing an idle stream. */
  heartbeatMs: 25_000,
  /** What the browser waits before reconnecting (the SSE `retry:` field). */
  retryMs: 3_000,
  /**
   * The stream ends after this long; the client reconnects at once with `Last-Event-ID` and a
   * fresh token, so a suspended member or a revoked session stops receiving within this time.
   */
  maxLifetimeMs: 10 * 60_000,
  /** Messages read per query while catching up. */
  batch: 100,
  /** More missed than this: `event: resync` (reload the page) rather than a long replay. */
  maxReplay: 500,
  /** Bytes waiting for a slow client before the stream gives up on it (it resumes on reconnect). */
  maxBufferedBytes: 256 * 1024,
}

export interface ChatStreamOptions {
  db: DB
  /** Where browsers fetch the senders' photos (`publicUrl`). */
  media: MediaStorage
  hub: RealtimeHub | null
  logger: Logger
  caller: User
  /** The `Last-Event-ID`: replay what came after it; null: start from now. */
  after: number | null
  /** End once what is pending is sent. */
  once: boolean
  limits?: Partial<typeof chatStreamLimits>
}

const encoder = new TextEncoder()

/**
 * The unread totals the streams of one database's instance ask for, counted together: a total
 * asked while a count is running joins the next one, which counts every member waiting in one
 * query. Idle, a total waits for nothing; busy (a message read by many streams, many messages a
 * second), the queries grow instead of queueing, one per round trip rather than one per delivery.
 */
function unreadCounter(db: DB) {
  let waiting = new Map<string, Array<{ resolve: (total: number) => void; reject: (error: unknown) => void }>>()
  let counting = false
  async function pump() {
    if (counting) return
    counting = true
    while (waiting.size > 0) {
      const batch = waiting
      waiting = new Map()
      try {
        const totals = await unreadTotals(db, [...batch.keys()])
        for (const [memberId, askers] of batch) for (const asker of askers) asker.resolve(totals.get(memberId) ?? 0)
      } catch (error) {
        for (const askers of batch.values()) for (const asker of askers) asker.reject(error)
      }
    }
    counting = false
  }
  return (memberId: string) =>
    new Promise<number>((resolve, reject) => {
      const askers = waiting.get(memberId)
      if (askers) askers.push({ resolve, reject })
      else waiting.set(memberId, [{ resolve, reject }])
      void pump()
    })
}
const unreadCounters = new WeakMap<DB, (memberId: string) => Promise<number>>()
function countUnread(db: DB, memberId: string) {
  let counter = unreadCounters.get(db)
  if (!counter) unreadCounters.set(db, (counter = unreadCounter(db)))
  return counter(memberId)
}

function frame(fields: { id?: number; event?: string; data?: unknown; comment?: string; retry?: number }) {
  let text = ''
  if (fields.comment !== undefined) text += `: ${fields.comment}\n`
  if (fields.retry !== undefined) text += `retry: ${fields.retry}\n`
  if (fields.id !== undefined) text += `id: ${fields.id}\n`
  if (fields.event !== undefined) text += `event: ${fields.event}\n`
  // JSON.stringify never yields a line break, so one `data:` line holds the whole event.
  if (fields.data !== undefined) text += `data: ${JSON.stringify(fields.data)}\n`
  return encoder.encode(`${text}\n`)
}

export function chatEventStream(options: ChatStreamOptions): ReadableStream<Uint8Array> {
  const { db, media, hub, logger, caller } = options
  const limits = { ...chatStreamLimits, ...options.limits }
  let cursor = 0
  let closed = false
  let running: Promise<void> | null = null
  let again = false
  /** The cursor is set: until then a wake is covered by the first catch-up. */
  let positioned = false
  /**
   * Every message this member may read has been sent, as far as the hub has told: a catch-up ran
   * to its end after the stream subscribed, and every signal since was handled. The hub tells
   * every reader of every message, in `seq` order, so while this holds the next message it hands
   * over is sent as it is, without a query; a resync (the hub lost notifications) ends it.
   */
  let upToDate = false
  /** Counts the unread totals asked for: only the latest answer is sent. */
  let unreadAsked = 0
  /** Likewise for the unread notifications' totals. */
  let notificationsAsked = 0
  const cleanups: Array<() => void> = []
  let controller!: ReadableStreamDefaultController<Uint8Array>

  function close() {
    if (closed) return
    closed = true
    for (const cleanup of cleanups.splice(0)) cleanup()
    try {
      controller.close()
    } catch {
      // already closed or cancelled
    }
  }

  function send(chunk: Uint8Array) {
    if (closed) return
    controller.enqueue(chunk)
    // A client that does not read: rather than hold its events in memory, end the stream; it
    // reconnects with Last-Event-ID and the database replays what it missed.
    if ((controller.desiredSize ?? 0) <= 0) {
      logger.info({ userId: caller.id }, 'Chat stream closed: the client is not reading')
      close()
    }
  }

  /** Sends every readable message after the cursor, then the unread total. */
  async function catchUp(initial: boolean) {
    let sent = 0
    for (;;) {
      const rows = await readableMessagesAfter(db, caller.id, cursor, limits.batch)
      if (closed || rows.length === 0) break
      if (sent + rows.length > limits.maxReplay) {
        // Too much missed for a replay: the page reloads what it shows from the API instead.
        cursor = await latestSeq(db)
        send(frame({ id: cursor, event: 'resync', data: { seq: cursor } }))
        break
      }
      const members = await chatMembers(
        db,
        media,
        rows.flatMap((row) => (row.user_id ? [row.user_id] : [])),
      )
      for (const row of rows) {
        const event: ChatMessageEvent = { channel_id: row.channel_id, message_id: row.id, seq: row.seq, message: serializeMessage(row, members, caller) }
        send(frame({ id: row.seq, event: 'message', data: event }))
        cursor = row.seq
      }
      sent += rows.length
      if (rows.length < limits.batch) break
    }
    // What the hub told meanwhile ran this again (`again`), so the stream is up to date now.
    upToDate = true
    if (closed || (sent === 0 && !initial)) return
    const asked = ++unreadAsked
    const total = await countUnread(db, caller.id)
    if (asked === unreadAsked) send(frame({ event: 'unread', data: { total_unread: total } satisfies ChatUnreadEvent }))
  }

  /** The unread total after a handed-over message, counted while the stream goes on. */
  function refreshUnread() {
    const asked = ++unreadAsked
    countUnread(db, caller.id).then(
      (total) => {
        if (asked === unreadAsked) send(frame({ event: 'unread', data: { total_unread: total } satisfies ChatUnreadEvent }))
      },
      (error: unknown) => {
        logger.warn({ err: error, userId: caller.id }, 'Chat stream failed; closing it')
        close()
      },
    )
  }

  /**
   * A message the hub read for every reader here: sent as it is when this stream is up to date
   * (a message committed earlier was either read by the last catch-up or told before this one),
   * then the unread total; false when the stream must catch up instead.
   */
  function handOver(signal: Extract<HubSignal, { type: 'message' }>) {
    const loaded = signal.loaded as EventMessage | null
    if (!loaded || running || !upToDate) return false
    const { row, members } = loaded
    if (row.seq <= cursor) return true
    const event: ChatMessageEvent = { channel_id: row.channel_id, message_id: row.id, seq: row.seq, message: serializeMessage(row, members, caller) }
    send(frame({ id: row.seq, event: 'message', data: event }))
    cursor = row.seq
    refreshUnread()
    return true
  }

  /** The unread notifications' total (the Notifications badge, decision 047), after a new one. */
  function refreshNotifications() {
    // Only the latest count is sent: an older, lower total never arrives after a newer one.
    const asked = ++notificationsAsked
    unreadNotifications(db, caller.id).then(
      (total) => {
        if (asked === notificationsAsked) send(frame({ event: 'notifications', data: { total_unread: total } satisfies ChatUnreadEvent }))
      },
      (error: unknown) => logger.warn({ err: error, userId: caller.id }, 'Could not count unread notifications'),
    )
  }

  function onSignal(signal: HubSignal) {
    if (closed || !positioned) return
    if (signal.type === 'notifications') return refreshNotifications()
    if (signal.type === 'message' && handOver(signal)) return
    if (signal.type === 'resync') upToDate = false
    wake()
  }

  /** Runs a catch-up now, or once more after the one running (never two at once). */
  function wake(initial = false) {
    if (closed || !positioned) return
    if (running) {
      again = true
      return
    }
    running = (async () => {
      try {
        do {
          again = false
          await catchUp(initial)
          initial = false
        } while (again && !closed)
      } catch (error) {
        // The database failed: the client reconnects (after `retry`) and resumes from its last id.
        logger.warn({ err: error, userId: caller.id }, 'Chat stream failed; closing it')
        close()
      } finally {
        running = null
      }
    })()
  }

  return new ReadableStream<Uint8Array>(
    {
      async start(streamController) {
        controller = streamController
        // Subscribed before the cursor is read: a message committed meanwhile still wakes us.
        if (hub && !options.once) {
          cleanups.push(hub.subscribe(caller.id, onSignal))
          cleanups.push(hub.onClose(close))
        }
        send(frame({ comment: 'chat', retry: limits.retryMs }))
        try {
          if (options.after === null) {
            cursor = await latestSeq(db)
            // Sets the browser's last event id, so even a reconnect before any message resumes from here.
            send(frame({ id: cursor, event: 'ready', data: { seq: cursor } }))
          } else {
            cursor = options.after
            send(frame({ id: cursor, event: 'ready', data: { seq: cursor } }))
          }
        } catch (error) {
          logger.warn({ err: error, userId: caller.id }, 'Chat stream could not start')
          close()
          return
        }
        if (closed) return
        positioned = true
        if (options.once) {
          wake(true)
          await running
          close()
          return
        }
        wake(true)
        const heartbeat = setInterval(() => send(frame({ comment: 'ping' })), limits.heartbeatMs)
        const lifetime = setTimeout(close, limits.maxLifetimeMs)
        cleanups.push(() => clearInterval(heartbeat), () => clearTimeout(lifetime))
      },
      cancel() {
        // The client went away.
        closed = true
        for (const cleanup of cleanups.splice(0)) cleanup()
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: limits.maxBufferedBytes }),
  )
}

/**
 * `GET v1/chat/events` for `caller`: the stream, or the refusal. `lastEventId` is the header as
 * sent; one that this stream did not set (not a number) starts afresh.
 */
export function openChatEvents(
  services: { db: DB; media: MediaStorage; logger: Logger; realtime?: RealtimeHub | null },
  caller: User,
  input: { lastEventId: string | undefined; once: boolean },
) {
  requirePermission(caller, 'read:chat:events')
  const hub = services.realtime ?? null
  if (!input.once) {
    if (!hub) throw new ApiProblem(503, 'service_unavailable', 'Live updates are not available here; poll with once=true.')
    if (hub.subscriptions(caller.id) >= maxChatStreamsPerMember) {
      throw problems.tooMany('too_many_streams', `At most ${maxChatStreamsPerMember} live streams at a time; close another tab.`)
    }
  }
  const parsed = lastEventIdSchema.safeParse(input.lastEventId)
  return chatEventStream({
    db: services.db,
    media: services.media,
    hub,
    logger: services.logger,
    caller,
    after: parsed.success ? parsed.data : null,
    once: input.once,
  })
}
