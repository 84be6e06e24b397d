import { CompiledQuery, type Kysely } from 'kysely'
import PgBoss from 'pg-boss'
import type { Logger } from '../logger.ts'

/**
 * Background work on a PostgreSQL-backed queue (pg-boss, ARCHITECTURE §2): jobs are rows in the
 * product's own database, so no second server is needed and every instance can work them.
 */
export interface JobQueue {
  /** Creates the queue if needed; retries failed jobs with exponential backoff. */
  define(name: string, options?: { retryLimit?: number; retryDelaySeconds?: number }): Promise<void>
  /**
   * Queues one job per item. With `transaction`, the jobs are written by that transaction: they
   * exist only if it commits, so a job never refers to a row that was rolled back.
   */
  send(name: string, data: object | readonly object[], options?: SendOptions): Promise<void>
  /**
   * Works jobs of `name`, one at a time; a thrown error fails that job's attempt (it is retried).
   * While jobs keep coming the worker fetches again at once, and only an empty queue waits for
   * the polling interval, so a backlog drains at the handler's pace.
   */
  work<T extends object>(name: string, handler: (data: T) => Promise<void>): Promise<void>
  /**
   * Sends a job of `name` on a cron schedule (UTC). Every instance may call it: the schedule is
   * one row per name, and pg-boss sends one job per tick across all of them.
   */
  schedule(name: string, cron: string): Promise<void>
  stop(): Promise<void>
}

export interface SendOptions {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database or transaction of ours
  transaction?: Kysely<any>
  /** Not before this time (a reminder, a delayed message notification). */
  startAfter?: Date
  /** Each item's own start instead (many reminders in one statement, each at its time). */
  startAfterOf?: (item: object) => Date
}

/** pg-boss runs its statements through this (its `db` option) to write inside our transaction. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database or transaction of ours
function executorFor(db: Kysely<any>) {
  return {
    async executeSql(text: string, values: unknown[]) {
      const result = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, values))
      return { rows: [...result.rows] }
    },
  }
}

export async function startJobQueue(options: {
  url: string
  logger: Logger
  /** How often an idle worker looks for jobs (pg-boss also wakes it when one is sent here). */
  pollingIntervalSeconds?: number
}): Promise<JobQueue> {
  const boss = new PgBoss({ connectionString: options.url, max: 3, application_name: 'circle55-jobs' })
  let stopping = false
  boss.on('error', (error) => {
    // Once stopping, a connection still closing may be cut by the database's own shutdown
    // (57P01 admin_shutdown): expected, not a failure.
    if (stopping && (error as { code?: unknown }).code === '57P01') {
      options.logger.debug({ err: error }, 'Job queue connection closed by the database shutdown')
      return
    }
    options.logger.error({ err: error }, 'Job queue error')
  })
  await boss.start()
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2
  return {
    async define(name, queueOptions = {}) {
      if (await boss.getQueue(name)) return
      await boss.createQueue(name, {
        retryLimit: queueOptions.retryLimit ?? 5,
        retryDelay: queueOptions.retryDelaySeconds ?? 30,
        retryBackoff: true,
      })
    },
    async send(name, data, sendOptions = {}) {
      const items = Array.isArray(data) ? data : [data]
      if (items.length === 0) return
      const { startAfter, startAfterOf } = sendOptions
      const db = sendOptions.transaction ? executorFor(sendOptions.transaction) : undefined
      if (!db && items.length === 1 && !startAfterOf) {
        await boss.send(name, items[0] as object, startAfter ? { startAfter } : {})
        return
      }
      const startOf = (item: object) => startAfterOf?.(item) ?? startAfter
      await boss.insert(name, items.map((item: object) => ({ name, data: item, ...(startOf(item) ? { startAfter: startOf(item) } : {}) })), db ? { db } : {})
    },
    async work(name, handler) {
      // Its id, known once pg-boss answers (a first job fetched before then waits the interval once).
      const worker: { id?: string } = {}
      // pg-boss fetches one job at a time (its default batch size), failing the job whose handler threw.
      worker.id = await boss.work<object>(name, { pollingIntervalSeconds }, async (jobs) => {
        for (const job of jobs) {
          try {
            await handler(job.data as Parameters<typeof handler>[0])
          } catch (error) {
            options.logger.warn({ err: error, job: name, id: job.id }, 'Job failed; it will be retried')
            throw error
          }
        }
        // Jobs were found: fetch again at once rather than after the polling interval (pg-boss
        // waits the interval after every fetch unless its worker is notified).
        if (worker.id) boss.notifyWorker(worker.id)
      })
    },
    async schedule(name, cron) {
      await boss.schedule(name, cron, {}, { tz: 'UTC' })
    },
    async stop() {
      stopping = true
      await boss.stop({ graceful: true, timeout: 10_000, wait: true })
    },
  }
}
