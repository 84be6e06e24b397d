import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { parseEnv } from '../env.ts'
import { createLogger } from '../logger.ts'
import { startJobQueue, type JobQueue } from './queue.ts'

/**
 * Issue 15 §8 (bench:notify): a backlog of jobs (2,000 notifications of one cancellation) drained
 * at one job per polling interval. Queued jobs are worked one after another without waiting for
 * the interval, a batch of them is fetched at once, and a failing job fails alone.
 */
let database: TestDatabase
let queue: JobQueue

beforeAll(async () => {
  database = await createTestDatabase()
  const logger = createLogger(parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }))
  // An hour between polls: only a worker that fetches again at once works a backlog in this test.
  queue = await startJobQueue({ url: database.url, logger, pollingIntervalSeconds: 3600 })
})

afterAll(async () => {
  await queue?.stop()
  await database?.drop()
})

async function statesOf(name: string) {
  const { rows } = await sql<{ n: number; state: string }>`SELECT (data->>'n')::int AS n, state::text FROM pgboss.job WHERE name = ${name} ORDER BY 1`.execute(database.db)
  return rows
}

describe('the job queue', () => {
  it('works a backlog queued before its worker started, without waiting for the polling interval', async () => {
    const name = 'test.backlog'
    await queue.define(name)
    // Written in a transaction (as notify does): no wake-up reaches the worker.
    await database.db.transaction().execute((trx) => queue.send(name, Array.from({ length: 12 }, (_, n) => ({ n })), { transaction: trx }))
    const worked: number[] = []
    await queue.work<{ n: number }>(name, async ({ n }) => void worked.push(n))
    await vi.waitFor(() => expect(worked).toHaveLength(12), { timeout: 30_000, interval: 50 })
    expect(worked.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    await vi.waitFor(async () => expect((await statesOf(name)).every((job) => job.state === 'completed')).toBe(true), { timeout: 30_000, interval: 50 })
  })

  it('fetches a batch, calls the handler once per job and fails only the job that threw', async () => {
    const name = 'test.batch'
    await queue.define(name, { retryLimit: 3, retryDelaySeconds: 3600 })
    await database.db.transaction().execute((trx) => queue.send(name, Array.from({ length: 7 }, (_, n) => ({ n })), { transaction: trx }))
    const worked: number[] = []
    await queue.work<{ n: number }>(
      name,
      async ({ n }) => {
        worked.push(n)
        if (n === 3) throw new Error('the mail server is down')
      },
      { batchSize: 5 },
    )
    await vi.waitFor(() => expect(worked).toHaveLength(7), { timeout: 30_000, interval: 50 })
    await vi.waitFor(
      async () =>
        expect((await statesOf(name)).map((job) => `${job.n}:${job.state}`)).toEqual([
          '0:completed',
          '1:completed',
          '2:completed',
          '3:retry',
          '4:completed',
          '5:completed',
          '6:completed',
        ]),
      { timeout: 30_000, interval: 50 },
    )
    // Each job once: the failed one waits for its retry (an hour away), the others are done.
    expect(worked.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6])
  })
})
