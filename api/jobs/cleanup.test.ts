import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createExperience, createUser } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { parseEnv } from '../env.ts'
import { createLogger } from '../logger.ts'
import { createLocalStorage } from '../providers/storage/local.ts'
import type { MediaStorage } from '../providers/storage/storage.ts'
import { cleanupJob, deleteExpiredRows } from './cleanup.ts'
import { startJobQueue, type JobQueue } from './queue.ts'

/**
 * Issue 10 §8: expired rows were never removed. The cleanup deletes exactly the expired ones
 * from a real database, leaves live ones alone, and runs on the job queue every 15 minutes.
 */
let database: TestDatabase
let mediaDir: string
let storage: MediaStorage
const queues: JobQueue[] = []

beforeAll(async () => {
  database = await createTestDatabase()
  mediaDir = await mkdtemp(path.join(tmpdir(), 'cleanup-media-'))
  storage = createLocalStorage(mediaDir)
})

afterAll(async () => {
  for (const queue of queues) await queue.stop()
  await database?.drop()
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
})

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000)

/** One expired and one live row (or more) in every table the cleanup looks after. */
async function insertRows() {
  const tag = randomUUID().slice(0, 8)
  const { db } = database
  await db
    .insertInto('oidc_payloads')
    .values([
      { id: `expired-${tag}`, type: 'Interaction', payload: '{}', expires_at: minutesFromNow(-1) },
      { id: `expired-consumed-${tag}`, type: 'AuthorizationCode', payload: '{}', expires_at: minutesFromNow(-1), consumed_at: minutesFromNow(-2) },
      { id: `live-${tag}`, type: 'Session', payload: '{}', expires_at: minutesFromNow(60) },
      { id: `no-expiry-${tag}`, type: 'Client', payload: '{}', expires_at: null },
    ])
    .execute()
  await db
    .insertInto('rate_limits')
    .values([
      { key: `writes:expired-${tag}`, window_start: minutesFromNow(-2 * 24 * 60), count: 40 },
      { key: `auth:live-${tag}`, window_start: minutesFromNow(-5), count: 3 },
    ])
    .execute()
  const code = { purpose: 'sign_in' as const, code_hash: 'x' }
  await db
    .insertInto('login_codes')
    .values([
      { ...code, email: `expired-${tag}@example.com`, expires_at: minutesFromNow(-120) },
      { ...code, email: `spent-${tag}@example.com`, expires_at: minutesFromNow(5), consumed_at: minutesFromNow(-90) },
      { ...code, email: `just-expired-${tag}@example.com`, expires_at: minutesFromNow(-10) },
      { ...code, email: `just-spent-${tag}@example.com`, expires_at: minutesFromNow(5), consumed_at: minutesFromNow(-1) },
      { ...code, email: `live-${tag}@example.com`, expires_at: minutesFromNow(8) },
    ])
    .execute()
  await db
    .insertInto('web_sessions')
    .values([
      { id: `expired-${tag}`, data: '{}', expires_at: minutesFromNow(-1) },
      { id: `live-${tag}`, data: '{}', expires_at: minutesFromNow(60 * 24) },
    ])
    .execute()
  await db
    .insertInto('email_outbox')
    .values(['old', 'recent'].map((age) => ({ to_address: `${age}-${tag}@example.com`, subject: 'Your code', text_body: '123456', kind: 'signInCode', locale: 'en' })))
    .execute()
  await sql`UPDATE email_outbox SET created_at = now() - interval '31 days' WHERE to_address = ${`old-${tag}@example.com`}`.execute(db)
  await db
    .insertInto('sms_outbox')
    .values(['old', 'recent'].map((age) => ({ to_number: `${age}-${tag}`, body: 'Your code: 123456', kind: 'phone_code', locale: 'en' })))
    .execute()
  await sql`UPDATE sms_outbox SET created_at = now() - interval '31 days' WHERE to_number = ${`old-${tag}`}`.execute(db)
  return tag
}

/** What is left of the rows `insertRows` made with `tag`. */
async function remaining(tag: string) {
  const { db } = database
  const like = `%${tag}%`
  const [oidc, limits, codes, sessions, emails, texts] = await Promise.all([
    db.selectFrom('oidc_payloads').select('id').where('id', 'like', like).orderBy('id').execute(),
    db.selectFrom('rate_limits').select('key').where('key', 'like', like).orderBy('key').execute(),
    db.selectFrom('login_codes').select('email').where('email', 'like', like).orderBy('email').execute(),
    db.selectFrom('web_sessions').select('id').where('id', 'like', like).orderBy('id').execute(),
    db.selectFrom('email_outbox').select('to_address').where('to_address', 'like', like).orderBy('to_address').execute(),
    db.selectFrom('sms_outbox').select('to_number').where('to_number', 'like', like).orderBy('to_number').execute(),
  ])
  return {
    oidcPayloads: oidc.map((row) => row.id.replace(`-${tag}`, '')),
    rateLimits: limits.map((row) => row.key.replace(`-${tag}`, '')),
    loginCodes: codes.map((row) => row.email.replace(`-${tag}@example.com`, '')),
    webSessions: sessions.map((row) => row.id.replace(`-${tag}`, '')),
    emails: emails.map((row) => row.to_address.replace(`-${tag}@example.com`, '')),
    texts: texts.map((row) => row.to_number.replace(`-${tag}`, '')),
  }
}

const survivors = {
  oidcPayloads: ['live', 'no-expiry'],
  rateLimits: ['auth:live'],
  loginCodes: ['just-expired', 'just-spent', 'live'],
  webSessions: ['live'],
  emails: ['recent'],
  texts: ['recent'],
}

async function clearTables() {
  await sql`TRUNCATE oidc_payloads, rate_limits, login_codes, web_sessions, email_outbox, sms_outbox`.execute(database.db)
}

describe('deleteExpiredRows', () => {
  it('removes only expired rows, keeping sign-in codes for an hour of grace', async () => {
    await clearTables()
    const tag = await insertRows()
    expect(await deleteExpiredRows(database.db, storage)).toEqual({ oidcPayloads: 2, rateLimits: 1, loginCodes: 2, webSessions: 1, emails: 1, texts: 1, reminders: 0, unusedPhotos: 0 })
    expect(await remaining(tag)).toEqual(survivors)
  })

  it('removes nothing more when run again, or by several instances at once', async () => {
    await clearTables()
    const tag = await insertRows()
    const runs = await Promise.all([1, 2, 3].map(() => deleteExpiredRows(database.db, storage)))
    const total = (key: keyof (typeof runs)[number]) => runs.reduce((sum, run) => sum + run[key], 0)
    expect({ oidcPayloads: total('oidcPayloads'), rateLimits: total('rateLimits'), loginCodes: total('loginCodes'), webSessions: total('webSessions'), emails: total('emails'), texts: total('texts') }).toEqual({
      oidcPayloads: 2,
      rateLimits: 1,
      loginCodes: 2,
      webSessions: 1,
      emails: 1,
      texts: 1,
    })
    expect(await deleteExpiredRows(database.db, storage)).toEqual({ oidcPayloads: 0, rateLimits: 0, loginCodes: 0, webSessions: 0, emails: 0, texts: 0, reminders: 0, unusedPhotos: 0 })
    expect(await remaining(tag)).toEqual(survivors)
  })
})

describe('reminder records', () => {
  it('go a day after the start they were for; those of starts ahead or just past stay', async () => {
    const { db } = database
    const member = await createUser(db)
    const experience = await createExperience(db, member.id)
    const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000)
    await db
      .insertInto('experience_reminders')
      .values([-50, -23, 20].map((hours) => ({ experience_id: experience.id, user_id: member.id, slot: '24h', start_at: hoursFromNow(hours) })))
      .execute()
    expect((await deleteExpiredRows(db, storage)).reminders).toBe(1)
    const left = await db.selectFrom('experience_reminders').select('start_at').where('user_id', '=', member.id).orderBy('start_at').execute()
    expect(left.map((row) => Math.round((row.start_at.getTime() - Date.now()) / 3_600_000))).toEqual([-23, 20])
  })
})

describe('profile photos nobody shows (uploaded, never put on a profile)', () => {
  it('go after a day, rows and files; the photo on a profile and a fresh upload stay', async () => {
    const { db } = database
    const owner = (await createUser(db)).id
    const photo = async (name: string, hoursAgo: number) => {
      const key = `avatars/${name}-${randomUUID()}.jpg`
      await storage.put(key, new Uint8Array([1, 2, 3]), 'image/jpeg')
      await storage.put(`${key}.thumb`, new Uint8Array([4]), 'image/jpeg')
      const row = await db
        .insertInto('media')
        .values({
          owner_id: owner,
          target: 'avatar',
          storage_key: key,
          thumbnail_key: `${key}.thumb`,
          mime_type: 'image/jpeg',
          width: 400,
          height: 400,
          bytes: 3,
          created_at: new Date(Date.now() - hoursAgo * 3_600_000),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      return { id: row.id, key }
    }
    const abandoned = await photo('abandoned', 30)
    const shown = await photo('shown', 30)
    const fresh = await photo('fresh', 1)
    await db.updateTable('users').set({ avatar_media_id: shown.id }).where('id', '=', owner).execute()

    expect((await deleteExpiredRows(db, storage)).unusedPhotos).toBe(1)
    const left = await db.selectFrom('media').select('id').where('owner_id', '=', owner).execute()
    expect(left.map((row) => row.id).sort()).toEqual([shown.id, fresh.id].sort())
    expect(await storage.get(abandoned.key)).toBeNull()
    expect(await storage.get(`${abandoned.key}.thumb`)).toBeNull()
    expect(await storage.get(shown.key)).not.toBeNull()
    expect(await storage.get(fresh.key)).not.toBeNull()
  })
})

describe('the cleanup job', () => {
  it('is scheduled every 15 minutes once, however many instances start, and works its jobs', async () => {
    const env = parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' })
    const logger = createLogger(env)
    for (let instance = 0; instance < 2; instance++) {
      const queue = await startJobQueue({ url: database.url, logger, pollingIntervalSeconds: 0.5 })
      queues.push(queue)
      await queue.start([cleanupJob], { db: database.db, logger, storage })
    }
    const { rows: schedules } = await sql<{ name: string; cron: string; timezone: string }>`
      SELECT name, cron, timezone FROM pgboss.schedule`.execute(database.db)
    expect(schedules).toEqual([{ name: cleanupJob.name, cron: '*/15 * * * *', timezone: 'UTC' }])

    // A tick sends the job; here it is sent by hand and one of the instances works it.
    await clearTables()
    const tag = await insertRows()
    await queues[0]!.send(cleanupJob.name, {})
    await expect.poll(() => remaining(tag), { timeout: 10_000, interval: 200 }).toEqual(survivors)
  })
})
