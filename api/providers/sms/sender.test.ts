import { sql } from 'kysely'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { twilioHandlers } from '#tests/msw/twilio.ts'
import { parseEnv } from '../../env.ts'
import { startJobQueue, type JobQueue } from '../../jobs/queue.ts'
import { createLogger } from '../../logger.ts'
import { SMS_DELIVERY_JOB, createSmsSender, smsDeliveryJob, type SmsSender } from './sender.ts'

/**
 * The `sms.deliver` job on the real queue (pg-boss in the test database) against msw handlers
 * written from Twilio's API reference: a queued text reaches Twilio and records its sid; Twilio
 * being down is retried until it answers; an invalid number is not retried.
 */
const accountSid = 'AC0123456789abcdef0123456789abcdef'
const authToken = 'twilio-test-auth-token'
const twilio = twilioHandlers({ accountSid, authToken })
const server = setupServer(...twilio.handlers)
const options = { accountSid, authToken, from: '+15035550100' }

let database: TestDatabase
let queue: JobQueue
let sms: SmsSender

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' })
  database = await createTestDatabase()
  const logger = createLogger(parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }))
  queue = await startJobQueue({ url: database.url, logger, pollingIntervalSeconds: 0.5 })
  // Retries from 1 s here, so a refused attempt is tried again within the test.
  await queue.start([{ ...smsDeliveryJob, retryDelaySeconds: 1 }], { db: database.db, twilio: options, logger })
  sms = createSmsSender({ db: database.db, twilio: options, queue, logger })
})
afterAll(async () => {
  await queue?.stop()
  await database?.drop()
  server.close()
})

let phoneSeq = 400
async function textTo() {
  const user = await createUser(database.db, { phone: `+1503555${String(phoneSeq++).padStart(4, '0')}`, phone_confirmed_at: new Date() })
  expect(await sms.send({ userId: user.id, text: 'Your walk is tomorrow.', kind: 'reminder', locale: 'en' })).toBe(true)
  return user
}
const outboxRow = (userId: string) => database.db.selectFrom('sms_outbox').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow()
async function jobStates(id: string) {
  const { rows } = await sql<{ state: string }>`SELECT state FROM pgboss.job WHERE name = ${SMS_DELIVERY_JOB} AND data->>'id' = ${id}`.execute(database.db)
  return rows.map((row) => row.state)
}

describe('the sms.deliver job', () => {
  it("hands a queued text to Twilio and records when, and Twilio's sid", async () => {
    const user = await textTo()
    await expect.poll(async () => (await outboxRow(user.id)).provider_ref, { timeout: 15_000, interval: 200 }).toMatch(/^SM[0-9a-f]{32}$/)
    expect(twilio.messages.filter((message) => message.form.get('To') === user.phone)).toHaveLength(1)
    expect((await outboxRow(user.id)).sent_at).toBeInstanceOf(Date)
  })

  it('retries while Twilio is down, and delivers once it answers', async () => {
    twilio.down.value = true
    const user = await textTo()
    const { id } = await outboxRow(user.id)
    await expect.poll(() => jobStates(id), { timeout: 15_000, interval: 200 }).toEqual(['retry'])
    twilio.down.value = false
    await expect.poll(async () => (await outboxRow(user.id)).sent_at, { timeout: 20_000, interval: 200 }).toBeInstanceOf(Date)
  })

  it('does not retry a number Twilio refuses as invalid (21211)', async () => {
    twilio.invalidNumbers.add(`+1503555${String(phoneSeq).padStart(4, '0')}`)
    const user = await textTo()
    const { id } = await outboxRow(user.id)
    await expect.poll(() => jobStates(id), { timeout: 15_000, interval: 200 }).toEqual(['completed'])
    expect((await database.db.selectFrom('sms_outbox').select('sent_at').where('id', '=', id).executeTakeFirstOrThrow()).sent_at).toBeNull()
  })
})
