import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { startJobQueue, type JobQueue } from '../../jobs/queue.ts'
import { createLogger } from '../../logger.ts'
import { parseEnv } from '../../env.ts'
import { readOutbox } from './outbox.ts'
import { createMailer } from './mailer.ts'
import { EMAIL_DELIVERY_JOB, emailDeliveryJob, emailFailedJob } from './smtp.ts'

/**
 * Issue 29 §5: a notification email was dropped after about an hour of the mail server being
 * down, and nothing said so. It is now retried, with growing waits, for more than a day; then
 * its outbox row says it failed and an error is logged. The waits are the ones the queue
 * scheduled, each skipped ahead here so the test takes seconds, not a day.
 */
let database: TestDatabase
let queue: JobQueue
const errors: { message: string; data: Record<string, unknown> }[] = []
const silent = createLogger(parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }))
const logger = Object.assign(Object.create(silent) as typeof silent, {
  error: (data: Record<string, unknown>, message: string) => void errors.push({ message, data }),
})
// Nothing listens on port 9 (discard): every attempt fails at once, as with a mail server that is down.
const smtp = { url: 'smtp://127.0.0.1:9', from: 'Circle 55 <hello@circle55.example>', timeoutMs: 2_000 }

beforeAll(async () => {
  database = await createTestDatabase()
  queue = await startJobQueue({ url: database.url, logger, pollingIntervalSeconds: 0.5 })
  await queue.start([emailFailedJob, emailDeliveryJob], { db: database.db, smtp, logger })
})

afterAll(async () => {
  await queue?.stop()
  await database?.drop()
})

interface JobRow {
  state: string
  retry_count: number
  /** Seconds from now until the job may run again. */
  wait: number
}

async function emailJob(id: string) {
  const { rows } = await sql<JobRow>`
    SELECT state::text, retry_count, EXTRACT(EPOCH FROM start_after - now())::float8 AS wait
    FROM pgboss.job WHERE name = ${EMAIL_DELIVERY_JOB} AND data->>'id' = ${id}`.execute(database.db)
  return rows[0]
}

describe('a notification email while the mail server is down', () => {
  it('is retried for more than a day with growing waits, then shown as failed in the outbox and logged as an error', { timeout: 180_000 }, async () => {
    const mailer = createMailer({ db: database.db, smtp, queue, logger })
    await mailer.send({ to: 'margaret@example.com', subject: 'Tai chi is cancelled', text: 'The host cancelled Saturday’s tai chi.', kind: 'experienceCanceled', locale: 'en' })
    const { id } = await database.db.selectFrom('email_outbox').select('id').where('to_address', '=', 'margaret@example.com').executeTakeFirstOrThrow()

    const waits: number[] = []
    for (;;) {
      // The next failed attempt: the job waits for its retry, or has failed for good.
      const job = await vi.waitFor(
        async () => {
          const row = await emailJob(id)
          if (!row || (row.state !== 'failed' && !(row.state === 'retry' && row.retry_count === waits.length))) throw new Error('not yet')
          return row
        },
        { timeout: 20_000, interval: 50 },
      )
      if (job.state === 'failed') break
      waits.push(job.wait)
      // Skip the wait, as if that much time had passed.
      await sql`UPDATE pgboss.job SET start_after = now() WHERE name = ${EMAIL_DELIVERY_JOB} AND data->>'id' = ${id}`.execute(database.db)
    }

    const hours = waits.reduce((sum, wait) => sum + wait, 0) / 3600
    expect(hours).toBeGreaterThan(24)
    // Growing waits, never more than an hour apart.
    expect(waits[1]!).toBeGreaterThan(waits[0]! - 1)
    expect(Math.max(...waits)).toBeLessThanOrEqual(3600)

    // Never dropped silently: the outbox says so, and so do the logs.
    await vi.waitFor(async () => expect((await readOutbox(database.db, 10)).find((email) => email.id === id)?.delivery.status).toBe('failed'), { timeout: 20_000, interval: 100 })
    const [email] = (await readOutbox(database.db, 10)).filter((row) => row.id === id)
    expect(email!.delivery).toMatchObject({ status: 'failed', attempts: waits.length + 1, error: expect.stringMatching(/ECONNREFUSED/) })
    expect(errors).toContainEqual({ message: expect.stringMatching(/^Email not delivered/), data: expect.objectContaining({ kind: 'experienceCanceled', emailId: id }) })
  })
})
