import pg from 'pg'
import { chatNotifyChannel, type ChatEvent } from '../chat/events.ts'
import type { Logger } from '../logger.ts'

/**
 * The instance's realtime hub (ARCHITECTURE §1 "Realtime", §6; decision 032): one dedicated
 * PostgreSQL connection that `LISTEN`s on `chat`, whatever the number of open streams. Each
 * notification (a committed message, from any instance) is matched against the members with a
 * stream open here, in one query for all of them (`audience`), and only those members' streams
 * are told, in the order the notifications came. The hub reads the message once (`load`) and
 * hands it to them; a stream that is up to date sends it as it is, any other reads what it has
 * not sent yet through the chat's read rules, so a lost signal costs nothing but latency.
 *
 * The connection is re-made with backoff when it drops; since notifications sent meanwhile are
 * lost, every stream is then told to `resync` (catch up from its last event id).
 */
export type HubSignal =
  | {
      type: 'message'
      event: ChatEvent
      /** The event the hub dispatched just before this one (null: none since it connected). */
      previous: number | null
      /** The message as `load` read it, once for every stream of this instance (null: not loaded). */
      loaded: unknown
    }
  | { type: 'resync' }
export type HubListener = (signal: HubSignal) => void

export interface RealtimeHub {
  /** Tells `listener` about messages `memberId` may read; returns the unsubscribe function. */
  subscribe(memberId: string, listener: HubListener): () => void
  /** Streams open here for one member (to limit them). */
  subscriptions(memberId: string): number
  /** Whether the LISTEN connection is up now. */
  readonly listening: boolean
  /**
   * The last event dispatched since the connection was made (null: none yet). Events come in
   * commit order, which is `seq` order, and every one is dispatched: a stream that has sent every
   * readable message up to this number, and stays subscribed, misses nothing that is not told.
   */
  readonly lastSeq: number | null
  /** Ends every subscription (each listener gets `closed`) and the LISTEN connection. */
  close(): Promise<void>
  /** Listeners told when the hub closes, so that streams end with it. */
  onClose(listener: () => void): () => void
}

export interface RealtimeHubOptions {
  connectionString: string
  logger: Logger
  /** Of `memberIds`, those who may read the event's message. */
  audience: (event: ChatEvent, memberIds: string[]) => Promise<string[]>
  /** The event's message, read once for all its readers here (optional; streams read it themselves otherwise). */
  load?: (event: ChatEvent) => Promise<unknown>
  /** The first and the longest wait before connecting again (ms). */
  backoff?: { initialMs: number; maxMs: number }
  /** How often the connection is checked with a query (ms). */
  pingMs?: number
}

export async function createRealtimeHub(options: RealtimeHubOptions): Promise<RealtimeHub> {
  const { logger } = options
  const backoff = options.backoff ?? { initialMs: 250, maxMs: 10_000 }
  const pingMs = options.pingMs ?? 30_000
  const subscribers = new Map<string, Set<HubListener>>()
  const closeListeners = new Set<() => void>()
  let client: pg.Client | null = null
  let listening = false
  let closed = false
  let attempt = 0
  let retryTimer: NodeJS.Timeout | undefined
  let lastSeq: number | null = null
  /** Counts resyncs: what was prepared before one is not told after it. */
  let epoch = 0
  /** Notifications are told one after the other, in the order they came. */
  let dispatching: Promise<void> = Promise.resolve()

  function tell(memberId: string, signal: HubSignal) {
    for (const listener of subscribers.get(memberId) ?? []) {
      try {
        listener(signal)
      } catch (error) {
        logger.error({ err: error }, 'Realtime subscriber failed')
      }
    }
  }

  function resyncAll() {
    lastSeq = null
    epoch += 1
    for (const memberId of subscribers.keys()) tell(memberId, { type: 'resync' })
  }

  type Prepared = { event: ChatEvent; readers: string[]; loaded: unknown; epoch: number } | 'resync'

  /**
   * Who reads the notification's message here, and the message, asked at once for every
   * notification as it comes (so a burst does not queue behind one round trip each)…
   */
  async function prepare(payload: string | undefined): Promise<Prepared> {
    const event = parseEvent(payload)
    if (!event) {
      // A payload this version does not understand (a newer instance, or one cut by a limit):
      // every stream catches up by itself, which is exact whatever the event was.
      logger.warn({ payload }, 'Unreadable chat notification; streams resync')
      return 'resync'
    }
    const startedIn = epoch
    const connected = [...subscribers.keys()]
    if (connected.length === 0) return { event, readers: [], loaded: null, epoch: startedIn }
    try {
      const [readers, loaded] = await Promise.all([options.audience(event, connected), options.load ? options.load(event) : null])
      return { event, readers, loaded, epoch: startedIn }
    } catch (error) {
      logger.warn({ err: error }, 'Could not find who reads a chat message; streams resync')
      return 'resync'
    }
  }

  /** …and told in the order the notifications came (commit order, which is `seq` order). */
  function dispatch(prepared: Prepared) {
    if (prepared === 'resync') return resyncAll()
    // Prepared before a resync (the connection was re-made): the streams catch up anyway.
    if (prepared.epoch !== epoch) return
    const previous = lastSeq
    for (const memberId of prepared.readers) tell(memberId, { type: 'message', event: prepared.event, previous, loaded: prepared.loaded })
    lastSeq = prepared.event.seq
  }

  async function connect(): Promise<void> {
    if (closed) return
    const next = new pg.Client({
      connectionString: options.connectionString,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: 5_000,
      query_timeout: 5_000,
      // Names the connection in pg_stat_activity.
      application_name: 'circle55-realtime',
    })
    // A dropped connection emits `error` and/or `end`: either starts the reconnection, once.
    let dropped = false
    const timers: { ping?: NodeJS.Timeout } = {}
    const onDrop = (error?: unknown) => {
      if (dropped) return
      dropped = true
      listening = false
      if (client === next) client = null
      next.removeAllListeners('notification')
      clearInterval(timers.ping)
      void next.end().catch(() => undefined)
      if (closed) return
      logger.warn({ err: error }, 'Realtime LISTEN connection lost; reconnecting')
      scheduleReconnect()
    }
    next.on('error', onDrop)
    next.on('end', () => onDrop())
    next.on('notification', (message) => {
      if (message.channel !== chatNotifyChannel) return
      const prepared = prepare(message.payload)
      dispatching = dispatching
        .then(async () => dispatch(await prepared))
        .catch((error: unknown) => {
          logger.error({ err: error }, 'Chat notification could not be dispatched; streams resync')
          resyncAll()
        })
    })
    try {
      await next.connect()
      await next.query(`LISTEN ${chatNotifyChannel}`)
    } catch (error) {
      onDrop(error)
      return
    }
    if (closed) {
      await next.end().catch(() => undefined)
      return
    }
    client = next
    listening = true
    // A server that froze or a link cut without a reset sends no error: a query that gets no
    // answer in time counts as a dropped connection.
    timers.ping = setInterval(() => {
      next.query('SELECT 1').catch((error: unknown) => onDrop(error))
    }, pingMs)
    timers.ping.unref()
    const reconnected = attempt > 0
    attempt = 0
    // Whatever was notified while no connection listened is lost: every stream catches up.
    if (reconnected) resyncAll()
  }

  function scheduleReconnect() {
    const wait = Math.min(backoff.maxMs, backoff.initialMs * 2 ** attempt)
    attempt += 1
    // Jitter, so that every instance does not come back at the same moment after a restart.
    retryTimer = setTimeout(() => void connect(), wait / 2 + Math.random() * (wait / 2))
    retryTimer.unref()
  }

  await connect()

  return {
    subscribe(memberId, listener) {
      let set = subscribers.get(memberId)
      if (!set) subscribers.set(memberId, (set = new Set()))
      set.add(listener)
      return () => {
        set.delete(listener)
        if (set.size === 0 && subscribers.get(memberId) === set) subscribers.delete(memberId)
      }
    },
    subscriptions: (memberId) => subscribers.get(memberId)?.size ?? 0,
    get listening() {
      return listening
    },
    get lastSeq() {
      return lastSeq
    },
    onClose(listener) {
      closeListeners.add(listener)
      return () => closeListeners.delete(listener)
    },
    async close() {
      if (closed) return
      closed = true
      clearTimeout(retryTimer)
      for (const listener of [...closeListeners]) listener()
      closeListeners.clear()
      subscribers.clear()
      const current = client
      client = null
      listening = false
      await current?.end().catch(() => undefined)
    },
  }
}

function parseEvent(payload: string | undefined): ChatEvent | null {
  try {
    const value = JSON.parse(payload ?? '') as Partial<ChatEvent>
    if (typeof value.channel_id === 'string' && typeof value.message_id === 'string' && Number.isSafeInteger(value.seq)) {
      return { channel_id: value.channel_id, message_id: value.message_id, seq: value.seq as number }
    }
  } catch {
    // fall through
  }
  return null
}
