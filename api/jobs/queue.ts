import { setTimeout as sleep } from 'node:timers/promises'
import { CompiledQuery, type Kysely } from 'kysely'
import PgBoss from 'pg-boss'
import { listen, type Listening } from '../db/listen.ts'
import type { Logger } from '../logger.ts'
import { parsePayload, type AnyJob, type JobName, type JobServices, type QueueOptions } from './job.ts'

/**
 * Background work on a PostgreSQL-backed queue (pg-boss, ARCHITECTURE §2): jobs are rows in the
 * product's own database, so no second server is needed and every instance can work them.
 *
 * A job taken by an instance that then dies is taken up again within a minute (decision
 * pushjobs): pg-boss 11 fails a job still `active` past its `expire_seconds` (its supervisor, run
 * here every few seconds and once at start) and retries it. pg-boss 11 has no heartbeat, so a
 * short expiry alone would also fail a long job that is still running; the worker below renews
 * the expiry of each job it holds while its handler runs (a lease), so only a job whose
 * instance stopped renewing (killed, frozen, cut off from the database) expires.
 *
 * A job starts at once, not at the next poll (decision 072): sending one also sends a `NOTIFY
 * jobs` with its name, in the same transaction when there is one, so PostgreSQL delivers it only
 * at the commit; every instance working that job `LISTEN`s and wakes its worker. What follows a
 * member's change (the chat vendor's copy, a notification's delivery) therefore runs within
 * milliseconds of the commit, and polling remains for what a lost wake-up would otherwise delay.
 */
export interface JobQueue {
  /**
   * Queues one job per item; `job` is a declared job's name (`someJob.name`), which types the
   * payload. With `transaction`, the jobs are written by that transaction: they exist only if it
   * commits, so a job never refers to a row that was rolled back.
   */
  send<P extends object>(job: JobName<P>, data: NoInfer<P> | readonly NoInfer<P>[], options?: SendOptions<NoInfer<P>>): Promise<void>
  /**
   * Starts declared jobs (the runtime passes the registry, api/jobs/registry.ts): creates each
   * queue or updates its options (a deployment that changes them), works those this instance
   * runs, and schedules the scheduled ones. Every instance may call it: a schedule is one row
   * per name, and pg-boss sends one job per tick across all of them.
   *
   * A worker keeps up to the job's `concurrency` jobs running (1 unless told); it parses each
   * job's payload with the job's schema when it claims it (one that does not parse fails for
   * good, with the reason); a thrown error, or a handler that outlives the queue's
   * `timeoutSeconds`, fails that attempt (it is retried with exponential backoff: about
   * `retryDelaySeconds`, then longer each time, never more than `retryDelayMaxSeconds` apart).
   * While jobs keep coming the worker fetches again at once, and only an empty queue waits for
   * the polling interval, so a backlog drains at the handler's pace.
   */
  start<const Jobs extends readonly AnyJob[]>(jobs: Jobs, services: JobServices<Jobs>): Promise<void>
  /** Only creates (or updates) the queues of `jobs`, so they can be sent to; nothing works them here. */
  define(jobs: readonly AnyJob[]): Promise<void>
  stop(): Promise<void>
}

export type { QueueOptions }

export interface SendOptions<P = unknown> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database or transaction of ours
  transaction?: Kysely<any>
  /** Not before this time (a reminder, a delayed message notification). */
  startAfter?: Date
  /** Each item's own start instead (many reminders in one statement, each at its time). */
  startAfterOf?: (item: P) => Date
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

const defaultTimeoutSeconds = 15 * 60

/** The PostgreSQL channel that wakes the workers of a job just sent (payload: the job's name). */
export const jobsNotifyChannel = 'jobs'

export async function startJobQueue(options: {
  url: string
  logger: Logger
  /** How often an idle worker looks for jobs (default 2 s). */
  pollingIntervalSeconds?: number
  /**
   * How long a job stays taken after its instance last renewed it (default 20 s): the longest a
   * job of a dead instance waits before its retry is due (plus the supervisor's interval).
   */
  leaseSeconds?: number
  /** How often expired jobs are looked for (default 5 s; pg-boss's own default is a minute). */
  superviseIntervalSeconds?: number
}): Promise<JobQueue> {
  const { logger } = options
  const leaseSeconds = options.leaseSeconds ?? 20
  const superviseIntervalSeconds = options.superviseIntervalSeconds ?? 5
  const boss = new PgBoss({
    connectionString: options.url,
    max: 3,
    application_name: 'circle55-jobs',
    superviseIntervalSeconds,
    // The expiry check is throttled across instances by this: a little under the interval, so
    // each instance's pass may do it.
    monitorIntervalSeconds: Math.max(1, superviseIntervalSeconds - 1),
  })
  let stopping = false
  boss.on('error', (error) => {
    // Once stopping, a connection still closing may be cut by the database's own shutdown
    // (57P01 admin_shutdown): expected, not a failure.
    if (stopping && (error as { code?: unknown }).code === '57P01') {
      logger.debug({ err: error }, 'Job queue connection closed by the database shutdown')
      return
    }
    // pg-boss's own maintenance, begun before the stop, can still be running when its connection
    // closes (its query then answers nothing: "Cannot destructure property 'rows'"): nothing is lost.
    if (stopping) {
      logger.warn({ err: error }, 'Job queue error while stopping')
      return
    }
    logger.error({ err: error }, 'Job queue error')
  })
  await boss.start()
  // Jobs a dead instance left `active` past their lease are retried now, not at the first interval.
  await boss.supervise().catch((error: unknown) => logger.error({ err: error }, 'Job queue supervision failed at start'))

  const pollingMs = (options.pollingIntervalSeconds ?? 2) * 1000
  const timeouts = new Map<string, number>()
  const workers: Worker[] = []
  const db = boss.getDb()
  let wakeUps: Listening | undefined

  /** Starts the instance's workers of `name` looking for jobs now (all of them without a name). */
  function wake(name?: string) {
    for (const worker of workers) if (name === undefined || worker.name === name) worker.wake()
  }

  /** Keeps a job taken while its handler runs: its expiry moves to `leaseSeconds` from now. */
  async function renew(name: string, id: string) {
    await db.executeSql(
      `UPDATE pgboss.job SET expire_seconds = CEIL(EXTRACT(EPOCH FROM now() - started_on))::int + $3
       WHERE name = $1 AND id = $2 AND state = 'active'`,
      [name, id, leaseSeconds],
    )
  }

  interface Worker {
    name: string
    running: Set<Promise<void>>
    held: Map<string, { stop(): void }>
    wake(): void
    loop: Promise<void>
  }

  /** Fails a job without retrying it (its payload will never parse): its retries are used up first. */
  async function failForGood(name: string, id: string, message: string) {
    await db.executeSql(`UPDATE pgboss.job SET retry_limit = retry_count WHERE name = $1 AND id = $2 AND state = 'active'`, [name, id])
    await boss.fail(name, id, { message })
  }

  function startWorker(name: string, handler: (data: unknown) => Promise<void>, parse: (data: unknown) => ReturnType<typeof parsePayload>, concurrency: number): Worker {
    const running = new Set<Promise<void>>()
    const held = new Map<string, { stop(): void }>()
    let wakeUp: AbortController = new AbortController()
    const worker: Worker = { name, running, held, wake: () => wakeUp.abort(), loop: Promise.resolve() }

    async function run(job: PgBoss.JobWithMetadata<unknown>) {
      const parsed = parse(job.data)
      if (!parsed.ok) {
        logger.error({ job: name, id: job.id, reason: parsed.error }, 'Job payload not valid; the job failed without retry')
        await failForGood(name, job.id, parsed.error).catch((failError: unknown) => {
          logger.error({ err: failError, job: name, id: job.id }, 'A job with an invalid payload could not be marked failed')
        })
        return
      }
      const timeoutMs = (timeouts.get(name) ?? defaultTimeoutSeconds) * 1000
      const lease = setInterval(() => void renew(name, job.id).catch((error: unknown) => logger.warn({ err: error, job: name }, 'Job lease not renewed')), (leaseSeconds * 1000) / 4)
      lease.unref()
      held.set(job.id, { stop: () => clearInterval(lease) })
      let timer: NodeJS.Timeout | undefined
      try {
        await Promise.race([
          handler(parsed.payload),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`The job ran longer than ${timeoutMs / 1000} s`)), timeoutMs)
          }),
        ])
        clearInterval(lease)
        await boss.complete(name, job.id)
      } catch (error) {
        clearInterval(lease)
        // The last attempt's failure is an error: the job is given up (its dead letter, if it has
        // one, gets a copy), never dropped with only a warning.
        if (job.retryCount >= job.retryLimit) logger.error({ err: error, job: name, id: job.id, attempts: job.retryCount + 1 }, 'Job failed for good: its retries are used up')
        else logger.warn({ err: error, job: name, id: job.id }, 'Job failed; it will be retried')
        await boss.fail(name, job.id, { message: error instanceof Error ? error.message : String(error) }).catch((failError: unknown) => {
          // Left active: it expires at the end of its lease and is retried then.
          logger.error({ err: failError, job: name, id: job.id }, 'A failed job could not be marked failed')
        })
      } finally {
        clearTimeout(timer)
        held.delete(job.id)
      }
    }

    async function loop() {
      while (!stopping) {
        const free = concurrency - running.size
        let found = 0
        if (free > 0) {
          let jobs: PgBoss.JobWithMetadata<unknown>[] = []
          try {
            jobs = await boss.fetch<unknown>(name, { batchSize: free, includeMetadata: true })
          } catch (error) {
            logger.error({ err: error, job: name }, 'Jobs could not be fetched')
          }
          for (const job of jobs) {
            const done: Promise<void> = run(job).finally(() => {
              running.delete(done)
              worker.wake()
            })
            running.add(done)
          }
          found = jobs.length
        }
        if (stopping) break
        // Jobs were found and there is room: look again at once (a backlog drains at the
        // handlers' pace). Otherwise wait for a free slot or the polling interval.
        if (found > 0 && running.size < concurrency) continue
        const signal = wakeUp.signal
        await sleep(running.size >= concurrency ? 60_000 : pollingMs, undefined, { signal }).catch(() => undefined)
        if (signal.aborted) wakeUp = new AbortController()
      }
    }
    worker.loop = loop()
    return worker
  }

  /** Creates the queue of `job`, or updates its options (a deployment that changes them). */
  async function define(job: QueueOptions & { name: string }) {
    const settings = {
      retryLimit: job.retryLimit ?? 5,
      retryDelay: job.retryDelaySeconds ?? 10,
      retryBackoff: true,
      ...(job.retryDelayMaxSeconds ? { retryDelayMax: job.retryDelayMaxSeconds } : {}),
      // Renewed while a handler runs: this is how long a job of a dead instance stays taken.
      expireInSeconds: leaseSeconds,
      ...(job.deadLetter ? { deadLetter: job.deadLetter } : {}),
    }
    timeouts.set(job.name, job.timeoutSeconds ?? defaultTimeoutSeconds)
    if (await boss.getQueue(job.name)) await boss.updateQueue(job.name, settings)
    else await boss.createQueue(job.name, settings)
  }

  /** Defines every queue of `jobs`, each after its dead letter (pg-boss needs that queue first). */
  async function defineAll(jobs: readonly AnyJob[]) {
    const byName = new Map<string, AnyJob>()
    for (const job of jobs) {
      if (byName.has(job.name)) throw new Error(`Two jobs are named ${job.name}`)
      byName.set(job.name, job)
    }
    const defined = new Set<string>()
    const defineAfterDeadLetter = async (job: AnyJob) => {
      if (defined.has(job.name)) return
      defined.add(job.name)
      const deadLetter = job.deadLetter ? byName.get(job.deadLetter) : undefined
      if (job.deadLetter && !deadLetter) throw new Error(`The dead letter of ${job.name}, ${job.deadLetter}, is not among its jobs`)
      if (deadLetter) await defineAfterDeadLetter(deadLetter)
      await define(job)
    }
    for (const job of jobs) await defineAfterDeadLetter(job)
  }

  return {
    async send(name, data, sendOptions = {}) {
      const items: readonly unknown[] = Array.isArray(data) ? data : [data]
      if (items.length === 0) return
      const { startAfter, startAfterOf } = sendOptions
      const executor = sendOptions.transaction ? executorFor(sendOptions.transaction) : undefined
      if (!executor && items.length === 1 && !startAfterOf) {
        await boss.send(name, items[0] as object, startAfter ? { startAfter } : {})
      } else {
        const startOf = (item: unknown) => (startAfterOf ? startAfterOf(item as Parameters<typeof startAfterOf>[0]) : startAfter)
        await boss.insert(name, items.map((item) => ({ name, data: item as object, ...(startOf(item) ? { startAfter: startOf(item) } : {}) })), executor ? { db: executor } : {})
      }
      // Delivered at the commit of the transaction that wrote the jobs (collapsed to one per name there).
      await (executor ?? db).executeSql('SELECT pg_notify($1, $2)', [jobsNotifyChannel, name])
    },
    async define(jobs) {
      await defineAll(jobs)
    },
    async start(jobs, services) {
      await defineAll(jobs)
      wakeUps ??= await listen({
        connectionString: options.url,
        channels: [jobsNotifyChannel],
        applicationName: 'circle55-jobs-wake',
        logger,
        onNotification: (_, name) => wake(name),
        // Wake-ups sent while no connection listened are lost: every worker looks now.
        onReconnect: () => wake(),
      })
      for (const job of jobs) {
        if (job.runsWhen && !job.runsWhen(services)) continue
        const handler = (payload: unknown) => job.handler(payload, services)
        workers.push(startWorker(job.name, handler, (data) => parsePayload(job, data), Math.max(1, job.concurrency ?? 1)))
      }
      for (const job of jobs) {
        if (!job.schedule) continue
        await boss.schedule(job.name, job.schedule.cron, {}, { tz: 'UTC' })
        if (job.schedule.atStart) await boss.send(job.name, {})
      }
    },
    async stop() {
      stopping = true
      await wakeUps?.close()
      wake()
      // Running jobs get 10 s to finish; any still running then is failed, so it is retried soon
      // (by another instance, or this one when it starts again) rather than at the end of its lease.
      const all = workers.flatMap((worker) => [worker.loop, ...worker.running])
      const finished = await Promise.race([Promise.all(all).then(() => true), sleep(10_000, false)])
      if (!finished) {
        for (const worker of workers) {
          const ids = [...worker.held.keys()]
          for (const held of worker.held.values()) held.stop()
          for (const id of ids) await boss.fail(worker.name, id, { message: 'The instance stopped while the job ran' }).catch(() => undefined)
        }
      }
      await boss.stop({ graceful: true, timeout: 1_000, wait: true })
    },
  }
}
