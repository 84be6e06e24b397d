import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { parseEnv } from '../env.ts'
import { createLogger } from '../logger.ts'
import { startJobQueue, type JobQueue } from './queue.ts'

/**
 * Issue 15 §8 (bench:notify): a backlog of jobs (2,000 notifications of one cancellation) drained
 * at one job per polling interval. Queued jobs are worked one after another without waiting for
 * the interval.
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
})
