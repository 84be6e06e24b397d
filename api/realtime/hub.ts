import { chatNotifyChannel, type ChatEvent } from '../chat/events.ts'
import { notificationsNotifyChannel } from '../notifications/service.ts'
import { listen } from '../db/listen.ts'
import type { Logger } from '../logger.ts'

/**
 * The instance's realtime hub (ARCHITECTURE §1 "Realtime", §6; decision 032): one dedicated
 * PostgreSQL connection that `LISTEN`s on `chat`, whatever the number of open streams. Each
 * notification (a committed message, from any instance) is matched against the members with a
 * stream open here, and only those members' streams are told, in the order the notifications
 * came. `prepare` finds the readers and reads the message once for all of them, for every
 * notification that came while the previous ones were being prepared, in one query: idle, a
 * notification waits for nothing; busy, the queries grow instead of queueing. A stream that is up
 * to date sends the handed-over message as it is, any other reads what it has not sent yet
 * through the chat's read rules, so a lost signal costs nothing but latency.
 *
 * The connection (api/db/listen.ts) is re-made with backoff when it drops; since notifications
 * sent meanwhile are lost, every stream is then told to `resync` (catch up from its last event id).
 */
export type HubSignal =
  | {
      type: 'message'
      event: ChatEvent
      /** The message as `prepare` read it, once for every stream of this instance (null: not loaded). */
      loaded: unknown
    }
  | { type: 'resync' }
  /** The member's notifications changed (a new one was recorded, decision 047): send the unread total. */
  | { type: 'notifications' }
export type HubListener = (signal: HubSignal) => void

export interface RealtimeHub {
  /** Tells `listener` about messages `memberId` may read; returns the unsubscribe function. */
  subscribe(memberId: string, listener: HubListener): () => void
  /** Streams open here for one member (to limit them). */
  subscriptions(memberId: string): number
  /**
   * Whether the LISTEN connection is up now. Events come in commit order, which is `seq` order,
   * and every reader here is told of every one (or every stream resyncs): a stream that has sent
   * every readable message once, and stays subscribed, misses nothing it is not told.
   */
  readonly listening: boolean
  /** Ends every subscription (each listener gets `closed`) and the LISTEN connection. */
  close(): Promise<void>
  /** Listeners told when the hub closes, so that streams end with it. */
  onClose(listener: () => void): () => void
}

export interface RealtimeHubOptions {
  connectionString: string
  logger: Logger
  /**
   * For each event, in order: those of `memberIds` who may read its message, and the message read
   * once for all of them (null: the streams read it themselves).
   */
  prepare: (events: ChatEvent[], memberIds: string[]) => Promise<Array<{ readers: string[]; loaded: unknown }>>
  /** The first and the longest wait before connecting again (ms). */
  backoff?: { initialMs: number; maxMs: number }
  /** How often the connection is checked with a query (ms). */
  pingMs?: number
}

export async function createRealtimeHub(options: RealtimeHubOptions): Promise<RealtimeHub> {
  const { logger } = options
  const subscribers = new Map<string, Set<HubListener>>()
  const closeListeners = new Set<() => void>()
  let closed = false
  /** Counts resyncs: what was prepared before one is not told after it. */
  let epoch = 0
  /** Notifications not prepared yet, in the order they came, and whether a batch is being prepared. */
  let waiting: Array<string | undefined> = []
  let preparing = false

  function tell(memberId: string, signal: HubSignal) {
    for (const listener of subscribers.get(memberId) ?? []) {
      try {
        listener(signal)
      } catch (error) {
        logger.error({ err: error }, 'Realtime subscriber failed')
      }
    }
  }

  /** Every stream catches up from the database, which covers whatever was waiting to be told too. */
  function resyncAll() {
    epoch += 1
    waiting = []
    for (const memberId of subscribers.keys()) tell(memberId, { type: 'resync' })
  }

  type Prepared = { event: ChatEvent; readers: string[]; loaded: unknown } | 'resync'

  /** Who reads each notification's message here, and the message, for a batch in one query… */
  async function prepareBatch(payloads: Array<string | undefined>): Promise<Prepared[]> {
    const parsed = payloads.map((payload) => {
      const event = parseEvent(payload)
      // A payload this version does not understand (a newer instance, or one cut by a limit):
      // every stream catches up by itself, which is exact whatever the event was.
      if (!event) logger.warn({ payload }, 'Unreadable chat notification; streams resync')
      return event
    })
    const events = parsed.filter((event) => event !== null)
    const connected = [...subscribers.keys()]
    if (events.length === 0 || connected.length === 0) {
      return parsed.map((event) => (event ? { event, readers: [], loaded: null } : 'resync'))
    }
    const answers = await options.prepare(events, connected)
    let next = 0
    return parsed.map((event) => (event ? { event, ...answers[next++]! } : 'resync'))
  }

  /** …and told in the order the notifications came (commit order, which is `seq` order). */
  function dispatch(prepared: Prepared) {
    if (prepared === 'resync') return resyncAll()
    for (const memberId of prepared.readers) tell(memberId, { type: 'message', event: prepared.event, loaded: prepared.loaded })
  }

  /** Prepares what came, tells it, and goes on with what came meanwhile, until nothing waits. */
  async function pump() {
    if (preparing) return
    preparing = true
    try {
      while (waiting.length > 0) {
        const batch = waiting
        waiting = []
        const startedIn = epoch
        let prepared: Prepared[]
        try {
          prepared = await prepareBatch(batch)
        } catch (error) {
          logger.warn({ err: error }, 'Could not find who reads chat messages; streams resync')
          resyncAll()
          continue
        }
        // Prepared before a resync (the connection was re-made): the streams catch up anyway.
        if (startedIn !== epoch) continue
        for (const one of prepared) dispatch(one)
      }
    } finally {
      preparing = false
    }
  }

  const connection = await listen({
    connectionString: options.connectionString,
    channels: [chatNotifyChannel, notificationsNotifyChannel],
    applicationName: 'circle55-realtime',
    logger,
    ...(options.backoff ? { backoff: options.backoff } : {}),
    ...(options.pingMs ? { pingMs: options.pingMs } : {}),
    onNotification(channel, payload) {
      // A member's new notification: only their streams here hear of it, nothing to prepare.
      if (channel === notificationsNotifyChannel) {
        if (payload && subscribers.has(payload)) tell(payload, { type: 'notifications' })
        return
      }
      if (channel !== chatNotifyChannel) return
      waiting.push(payload)
      void pump()
    },
    // Whatever was notified while no connection listened is lost: every stream catches up.
    onReconnect: resyncAll,
  })

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
      return connection.listening
    },
    onClose(listener) {
      closeListeners.add(listener)
      return () => closeListeners.delete(listener)
    },
    async close() {
      if (closed) return
      closed = true
      for (const listener of [...closeListeners]) listener()
      closeListeners.clear()
      subscribers.clear()
      await connection.close()
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
