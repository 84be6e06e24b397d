import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { parseEnv } from '../env.ts'
import { createLogger } from '../logger.ts'
import { defineJob, type QueueOptions } from './job.ts'
import { startJobQueue, type JobQueue } from './queue.ts'

/**
 * Issue 15 §8 (bench:notify): a backlog of jobs (2,000 notifications of one cancellation) drained
 * at one job per polling interval. Queued jobs are worked one after another without waiting for
 * the interval.
 * Issue 29 §5: a job in flight when its server was killed waited about 15 minutes (pg-boss's
 * default expiry); it is now taken up within a minute, while a long job whose instance lives is
 * not taken twice; an attempt that hangs fails at its queue's timeout; and a queue may work
 * several jobs at once, so one slow job does not hold up the rest.
 */
let database: TestDatabase
let queue: JobQueue
const logger = createLogger(parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }))
const others: JobQueue[] = []

beforeAll(async () => {
  database = await createTestDatabase()
  // An hour between polls: only a worker that fetches again at once works a backlog in this test.
  queue = await startJobQueue({ url: database.url, logger, pollingIntervalSeconds: 3600 })
})

afterAll(async () => {
  await Promise.all(others.map((other) => other.stop()))
  await queue?.stop()
  await database?.drop()
})

/** A job of the tests: `{ n }` or `{ id }` payloads, handled by `handler`. */
function testJob<Schema extends z.ZodType>(name: string, payload: Schema, handler: (data: z.output<Schema>) => Promise<void>, options: QueueOptions & { concurrency?: number } = {}) {
  return defineJob({ name, payload, ...options, handler: (data) => handler(data) })
}
const numbered = z.object({ n: z.number().int() })

async function statesOf(name: string) {
  const { rows } = await sql<{ n: number; state: string }>`SELECT (data->>'n')::int AS n, state::text FROM pgboss.job WHERE name = ${name} ORDER BY 1`.execute(database.db)
  return rows
}

describe('the job queue', () => {
  it('works a backlog queued before its worker started, without waiting for the polling interval', async () => {
    const name = 'test.backlog'
    const worked: number[] = []
    const job = testJob(name, numbered, async ({ n }) => void worked.push(n))
    await queue.define([job])
    // Written in a transaction (as notify does) before any worker listened for its wake-up.
    await database.db.transaction().execute((trx) => queue.send(job.name, Array.from({ length: 12 }, (_, n) => ({ n })), { transaction: trx }))
    await queue.start([job], {})
    await vi.waitFor(() => expect(worked).toHaveLength(12), { timeout: 30_000, interval: 50 })
    expect(worked.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    await vi.waitFor(async () => expect((await statesOf(name)).every((job) => job.state === 'completed')).toBe(true), { timeout: 30_000, interval: 50 })
  })

  it('starts a job sent in a transaction at its commit, on another instance, not at the next poll; one rolled back never runs (decision 072)', async () => {
    const name = 'test.at-commit'
    const worked: number[] = []
    const job = testJob(name, numbered, async ({ n }) => void worked.push(n))
    // The worker polls once an hour: only the wake-up at the commit can start the job in time.
    await queue.start([job], {})
    const sender = await instance()
    await sender.define([job])
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sender.send(job.name, { n: 1 }, { transaction: trx })
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    await database.db.transaction().execute(async (trx) => {
      await sender.send(job.name, { n: 2 }, { transaction: trx })
      // Not before the commit: the row is not there for the worker to take yet.
      await sleep(300)
      expect(worked).toEqual([])
    })
    await vi.waitFor(() => expect(worked).toEqual([2]), { timeout: 5_000, interval: 20 })
    // Sent outside a transaction, it starts at once too.
    await sender.send(job.name, { n: 3 })
    await vi.waitFor(() => expect(worked).toEqual([2, 3]), { timeout: 5_000, interval: 20 })
  })
})

/** Another instance on the same database (its own pg-boss), stopped after the file's tests. */
async function instance(options: Partial<Parameters<typeof startJobQueue>[0]> = {}) {
  const started = await startJobQueue({ url: database.url, logger, pollingIntervalSeconds: 0.5, ...options })
  others.push(started)
  return started
}

async function stateOf(name: string) {
  const { rows } = await sql<{ state: string }>`SELECT state::text FROM pgboss.job WHERE name = ${name}`.execute(database.db)
  return rows.map((row) => row.state)
}

describe('jobs and crashes (issue 29 §5)', () => {
  it('takes up again, within a minute, a job whose server was killed while working it', { timeout: 120_000 }, async () => {
    const name = 'test.crash'
    const script = fileURLToPath(new URL('../../tests/job-worker-process.ts', import.meta.url))
    const child = spawn(process.execPath, [script, database.url, name], { stdio: ['ignore', 'pipe', 'inherit'] })
    const lines: string[] = []
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)))
    try {
      await vi.waitFor(() => expect(lines).toContain('ready'), { timeout: 30_000, interval: 50 })
      await queue.send(testJob(name, numbered, async () => undefined).name, { n: 1 })
      await vi.waitFor(() => expect(lines).toContain('started'), { timeout: 30_000, interval: 50 })
    } finally {
      child.kill('SIGKILL')
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit')
    }
    const killedAt = Date.now()
    expect(await stateOf(name)).toEqual(['active'])

    // The server starts again (or another instance works the queue).
    const worked: object[] = []
    const restarted = await instance()
    await restarted.start([testJob(name, numbered, async (data) => void worked.push(data))], {})
    await vi.waitFor(() => expect(worked).toEqual([{ n: 1 }]), { timeout: 60_000, interval: 200 })
    expect(Date.now() - killedAt).toBeLessThan(60_000)
  })

  it('does not take up a job that runs longer than its lease while its instance still works it', { timeout: 60_000 }, async () => {
    const name = 'test.long'
    const short = await instance({ leaseSeconds: 2, superviseIntervalSeconds: 1 })
    let runs = 0
    const job = testJob(
      name,
      z.object({}),
      async () => {
        runs++
        await sleep(6_000)
      },
      { timeoutSeconds: 30 },
    )
    await short.start([job], {})
    await short.send(job.name, {})
    await vi.waitFor(async () => expect(await stateOf(name)).toEqual(['completed']), { timeout: 30_000, interval: 200 })
    expect(runs).toBe(1)
  })

  it('fails an attempt that outlives its queue’s timeout, and retries it', { timeout: 60_000 }, async () => {
    const name = 'test.hang'
    const other = await instance()
    let attempts = 0
    const job = testJob(
      name,
      z.object({}),
      async () => {
        attempts++
        if (attempts === 1) await new Promise(() => undefined)
      },
      { timeoutSeconds: 1, retryDelaySeconds: 1 },
    )
    await other.start([job], {})
    await other.send(job.name, {})
    await vi.waitFor(async () => expect(await stateOf(name)).toEqual(['completed']), { timeout: 30_000, interval: 200 })
    expect(attempts).toBe(2)
  })

  it('logs the last failure of a job whose retries are used up as an error, never only as a warning', { timeout: 60_000 }, async () => {
    const name = 'test.given-up'
    const said: { level: 'warn' | 'error'; message: string; data: Record<string, unknown> }[] = []
    const listening = Object.assign(Object.create(logger) as typeof logger, {
      warn: (data: Record<string, unknown>, message: string) => void said.push({ level: 'warn', message, data }),
      error: (data: Record<string, unknown>, message: string) => void said.push({ level: 'error', message, data }),
    })
    const other = await instance({ logger: listening })
    const job = testJob(
      name,
      z.object({}),
      async () => {
        throw new Error('The database is down')
      },
      { retryLimit: 1, retryDelaySeconds: 1 },
    )
    await other.start([job], {})
    await other.send(job.name, {})
    await vi.waitFor(async () => expect(await stateOf(name)).toEqual(['failed']), { timeout: 30_000, interval: 200 })
    const aboutIt = said.filter((entry) => entry.data.job === name).map(({ level, message, data }) => ({ level, message, attempts: data.attempts }))
    expect(aboutIt).toEqual([
      { level: 'warn', message: 'Job failed; it will be retried', attempts: undefined },
      { level: 'error', message: 'Job failed for good: its retries are used up', attempts: 2 },
    ])
  })

  it('works several jobs at once when asked: a slow one does not hold up the others', { timeout: 60_000 }, async () => {
    const name = 'test.concurrent'
    const other = await instance()
    const done: string[] = []
    const job = testJob(
      name,
      z.object({ id: z.string() }),
      async ({ id }) => {
        if (id === 'slow') await sleep(8_000)
        done.push(id)
      },
      { concurrency: 4 },
    )
    await other.start([job], {})
    await other.send(job.name, [{ id: 'slow' }, { id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }])
    await vi.waitFor(() => expect([...done].sort()).toEqual(['a', 'b', 'c', 'd']), { timeout: 6_000, interval: 100 })
  })
})

describe('payloads are checked when a job is claimed (decision 068)', () => {
  it('fails a job whose stored payload its schema refuses, for good and saying why, and goes on with the others', { timeout: 60_000 }, async () => {
    const name = 'test.payload'
    const worked: unknown[] = []
    const job = testJob(name, numbered, async ({ n }) => void worked.push(n), { retryDelaySeconds: 1 })
    const other = await instance()
    await other.define([job])
    // Rows the schema does not take, as an older release or a hand-written insert could leave them.
    await other.send(job.name, [{ n: 1 }, { n: 'two' } as never, {} as never, { n: 3 }])
    await other.start([job], {})
    const rows = async () =>
      (
        await sql<{ data: unknown; state: string; retry_count: number; output: { message?: string } | null }>`
          SELECT data, state::text, retry_count, output FROM pgboss.job WHERE name = ${name} ORDER BY created_on, id`.execute(database.db)
      ).rows
    await vi.waitFor(async () => expect((await rows()).map((row) => row.state).sort()).toEqual(['completed', 'completed', 'failed', 'failed']), { timeout: 30_000, interval: 200 })
    expect(worked.sort()).toEqual([1, 3])
    const failed = (await rows()).filter((row) => row.state === 'failed')
    expect(failed.map((row) => row.data)).toEqual(expect.arrayContaining([{ n: 'two' }, {}]))
    for (const row of failed) {
      // Not retried: a payload that does not parse never will.
      expect(row.retry_count).toBe(0)
      expect(row.output?.message).toMatch(/^The payload of test\.payload is not valid: n: /)
    }
    // The worker is still there: a job sent now is worked.
    await other.send(job.name, { n: 4 })
    await vi.waitFor(() => expect(worked).toContain(4), { timeout: 10_000, interval: 100 })
  })
})
