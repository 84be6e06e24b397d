import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import type { Experience } from '../db/schema.ts'
import { parseEnv } from '../env.ts'
import { startJobQueue, type JobQueue } from '../jobs/queue.ts'
import { createLogger } from '../logger.ts'
import { createNotifier, notificationDeliveryJob, type Notify } from '../notifications/service.ts'
import { REMIND_JOB, remindJob, remindSweepJob, runReminder, scheduleReminders, scheduleRemindersBulk, sweepReminders, type RemindJob } from './service.ts'

/**
 * Issue 15 §2 and §7: reminders 24 h and 2 h before, queued on the real queue (pg-boss in the
 * test database) with the activity; a moved activity's old jobs do nothing, a cancelled one
 * reminds nobody, a member who cancelled is not reminded, and whatever runs twice (a retry, two
 * workers, a restart between the job's transaction and its acknowledgement) reminds once.
 */
const HOUR = 3_600_000
const env = parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' })
const logger = createLogger(env)
let database: TestDatabase
let queue: JobQueue
let notify: Notify
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  queue = await startJobQueue({ url: database.url, logger, pollingIntervalSeconds: 0.5 })
  // Queued by the code under test (notify() queues deliveries); no worker here.
  await queue.define([remindJob, notificationDeliveryJob])
  notify = createNotifier({ db: database.db, queue })
  api = await createApiHarness(database.db)
})

afterAll(async () => {
  await queue?.stop()
  await database?.drop()
})

/** The reminder jobs queued for `experienceId`, with when each may start. */
async function jobsFor(experienceId: string) {
  const { rows } = await sql<{ data: RemindJob; start_after: Date; state: string }>`
    SELECT data, start_after, state FROM pgboss.job
    WHERE name = ${REMIND_JOB} AND data->>'experience_id' = ${experienceId}
    ORDER BY start_after`.execute(database.db)
  return rows
}

async function reminders(experienceId: string) {
  return database.db
    .selectFrom('notifications')
    .select(['user_id', 'data'])
    .where('type', '=', 'experience.reminder')
    .where(sql<boolean>`data->>'experience_id' = ${experienceId}`)
    .execute()
}

async function seat(experience: Experience, userId: string) {
  await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: userId }).execute()
  await database.db.updateTable('experiences').set((eb) => ({ attendees_count: eb('attendees_count', '+', 1) })).where('id', '=', experience.id).execute()
}

async function schedule(experience: Experience) {
  await database.db.transaction().execute((trx) => scheduleReminders(trx, queue, experience))
  return jobsFor(experience.id)
}

/** An activity starting in `hours` with its host and two attendees. */
async function activity(hours = 30) {
  const host = await createUser(database.db)
  const [ann, bob] = [await createUser(database.db), await createUser(database.db)]
  const experience = await createExperience(database.db, host.id, { start_at: new Date(Date.now() + hours * HOUR) })
  await seat(experience, ann.id)
  await seat(experience, bob.id)
  return { host, ann, bob, experience }
}

describe('scheduling', () => {
  it('queues a job 24 h and one 2 h before the start, in the transaction (a rollback queues none)', async () => {
    const { experience } = await activity(30)
    const rolledBack = await database.db
      .transaction()
      .execute(async (trx) => {
        await scheduleReminders(trx, queue, experience)
        throw new Error('rolled back')
      })
      .catch((error: Error) => error.message)
    expect(rolledBack).toBe('rolled back')
    expect(await jobsFor(experience.id)).toEqual([])

    const jobs = await schedule(experience)
    const start = experience.start_at!.getTime()
    expect(jobs.map((job) => [job.data.slot, job.start_after.getTime(), job.data.start_at])).toEqual([
      ['24h', start - 24 * HOUR, experience.start_at!.toISOString()],
      ['2h', start - 2 * HOUR, experience.start_at!.toISOString()],
    ])
  })

  it('skips a slot already past, and cancelled activities', async () => {
    const { experience } = await activity(5)
    expect((await schedule(experience)).map((job) => job.data.slot)).toEqual(['2h'])
    const host = await createUser(database.db)
    const canceled = await createExperience(database.db, host.id, { canceled_at: new Date() })
    expect(await schedule(canceled)).toEqual([])
  })

  it('queues many activities in one go', async () => {
    const host = await createUser(database.db)
    const many = await Promise.all(Array.from({ length: 50 }, () => createExperience(database.db, host.id)))
    const queued = await database.db.transaction().execute((trx) => scheduleRemindersBulk(trx, queue, many))
    expect(queued).toBe(100)
    expect((await jobsFor(many[49]!.id)).map((job) => job.data.slot)).toEqual(['24h', '2h'])
  })

  it('the sweep queues the reminders of activities that never had them, once', async () => {
    const { experience } = await activity(50)
    await sweepReminders(database.db, queue)
    expect((await jobsFor(experience.id)).map((job) => job.data.slot)).toEqual(['24h', '2h'])
    await sweepReminders(database.db, queue)
    expect(await jobsFor(experience.id)).toHaveLength(2)
  })

  it('creating an activity through the API queues its reminders; moving it queues new ones and tells the attendees', async () => {
    const host = await createUser(database.db)
    const hostToken = await api.signToken(host.id)
    const before = api.queuedJobs.length
    const created = await api.request('POST', 'v1/experiences', {
      token: hostToken,
      body: { title: 'Book club', description: 'Bring the book.', start_date: '2030-07-15', start_time: '09:30', duration_minutes: 90, venue_type: 'in_person', place_id: 'us-or-portland', formatted_address: '1000 SW Broadway, Portland, OR 97205' },
    })
    expect(created.status).toBe(201)
    const id = created.json.data[0].id as string
    const remind = () => api.queuedJobs.slice(before).filter((job) => job.name === REMIND_JOB).map((job) => job.data as RemindJob)
    expect(remind().map((job) => [job.slot, job.start_at])).toEqual([
      ['24h', '2030-07-15T16:30:00.000Z'],
      ['2h', '2030-07-15T16:30:00.000Z'],
    ])

    const ann = await createUser(database.db)
    const row = await database.db.selectFrom('experiences').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    await seat(row, ann.id)
    const renamed = await api.request('PUT', `v1/experiences/${id}`, { token: hostToken, body: { title: 'Book club!' } })
    expect(renamed.status).toBe(200)
    expect(remind()).toHaveLength(2)
    const moved = await api.request('PUT', `v1/experiences/${id}`, { token: hostToken, body: { start_time: '11:00' } })
    expect(moved.status).toBe(200)
    expect(remind().slice(2).map((job) => [job.slot, job.start_at])).toEqual([
      ['24h', '2030-07-15T18:00:00.000Z'],
      ['2h', '2030-07-15T18:00:00.000Z'],
    ])
    const changed = await database.db.selectFrom('notifications').select(['user_id', 'data']).where('type', '=', 'experience.changed').where(sql<boolean>`data->>'experience_id' = ${id}`).execute()
    // The attendee hears of it; the host, who changed it, does not.
    expect(changed).toEqual([{ user_id: ann.id, data: expect.objectContaining({ changes: ['time'], before: expect.objectContaining({ start_at: '2030-07-15T16:30:00.000Z' }) }) }])

    await api.request('PUT', `v1/experiences/${id}`, { token: hostToken, body: { formatted_address: '2 Main St, Portland, OR' } })
    const placeChanges = await database.db.selectFrom('notifications').select('data').where('type', '=', 'experience.changed').where(sql<boolean>`data->>'experience_id' = ${id}`).execute()
    expect(placeChanges.map((n) => (n.data as { changes: string[] }).changes)).toEqual([['time'], ['place']])
  })
})

describe('running a reminder', () => {
  it('reminds each attendee and the host once per slot', async () => {
    const { host, ann, bob, experience } = await activity()
    const [job24] = await schedule(experience)
    expect(await runReminder(database.db, notify, job24!.data)).toEqual({ outcome: 'sent', reminded: expect.arrayContaining([host.id, ann.id, bob.id]) })
    const sent = await reminders(experience.id)
    expect(sent.map((n) => n.user_id).sort()).toEqual([host.id, ann.id, bob.id].sort())
    expect(sent[0]!.data).toEqual({ experience_id: experience.id, slot: '24h', start_at: experience.start_at!.toISOString() })
  })

  it('a moved activity: the old jobs do nothing, the new ones remind', async () => {
    const { ann, experience } = await activity()
    const old = await schedule(experience)
    const moved = await database.db.updateTable('experiences').set({ start_at: new Date(experience.start_at!.getTime() - 3 * HOUR) }).where('id', '=', experience.id).returningAll().executeTakeFirstOrThrow()
    const fresh = (await schedule(moved)).filter((job) => job.data.start_at === moved.start_at!.toISOString())
    for (const job of old) expect((await runReminder(database.db, notify, job.data)).outcome).toBe('rescheduled')
    expect(await reminders(experience.id)).toEqual([])
    expect((await runReminder(database.db, notify, fresh[0]!.data)).reminded).toContain(ann.id)
  })

  it('a cancelled activity reminds nobody; a member who cancelled is not reminded', async () => {
    const { experience } = await activity()
    const [job] = await schedule(experience)
    await database.db.updateTable('experiences').set({ canceled_at: new Date() }).where('id', '=', experience.id).execute()
    expect(await runReminder(database.db, notify, job!.data)).toEqual({ outcome: 'dropped', reminded: [] })

    const other = await activity()
    await database.db.deleteFrom('experience_attendees').where('experience_id', '=', other.experience.id).where('user_id', '=', other.bob.id).execute()
    const [otherJob] = await schedule(other.experience)
    expect((await runReminder(database.db, notify, otherJob!.data)).reminded.sort()).toEqual([other.host.id, other.ann.id].sort())
  })

  it('exactly once: run twice, by two workers at once, and after a restart', async () => {
    const { experience } = await activity()
    const [job24, job2] = await schedule(experience)
    // The handler's transaction committed, then the process died before pg-boss heard: the retry finds it done.
    await runReminder(database.db, notify, job24!.data)
    expect(await runReminder(database.db, notify, job24!.data)).toEqual({ outcome: 'sent', reminded: [] })
    // Two workers at the same time.
    const both = await Promise.all([runReminder(database.db, notify, job2!.data), runReminder(database.db, notify, job2!.data)])
    expect(both.flatMap((run) => run.reminded)).toHaveLength(3)
    const sent = await reminders(experience.id)
    expect(sent.filter((n) => (n.data as unknown as RemindJob).slot === '24h')).toHaveLength(3)
    expect(sent.filter((n) => (n.data as unknown as RemindJob).slot === '2h')).toHaveLength(3)
  })

  it('exactly once across a stopped queue: a fresh queue working the same job again reminds nobody twice', { timeout: 60_000 }, async () => {
    const { experience } = await activity()
    const data: RemindJob = { experience_id: experience.id, slot: '2h', start_at: experience.start_at!.toISOString() }
    const first = await startJobQueue({ url: database.url, logger, pollingIntervalSeconds: 0.5 })
    await first.start([remindJob, remindSweepJob], { db: database.db, jobs: first, notify, logger })
    await first.send(REMIND_JOB, data)
    await expect.poll(async () => (await reminders(experience.id)).length, { timeout: 20_000, interval: 200 }).toBe(3)
    await first.stop()

    const second = await startJobQueue({ url: database.url, logger, pollingIntervalSeconds: 0.5 })
    try {
      await second.start([remindJob, remindSweepJob], { db: database.db, jobs: second, notify, logger })
      await second.send(REMIND_JOB, data)
      const done = async () => (await jobsFor(experience.id)).filter((job) => job.state === 'completed').length
      await expect.poll(done, { timeout: 20_000, interval: 200 }).toBe(2)
      expect(await reminders(experience.id)).toHaveLength(3)
    } finally {
      await second.stop()
    }
  })
})
