import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser, User } from '#api/db/schema.ts'
import { createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { parseEnv } from '../env.ts'
import { startJobQueue, type JobQueue } from '../jobs/queue.ts'
import { createLogger } from '../logger.ts'
import { createChatMirror } from '../chat/mirror.ts'
import { liftEndedSuspensions } from './service.ts'
import { liftSuspensionsJob } from './suspension-job.ts'

/**
 * Suspensions end on time (decision 042): a recurring job lifts every suspension whose end date
 * has passed, without waiting for the member to come back, and writes the audit log; other
 * members can then find and message them again.
 */
let database: TestDatabase
let api: ApiHarness
const queues: JobQueue[] = []
const logger = createLogger(parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }))

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
})

afterAll(async () => {
  for (const queue of queues) await queue.stop()
  await database?.drop()
})

const DAY = 86_400_000
const services = () => ({ db: database.db, chatMirror: createChatMirror({}), logger })
const liftNow = () => liftEndedSuspensions(database.db, createChatMirror({}))

function member(overrides: Partial<NewUser> = {}) {
  return createUser(database.db, overrides)
}

async function standing(user: User) {
  return database.db.selectFrom('users').select(['is_suspended', 'suspended_until']).where('id', '=', user.id).executeTakeFirstOrThrow()
}

async function auditOf(user: User) {
  return database.db.selectFrom('audit_log').select(['actor_id', 'action', 'target_type', 'data']).where('target_id', '=', user.id).execute()
}

async function canMessage(from: User, to: User) {
  const answer = await api.request('GET', `v1/block/${to.id}/me`, { token: await api.signToken(from.id) })
  expect(answer.status).toBe(200)
  return answer.json.can_message as boolean
}

describe('lifting ended suspensions', () => {
  it('lifts a suspension that ended yesterday, keeps one that ends next week, and a second run changes nothing', async () => {
    const yesterday = new Date(Date.now() - DAY)
    const nextWeek = new Date(Date.now() + 7 * DAY)
    const returning = await member({ is_suspended: true, suspended_until: yesterday })
    const still = await member({ is_suspended: true, suspended_until: nextWeek })
    const other = await member()
    expect(await canMessage(other, returning)).toBe(false)

    const lifted = await liftNow()
    expect(lifted).toContain(returning.id)
    expect(lifted).not.toContain(still.id)
    expect(await standing(returning)).toEqual({ is_suspended: false, suspended_until: null })
    expect(await standing(still)).toEqual({ is_suspended: true, suspended_until: nextWeek })
    // Others see them as a member again at once, before they come back themselves.
    expect(await canMessage(other, returning)).toBe(true)
    expect(await canMessage(other, still)).toBe(false)
    expect(await auditOf(returning)).toEqual([
      {
        actor_id: null,
        action: 'suspension.end',
        target_type: 'user',
        data: { reason: 'suspension ended', user_id: returning.id, suspended_until: yesterday.toISOString() },
      },
    ])
    expect(await auditOf(still)).toEqual([])

    expect(await liftNow()).toEqual([])
    expect(await standing(still)).toEqual({ is_suspended: true, suspended_until: nextWeek })
    expect(await auditOf(returning)).toHaveLength(1)
  })

  it('lifts each member once when several instances run at once', async () => {
    const members = await Promise.all([1, 2, 3].map(() => member({ is_suspended: true, suspended_until: new Date(Date.now() - 60_000) })))
    const runs = await Promise.all([1, 2, 3].map(() => liftNow()))
    expect(runs.flat().sort()).toEqual(members.map((user) => user.id).sort())
    for (const user of members) expect(await auditOf(user)).toHaveLength(1)
  })

  it('leaves a member lifted by their own request alone (one audit entry, not two)', async () => {
    const someone = await member({ is_suspended: true, suspended_until: new Date(Date.now() - 1000) })
    expect((await api.request('GET', 'v1/users/me', { token: await api.signToken(someone.id) })).status).toBe(200)
    expect(await liftNow()).not.toContain(someone.id)
    expect(await auditOf(someone)).toMatchObject([{ actor_id: null, action: 'suspension.end' }])
  })

  it('never lifts a ban', async () => {
    const banned = await member({ banned: true })
    await liftNow()
    expect((await database.db.selectFrom('users').select('banned').where('id', '=', banned.id).executeTakeFirstOrThrow()).banned).toBe(true)
  })
})

describe('the job', () => {
  it('is scheduled every 5 minutes once, however many instances start, and a tick lifts ended suspensions', async () => {
    for (let instance = 0; instance < 2; instance++) {
      const queue = await startJobQueue({ url: database.url, logger, pollingIntervalSeconds: 0.5 })
      queues.push(queue)
      await queue.start([liftSuspensionsJob], services())
    }
    const { rows: schedules } = await sql<{ name: string; cron: string; timezone: string }>`
      SELECT name, cron, timezone FROM pgboss.schedule`.execute(database.db)
    expect(schedules).toEqual([{ name: liftSuspensionsJob.name, cron: '*/5 * * * *', timezone: 'UTC' }])

    // A tick sends the job; here it is sent by hand and one of the instances works it.
    const someone = await member({ is_suspended: true, suspended_until: new Date(Date.now() - 1000) })
    await queues[0]!.send(liftSuspensionsJob.name, {})
    await expect.poll(() => standing(someone), { timeout: 10_000, interval: 200 }).toEqual({ is_suspended: false, suspended_until: null })
  })
})
