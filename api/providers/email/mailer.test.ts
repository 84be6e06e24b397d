import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { startJobQueue, type JobQueue } from '../../jobs/queue.ts'
import { createLogger } from '../../logger.ts'
import { parseEnv } from '../../env.ts'
import { createMailer } from './mailer.ts'
import { emailDeliveryJob, emailFailedJob } from './smtp.ts'

/**
 * Email through the outbox and the job queue to a real SMTP server on loopback (smtp-server),
 * including a mail server that refuses at first: queued mail is retried until it is delivered,
 * while a code is sent at once and, when that fails, reported and never sent late.
 */
let database: TestDatabase
let queue: JobQueue
let smtp: SMTPServer
let smtpUrl: string
const received: { to: string[]; raw: string }[] = []
let refusals = 0

beforeAll(async () => {
  database = await createTestDatabase()
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = ''
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')))
      stream.on('end', () => {
        if (refusals > 0) {
          refusals--
          callback(Object.assign(new Error('Try again later'), { responseCode: 451 }))
          return
        }
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`
  const logger = createLogger(parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }))
  queue = await startJobQueue({ url: database.url, logger, pollingIntervalSeconds: 0.5 })
  // Retries from 1 s here, so a refused attempt is tried again within the test.
  await queue.start([emailFailedJob, { ...emailDeliveryJob, retryDelaySeconds: 1 }], { db: database.db, smtp: smtpOptions(), logger })
})

afterAll(async () => {
  await queue?.stop()
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()))
  await database?.drop()
})

const smtpOptions = (url = smtpUrl) => ({ url, from: 'Circle 55 <hello@circle55.example>', timeoutMs: 2_000 })

async function waitFor<T>(read: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('email delivery', () => {
  it('records the email in the outbox, then a background job sends it over SMTP', async () => {
    const mailer = createMailer({ db: database.db, smtp: smtpOptions(), queue })
    await mailer.send({ to: 'ada@example.com', subject: 'Your code', text: 'Your code is 123456', kind: 'code', locale: 'en' })
    const message = await waitFor(() => received.find((m) => m.to.includes('ada@example.com')))
    expect(message.raw).toContain('Subject: Your code')
    expect(message.raw).toContain('Your code is 123456')
    const row = await waitFor(async () => {
      const found = await database.db.selectFrom('email_outbox').selectAll().where('to_address', '=', 'ada@example.com').executeTakeFirst()
      return found?.sent_at ? found : undefined
    })
    expect(row.subject).toBe('Your code')
  })

  it('retries when the mail server refuses, and sends once', async () => {
    refusals = 1
    const mailer = createMailer({ db: database.db, smtp: smtpOptions(), queue })
    await mailer.send({ to: 'grace@example.com', subject: 'Welcome', text: 'Welcome to Circle 55', kind: 'welcome', locale: 'en' })
    await waitFor(() => received.find((m) => m.to.includes('grace@example.com')))
    expect(refusals).toBe(0)
    expect(received.filter((m) => m.to.includes('grace@example.com'))).toHaveLength(1)
  })

  it('in a transaction, queues the email only if it commits (a notification’s email, decision 018)', async () => {
    const mailer = createMailer({ db: database.db, smtp: smtpOptions(), queue })
    await expect(
      database.db.transaction().execute(async (trx) => {
        await mailer.send({ to: 'rolled@example.com', subject: 'A seat is free', text: 'Not sent', kind: 'waitlistSeatAvailable', locale: 'en' }, { transaction: trx })
        throw new Error('the delivery failed')
      }),
    ).rejects.toThrow('the delivery failed')
    await database.db.transaction().execute(async (trx) => {
      await mailer.send({ to: 'kept@example.com', subject: 'A seat is free', text: 'Sent', kind: 'waitlistSeatAvailable', locale: 'en' }, { transaction: trx })
    })
    await waitFor(() => received.find((m) => m.to.includes('kept@example.com')))
    const rolledBack = await database.db.selectFrom('email_outbox').select('id').where('to_address', '=', 'rolled@example.com').execute()
    expect(rolledBack).toEqual([])
    expect(received.filter((m) => m.to.includes('rolled@example.com'))).toHaveLength(0)
  })

  it('keeps the email in the outbox only when no SMTP server is configured', async () => {
    const mailer = createMailer({ db: database.db })
    await mailer.send({ to: 'lin@example.com', subject: 'Code', text: '654321', kind: 'code', locale: 'en' })
    const row = await database.db.selectFrom('email_outbox').selectAll().where('to_address', '=', 'lin@example.com').executeTakeFirstOrThrow()
    expect(row.sent_at).toBeNull()
  })

  it('sends a code at once, without the queue', async () => {
    const mailer = createMailer({ db: database.db, smtp: smtpOptions(), queue })
    expect(await mailer.sendNow({ to: 'ines@example.com', subject: 'Your code', text: 'Your code is 111222', kind: 'signInCode', locale: 'en' })).toEqual({ sent: true })
    // Already there when sendNow returns: nobody waited for a worker.
    expect(received.filter((m) => m.to.includes('ines@example.com'))).toHaveLength(1)
    const row = await database.db.selectFrom('email_outbox').select('sent_at').where('to_address', '=', 'ines@example.com').executeTakeFirstOrThrow()
    expect(row.sent_at).not.toBeNull()
  })

  it('says a code was not sent when the mail server refuses, logs it as an error, and never sends it later', async () => {
    refusals = 1
    const errors: string[] = []
    const logger = { ...createLogger(parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' })), error: (_data: unknown, message: string) => errors.push(message) }
    const mailer = createMailer({ db: database.db, smtp: smtpOptions(), queue, logger: logger as never })
    expect(await mailer.sendNow({ to: 'jo@example.com', subject: 'Your code', text: 'Your code is 333444', kind: 'signInCode', locale: 'en' })).toEqual({ sent: false })
    expect(errors).toEqual(['Email could not be sent'])
    // The queue's retries (1 s here) would have delivered it by now.
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    expect(received.filter((m) => m.to.includes('jo@example.com'))).toHaveLength(0)
    const row = await database.db.selectFrom('email_outbox').select(['sent_at', 'failed_at', 'last_error']).where('to_address', '=', 'jo@example.com').executeTakeFirstOrThrow()
    expect(row.sent_at).toBeNull()
    // The outbox shows it failed (issue 29 §5: never dropped silently), with the server's answer.
    expect(row.failed_at).not.toBeNull()
    expect(row.last_error).toMatch(/Try again later/)
  })

  it('says a code was not sent when no mail server answers at all', async () => {
    const closed = smtpOptions('smtp://127.0.0.1:9')
    const mailer = createMailer({ db: database.db, smtp: closed, queue })
    const started = Date.now()
    expect(await mailer.sendNow({ to: 'kim@example.com', subject: 'Your code', text: '555666', kind: 'signInCode', locale: 'en' })).toEqual({ sent: false })
    expect(Date.now() - started).toBeLessThan(5_000)
  })
})
