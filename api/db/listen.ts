import pg from 'pg'
import type { Logger } from '../logger.ts'

/**
 * One dedicated PostgreSQL connection that `LISTEN`s on some channels (ARCHITECTURE §6): the
 * realtime hub's chat events and badges (decision 032), the job queue's wake-ups at commit
 * (decision 072). A notification is sent by the transaction that commits it, to every instance.
 *
 * The connection is re-made with backoff (and jitter, so that instances do not all come back at
 * once) when it drops or stops answering the ping; notifications sent meanwhile are lost, so
 * `onReconnect` lets the owner catch up from the database.
 */
export interface Listening {
  /** Whether the connection is up and listening now. */
  readonly listening: boolean
  close(): Promise<void>
}

export interface ListenOptions {
  connectionString: string
  channels: readonly string[]
  /** Names the connection in pg_stat_activity and in the log. */
  applicationName: string
  logger: Logger
  onNotification: (channel: string, payload: string | undefined) => void
  /** Called once listening again after a drop: what was notified meanwhile is lost. */
  onReconnect?: () => void
  /** The first and the longest wait before connecting again (ms). */
  backoff?: { initialMs: number; maxMs: number }
  /** How often the connection is checked with a query (ms). */
  pingMs?: number
}

export async function listen(options: ListenOptions): Promise<Listening> {
  const { logger } = options
  const backoff = options.backoff ?? { initialMs: 250, maxMs: 10_000 }
  const pingMs = options.pingMs ?? 30_000
  let client: pg.Client | null = null
  let listening = false
  let closed = false
  let attempt = 0
  let retryTimer: NodeJS.Timeout | undefined

  async function connect(): Promise<void> {
    if (closed) return
    const next = new pg.Client({
      connectionString: options.connectionString,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: 5_000,
      query_timeout: 5_000,
      application_name: options.applicationName,
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
      logger.warn({ err: error, connection: options.applicationName }, 'LISTEN connection lost; reconnecting')
      scheduleReconnect()
    }
    next.on('error', onDrop)
    next.on('end', () => onDrop())
    next.on('notification', (message) => options.onNotification(message.channel, message.payload))
    try {
      await next.connect()
      for (const channel of options.channels) await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`)
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
    if (reconnected) options.onReconnect?.()
  }

  function scheduleReconnect() {
    const wait = Math.min(backoff.maxMs, backoff.initialMs * 2 ** attempt)
    attempt += 1
    retryTimer = setTimeout(() => void connect(), wait / 2 + Math.random() * (wait / 2))
    retryTimer.unref()
  }

  await connect()

  return {
    get listening() {
      return listening
    },
    async close() {
      if (closed) return
      closed = true
      clearTimeout(retryTimer)
      const current = client
      client = null
      listening = false
      await current?.end().catch(() => undefined)
    },
  }
}
