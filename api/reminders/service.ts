import { sql } from 'kysely'
import { z } from 'zod'
import type { DB, Trx } from '../db/database.ts'
import { reminderSlots, type Experience, type ReminderSlot } from '../db/schema.ts'
import { defineJob } from '../jobs/job.ts'
import type { JobQueue } from '../jobs/queue.ts'
import type { Logger } from '../logger.ts'
import type { NotificationData, Notify } from '../notifications/service.ts'

/**
 * Automatic reminders (issue 15 §2, decision 050): a job at start − 24 h and one at start − 2 h on
 * the PostgreSQL queue, queued in the transaction that creates or moves the activity. The job
 * checks that the activity still takes place at the start it was queued for (a move queued new
 * ones; a cancellation drops them) and tells each current attendee and the host once: the
 * `experience_reminders` row and the notification are written by the same transaction, so a
 * retried, duplicated or restarted job reminds nobody twice. A sweep queues the reminders of
 * activities that never had theirs (rows from before this code).
 */
const HOUR = 3_600_000
export const reminderOffsets: Record<ReminderSlot, number> = { '24h': 24 * HOUR, '2h': 2 * HOUR }

const remindPayload = z.object({
  experience_id: z.guid(),
  slot: z.enum(reminderSlots),
  /** The start the job was queued for (ISO); a different start today means the activity moved. */
  start_at: z.iso.datetime(),
})
export type RemindJob = z.output<typeof remindPayload>

type Schedulable = Pick<Experience, 'id' | 'start_at' | 'canceled_at'>

/** The reminder jobs `experiences` need now: one per slot still ahead, with the time it is due. */
export function reminderJobs(experiences: readonly Schedulable[], now = Date.now()) {
  const jobs: { data: RemindJob; at: Date }[] = []
  for (const experience of experiences) {
    if (experience.canceled_at || !experience.start_at) continue
    const start = experience.start_at.getTime()
    for (const slot of Object.keys(reminderOffsets) as ReminderSlot[]) {
      const at = start - reminderOffsets[slot]
      if (at <= now) continue // a slot already past is skipped
      jobs.push({ data: { experience_id: experience.id, slot, start_at: experience.start_at.toISOString() }, at: new Date(at) })
    }
  }
  return jobs
}

/** When a reminder job is due: its slot's offset before the start it was queued for. */
const remindAt = (job: RemindJob) => new Date(Date.parse(job.start_at) - reminderOffsets[job.slot])

/**
 * Queues the reminders of many activities in `trx` (two statements whatever their number: the
 * jobs, and the start each was scheduled for) and answers how many jobs were queued. Upcoming
 * activities only; cancelled or undated ones get none.
 */
export async function scheduleRemindersBulk(trx: DB, queue: Pick<JobQueue, 'send'>, experiences: readonly Schedulable[]) {
  const jobs = reminderJobs(experiences)
  await queue.send(remindJob.name, jobs.map((job) => job.data), { transaction: trx, startAfterOf: remindAt })
  const dated = experiences.filter((e) => e.start_at && !e.canceled_at)
  for (let i = 0; i < dated.length; i += 5_000) {
    await trx
      .insertInto('experience_reminder_schedules')
      .values(dated.slice(i, i + 5_000).map((e) => ({ experience_id: e.id, start_at: e.start_at! })))
      .onConflict((oc) => oc.column('experience_id').doUpdateSet({ start_at: (eb) => eb.ref('excluded.start_at') }))
      .execute()
  }
  return jobs.length
}

/**
 * Queues `experience`'s two reminders in `trx` (the transaction that creates or moves it), so the
 * jobs exist only if it commits. Without a queue (some tests) nothing is queued: the sweep will.
 */
export async function scheduleReminders(trx: DB, queue: Pick<JobQueue, 'send'> | undefined, experience: Schedulable) {
  if (!queue) return 0
  return scheduleRemindersBulk(trx, queue, [experience])
}

export type RemindOutcome = 'sent' | 'dropped' | 'rescheduled'

/**
 * Runs one reminder job: nothing when the activity is gone, cancelled or started ("dropped") or
 * moved ("rescheduled"); otherwise every current attendee and the host are notified, each once
 * (whatever ran before). Answers the outcome and who was reminded now.
 */
export async function runReminder(db: DB, notify: Notify, job: RemindJob): Promise<{ outcome: RemindOutcome; reminded: string[] }> {
  return db.transaction().execute(async (trx) => {
    const experience = await trx
      .selectFrom('experiences')
      .select(['id', 'host_id', 'start_at', 'canceled_at'])
      .where('id', '=', job.experience_id)
      .executeTakeFirst()
    if (!experience || experience.canceled_at || !experience.start_at) return { outcome: 'dropped' as const, reminded: [] }
    if (experience.start_at.getTime() !== new Date(job.start_at).getTime()) return { outcome: 'rescheduled' as const, reminded: [] }
    if (experience.start_at.getTime() <= Date.now()) return { outcome: 'dropped' as const, reminded: [] }
    // Who holds a seat now (a member who cancelled does not), and the host.
    const attendees = await trx.selectFrom('experience_attendees').select('user_id').where('experience_id', '=', experience.id).execute()
    const people = [...new Set([...attendees.map((a) => a.user_id), ...(experience.host_id ? [experience.host_id] : [])])]
    if (people.length === 0) return { outcome: 'sent' as const, reminded: [] }
    // Exactly once: only the rows this transaction inserts are notified; a concurrent run waits
    // on the same keys and inserts none.
    const inserted = await trx
      .insertInto('experience_reminders')
      .values(people.map((user_id) => ({ experience_id: experience.id, user_id, slot: job.slot, start_at: experience.start_at! })))
      .onConflict((oc) => oc.doNothing())
      .returning('user_id')
      .execute()
    const reminded = inserted.map((row) => row.user_id)
    await notify({ type: 'experience.reminder', to: reminded, data: { experience_id: experience.id, slot: job.slot, start_at: job.start_at } }, trx)
    return { outcome: 'sent' as const, reminded }
  })
}

/**
 * The sweep: queues the reminders of upcoming activities whose jobs were never queued for their
 * current start (activities from before this code, the seed). Idempotent: a second run finds
 * them scheduled. Answers how many jobs it queued.
 */
export async function sweepReminders(db: DB, queue: Pick<JobQueue, 'send'>, batchSize = 2_000) {
  let queued = 0
  for (;;) {
    const count = await db.transaction().execute(async (trx) => {
      const due = await trx
        .selectFrom('experiences as e')
        .leftJoin('experience_reminder_schedules as s', 's.experience_id', 'e.id')
        .select(['e.id', 'e.start_at', 'e.canceled_at'])
        .where('e.canceled_at', 'is', null)
        .where('e.start_at', '>', sql<Date>`now() + interval '2 hours'`)
        .where((eb) => eb.or([eb('s.start_at', 'is', null), eb('s.start_at', '!=', eb.ref('e.start_at'))]))
        .limit(batchSize)
        .execute()
      queued += await scheduleRemindersBulk(trx, queue, due)
      return due.length
    })
    if (count < batchSize) return queued
  }
}

/** Where an activity was before a change: what its `experience.changed` email shows as "before". */
export interface PlaceBefore {
  venue_type: Experience['venue_type']
  formatted_address: string | null
  city: string | null
  region: string | null
  url: string | null
}

/** `experience.changed`'s data, with what the activity was before (the email shows old → new). */
export type ChangedData = NotificationData['experience.changed'] & { before: { start_at: string | null } & PlaceBefore }

type Changeable = Pick<Experience, 'id' | 'start_at' | 'canceled_at' | keyof PlaceBefore | 'place_id'>

/** What a change of `before` into `after` changed that attendees must hear of: the time, the place. */
export function changesOf(before: Changeable, after: Changeable) {
  const changes: ('time' | 'place')[] = []
  if (before.start_at?.getTime() !== after.start_at?.getTime()) changes.push('time')
  const placeKeys = ['venue_type', 'formatted_address', 'place_id', 'url'] as const
  if (placeKeys.some((key) => before[key] !== after[key])) changes.push('place')
  return changes
}

/**
 * Tells the attendees of an upcoming activity (never `actorId`, who made the change) that its time
 * or place changed (issue 15 §1), in `trx`: the email carries the updated calendar file.
 */
export async function notifyChanges(trx: Trx, notify: Notify, before: Changeable, after: Changeable, actorId: string) {
  const changes = changesOf(before, after)
  if (changes.length === 0 || after.canceled_at || !after.start_at || after.start_at.getTime() <= Date.now()) return []
  const attendees = await trx
    .selectFrom('experience_attendees')
    .select('user_id')
    .where('experience_id', '=', after.id)
    .where('user_id', '!=', actorId)
    .execute()
  const data: ChangedData = {
    experience_id: after.id,
    changes,
    before: {
      start_at: before.start_at?.toISOString() ?? null,
      venue_type: before.venue_type,
      formatted_address: before.formatted_address,
      city: before.city,
      region: before.region,
      url: before.url,
    },
  }
  return notify({ type: 'experience.changed', to: attendees.map((a) => a.user_id), data }, trx)
}

/** One reminder of one activity, due at its slot before the start it was queued for. */
export const remindJob = defineJob({
  name: 'experience.remind',
  payload: remindPayload,
  retryLimit: 5,
  retryDelaySeconds: 10,
  timeoutSeconds: 120,
  async handler(job, { db, notify, logger }: { db: DB; notify: Notify; logger: Logger }) {
    const { outcome, reminded } = await runReminder(db, notify, job)
    logger.debug({ job: 'experience.remind', slot: job.slot, outcome, reminded: reminded.length }, 'Reminder job ran')
  },
})
export const REMIND_JOB = remindJob.name

/** Queues the reminders of activities that had none; every 15 minutes, and once when an instance starts. */
export const remindSweepJob = defineJob({
  name: 'experience.remind-sweep',
  payload: z.object({}),
  schedule: { cron: '*/15 * * * *', atStart: true },
  retryLimit: 2,
  async handler(_, { db, jobs, logger }: { db: DB; jobs: Pick<JobQueue, 'send'>; logger: Logger }) {
    const queued = await sweepReminders(db, jobs)
    if (queued > 0) logger.info({ job: 'experience.remind-sweep', queued }, 'Reminders queued for activities that had none')
  },
})
