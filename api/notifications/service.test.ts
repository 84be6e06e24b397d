import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDeliveryDeps, createApiHarness, createExperience, createUser } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { parseEnv } from '../env.ts'
import { startJobQueue, type JobQueue } from '../jobs/queue.ts'
import { createLogger } from '../logger.ts'
import { deliveryJobServices, notificationLaterJob } from './delivery.ts'
import { NOTIFICATION_DELIVERY_JOB, createNotifier, notificationDeliveryJob, type Notify } from './service.ts'

/**
 * Issue 11 §4: `notify(event)` records the notification and queues its delivery job on the real
 * queue (pg-boss in the test database); the job runs and records it. In a transaction, both are
 * kept or rolled back together. The experiences service notifies through it.
 */
let database: TestDatabase
let queue: JobQueue
let notify: Notify

beforeAll(async () => {
  database = await createTestDatabase()
  const env = parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' })
  const logger = createLogger(env)
  queue = await startJobQueue({ url: database.url, logger, pollingIntervalSeconds: 0.5 })
  await queue.start([notificationDeliveryJob, notificationLaterJob], { ...deliveryJobServices(testDeliveryDeps(database.db)), logger })
  notify = createNotifier({ db: database.db, queue })
})

afterAll(async () => {
  await queue?.stop()
  await database?.drop()
})

function notificationsFor(userId: string) {
  return database.db.selectFrom('notifications').selectAll().where('user_id', '=', userId).orderBy('created_at').execute()
}

/** Delivery jobs in pg-boss's table for these notification ids, with their state. */
async function deliveryJobs(ids: string[]) {
  const { rows } = await sql<{ id: string; state: string }>`
    SELECT data->>'id' AS id, state FROM pgboss.job
    WHERE name = ${NOTIFICATION_DELIVERY_JOB} AND data->>'id' = ANY(${ids}::text[])`.execute(database.db)
  return rows
}

const delivered = async (userId: string) => (await notificationsFor(userId)).map((n) => n.delivered_at !== null)

describe('notify', () => {
  it('records one notification per recipient, queues its delivery, and the job runs', async () => {
    const [ann, bob] = [await createUser(database.db), await createUser(database.db)]
    const [experienceId, hostId] = [crypto.randomUUID(), crypto.randomUUID()]
    const ids = await notify({ type: 'experience.canceled', to: [ann.id, bob.id, ann.id], data: { experience_id: experienceId, canceled_by: hostId } })
    expect(ids).toHaveLength(2)
    for (const user of [ann, bob]) {
      const rows = await notificationsFor(user.id)
      expect(rows).toEqual([expect.objectContaining({ type: 'experience.canceled', data: { experience_id: experienceId, canceled_by: hostId }, seen_at: null })])
    }
    expect((await deliveryJobs(ids)).map((job) => job.id).sort()).toEqual([...ids].sort())
    await expect.poll(() => delivered(ann.id), { timeout: 15_000, interval: 200 }).toEqual([true])
    await expect.poll(() => delivered(bob.id), { timeout: 15_000, interval: 200 }).toEqual([true])
    await expect.poll(async () => (await deliveryJobs(ids)).map((job) => job.state), { timeout: 15_000, interval: 200 }).toEqual(['completed', 'completed'])
  })

  it('carries each event type’s data (spec §3 types among them)', async () => {
    const user = await createUser(database.db)
    await notify({ type: 'sample', to: [user.id], data: {} })
    await notify({ type: 'message.new', to: [user.id], data: { channel_id: 'c1', message_id: 'm1' } })
    await notify({ type: 'waitlist.selected', to: [user.id], data: { experience_id: 'e1' } })
    await notify({ type: 'waitlist.seat_available', to: [], data: { experience_id: 'e1' } })
    const rows = await notificationsFor(user.id)
    expect(rows.map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'sample', data: {} },
      { type: 'message.new', data: { channel_id: 'c1', message_id: 'm1' } },
      { type: 'waitlist.selected', data: { experience_id: 'e1' } },
    ])
  })

  it('in a transaction that rolls back, records nothing and queues nothing', async () => {
    const user = await createUser(database.db)
    let ids: string[] = []
    await expect(
      database.db.transaction().execute(async (trx) => {
        ids = await notify({ type: 'sample', to: [user.id], data: {} }, trx)
        throw new Error('the change that caused it failed')
      }),
    ).rejects.toThrow('the change that caused it failed')
    expect(ids).toHaveLength(1)
    expect(await notificationsFor(user.id)).toEqual([])
    expect(await deliveryJobs(ids)).toEqual([])
  })
})

describe('the experiences service', () => {
  it('notifies through notify: a cancelled activity’s attendees get delivered notifications', async () => {
    const api = await createApiHarness(database.db, {}, { notify })
    const host = await createUser(database.db)
    const attendee = await createUser(database.db)
    const experience = await createExperience(database.db, host.id, { attendees_count: 1 })
    await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: attendee.id }).execute()
    const response = await api.request('DELETE', `v1/experiences/${experience.id}`, { token: await api.signToken(host.id) })
    expect(response.status).toBe(204)
    const [notification] = await notificationsFor(attendee.id)
    expect(notification).toMatchObject({ type: 'experience.canceled', data: { experience_id: experience.id } })
    expect(await deliveryJobs([notification!.id])).toHaveLength(1)
    await expect.poll(() => delivered(attendee.id), { timeout: 15_000, interval: 200 }).toEqual([true])
    expect(await notificationsFor(host.id)).toEqual([])
  })
})
