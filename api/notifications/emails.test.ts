import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEST_PUBLIC_URL, testDeliveryDeps, createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { formatZonedDateTime } from '#contract/zoned-time.ts'
import type { NewUser, User } from '../db/schema.ts'
import { createMailer } from '../providers/email/mailer.ts'
import { deliverNotification } from './delivery.ts'
import { NOTIFICATION_DELIVERY_JOB } from './service.ts'

/**
 * Issue 12 §2: the pages promise "we will tell you if a seat frees up", "everyone going has been
 * told", "we let them know right away". Each event, caused through the API, is delivered by the
 * notification job as one email per member in the outbox, in their language, with the activity
 * and its link at PUBLIC_URL; a retried job adds nothing; a suspended or deleted member and the
 * member who acted get none (decision 018).
 */
let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
})

afterAll(async () => {
  await database?.drop()
})

const mailer = () => createMailer({ db: database.db })
const deps = () => testDeliveryDeps(database.db, { mailer: mailer() })

/** Runs the delivery job for every notification queued since `from` (an index in queuedJobs). */
async function runDeliveries(from: number) {
  const ids = api.queuedJobs
    .slice(from)
    .filter((job) => job.name === NOTIFICATION_DELIVERY_JOB)
    .map((job) => (job.data as { id: string }).id)
  for (const id of ids) await deliverNotification(deps(), id)
  return ids
}

const outboxFor = (user: Pick<User, 'email'>) =>
  database.db.selectFrom('email_outbox').selectAll().where('to_address', '=', user.email!).orderBy('created_at').execute()

async function member(overrides: Partial<NewUser> = {}) {
  const user = await createUser(database.db, overrides)
  return { user, token: await api.signToken(user.id) }
}

const link = (experienceId: string) => `${TEST_PUBLIC_URL}/activities/${experienceId}`

describe('a seat given from the notify list (waitlist.selected)', () => {
  it('emails the member who got it, in French, with the activity, its time there, the fee and the link; once', async () => {
    const host = await member({ first_name: 'Harold', last_name: 'Stone' })
    const going = await member()
    const waiting = await member({ locale: 'fr', first_name: 'Odile' })
    const experience = await createExperience(database.db, host.user.id, { title: 'Promenade au bord du fleuve', max_attendees: 1, no_show_fee_cents: 1400 })
    // The seat was given by the team (no card, no agreement to the fee needed).
    const admin = await member({ staff_role: 'admin' })
    expect((await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: admin.token, body: { user_id: going.user.id } })).status).toBe(200)
    expect((await api.request('POST', `v1/experiences/${experience.id}/waitlist`, { token: waiting.token })).status).toBe(200)
    const from = api.queuedJobs.length
    // Five days ahead: the first on the notify list is seated at once.
    expect((await api.request('DELETE', `v1/experiences/${experience.id}/attendees/${going.user.id}`, { token: going.token })).status).toBe(200)
    const ids = await runDeliveries(from)
    // The seat given, and the host told of the one who left and the one seated (decision 047).
    expect(ids).toHaveLength(3)

    const emails = await outboxFor(waiting.user)
    expect(emails).toHaveLength(1)
    const [email] = emails
    expect(email).toMatchObject({ to_address: waiting.user.email, locale: 'fr', kind: 'waitlistSelected', subject: 'Vous avez une place pour Promenade au bord du fleuve' })
    expect(email!.text_body).toContain('Bonjour Odile,')
    expect(email!.text_body).toContain(formatZonedDateTime(experience.start_at!, 'America/Los_Angeles', 'fr'))
    expect(email!.text_body).toContain('moins de 12 heures')
    expect(email!.text_body).toMatch(/14\s\$US/)
    // Decision 075: a seat given from the notify list is never bound by the fee; the email says so.
    expect(email!.text_body).toContain("l'organisateur est prévenu que vous ne pouvez pas venir")
    expect(email!.text_body).toContain('mais ils ne s’appliquent pas à cette place : vous ne les avez pas acceptés')
    expect(email!.text_body).toContain(link(experience.id))
    // The member who cancelled (their own action) hears nothing; the host hears who left and who came.
    expect(await outboxFor(going.user)).toEqual([])
    expect((await outboxFor(host.user)).map((email) => email.kind)).toEqual(['experience.attendee_left', 'experience.attendee_joined'])

    // A retried job (the same notification delivered again) queues nothing more.
    await runDeliveries(from)
    expect(await outboxFor(waiting.user)).toHaveLength(1)
  })

  it('says nothing of a fee when the activity has none', async () => {
    const host = await member()
    const going = await member()
    const waiting = await member()
    const experience = await createExperience(database.db, host.user.id, { max_attendees: 1 })
    await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: going.token, body: { user_id: going.user.id } })
    await api.request('POST', `v1/experiences/${experience.id}/waitlist`, { token: waiting.token })
    const from = api.queuedJobs.length
    await api.request('DELETE', `v1/experiences/${experience.id}/attendees/${going.user.id}`, { token: going.token })
    await runDeliveries(from)
    const [email] = await outboxFor(waiting.user)
    expect(email).toMatchObject({ locale: 'en', subject: 'You have a seat at Riverside walk' })
    expect(email!.text_body).toContain('When: ' + formatZonedDateTime(experience.start_at!, 'America/Los_Angeles', 'en'))
    expect(email!.text_body).not.toContain('no-show fee')
    expect(email!.text_body).toContain(link(experience.id))
  })
})

describe('a seat free within 24 hours (waitlist.seat_available)', () => {
  it('emails everyone on the notify list in their language, and nobody suspended or deleted since', async () => {
    const host = await member()
    const going = await member()
    const ann = await member({ locale: 'en' })
    const nel = await member({ locale: 'nl', first_name: 'Nel' })
    const sam = await member()
    const dora = await member()
    const start = new Date(Date.now() + 10 * 3_600_000)
    const experience = await createExperience(database.db, host.user.id, { title: 'Koffie in het park', max_attendees: 1, start_at: start })
    await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: going.token, body: { user_id: going.user.id } })
    for (const waiting of [ann, nel, sam, dora]) {
      expect((await api.request('POST', `v1/experiences/${experience.id}/waitlist`, { token: waiting.token })).status).toBe(200)
    }
    const from = api.queuedJobs.length
    expect((await api.request('DELETE', `v1/experiences/${experience.id}/attendees/${going.user.id}`, { token: going.token })).status).toBe(200)
    // Suspended and deleted after they were told, before the job ran.
    await database.db.updateTable('users').set({ is_suspended: true }).where('id', '=', sam.user.id).execute()
    await database.db.updateTable('users').set({ state: 'deleted', deleted_at: new Date() }).where('id', '=', dora.user.id).execute()
    // The four on the notify list, and the host told of the one who left (decision 047).
    expect(await runDeliveries(from)).toHaveLength(5)

    const [toAnn] = await outboxFor(ann.user)
    expect(toAnn).toMatchObject({ locale: 'en', kind: 'waitlistSeatAvailable', subject: 'A seat is free at Koffie in het park' })
    expect(toAnn!.text_body).toContain('the first person to take it gets it')
    expect(toAnn!.text_body).toContain(link(experience.id))
    const toNel = await outboxFor(nel.user)
    expect(toNel).toHaveLength(1)
    expect(toNel[0]).toMatchObject({ locale: 'nl', subject: 'Er is een plek vrij bij Koffie in het park' })
    expect(toNel[0]!.text_body).toContain('Beste Nel,')
    expect(toNel[0]!.text_body).toContain(formatZonedDateTime(start, 'America/Los_Angeles', 'nl'))
    expect(toNel[0]!.text_body).toContain(link(experience.id))
    expect(await outboxFor(sam.user)).toEqual([])
    expect(await outboxFor(dora.user)).toEqual([])
    expect(await outboxFor(going.user)).toEqual([])

    await runDeliveries(from)
    expect(await outboxFor(ann.user)).toHaveLength(1)
    expect(await outboxFor(nel.user)).toHaveLength(1)
  })
})

describe('an activity cancelled by its host (experience.canceled)', () => {
  it('emails everyone going, in their language, saying which activity, when it was and who cancelled it; not the host', async () => {
    const host = await member({ first_name: 'Harold', last_name: 'Stone' })
    const ann = await member()
    const nel = await member({ locale: 'nl' })
    const experience = await createExperience(database.db, host.user.id, { title: 'Book club' })
    for (const going of [ann, nel, host]) {
      expect((await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: going.token, body: { user_id: going.user.id } })).status).toBe(200)
    }
    const from = api.queuedJobs.length
    expect((await api.request('DELETE', `v1/experiences/${experience.id}`, { token: host.token })).status).toBe(204)
    await runDeliveries(from)

    const [toAnn] = await outboxFor(ann.user)
    expect(toAnn).toMatchObject({ locale: 'en', kind: 'experienceCanceled', subject: 'Canceled: Book club' })
    expect(toAnn!.text_body).toContain('Harold S., the host, has canceled Book club.')
    expect(toAnn!.text_body).toContain(`It was planned for ${formatZonedDateTime(experience.start_at!, 'America/Los_Angeles', 'en')}.`)
    expect(toAnn!.text_body).toContain(link(experience.id))
    // A calendar file that takes the event out of the member's calendar (same UID, METHOD:CANCEL).
    const [calendar] = toAnn!.attachments!
    expect(calendar).toMatchObject({ filename: `${experience.slug}.ics`, content_type: 'text/calendar; method=CANCEL; charset=UTF-8' })
    const ics = Buffer.from(calendar!.content, 'base64').toString()
    expect(ics).toContain('METHOD:CANCEL')
    expect(ics).toContain('STATUS:CANCELLED')
    expect(ics).toContain(`UID:${experience.id}@`)
    const toNel = await outboxFor(nel.user)
    expect(toNel).toHaveLength(1)
    expect(toNel[0]).toMatchObject({ locale: 'nl', subject: 'Geannuleerd: Book club' })
    expect(toNel[0]!.text_body).toContain('Harold S., de organisator, heeft Book club geannuleerd.')
    expect(await outboxFor(host.user)).toEqual([])

    await runDeliveries(from)
    expect(await outboxFor(ann.user)).toHaveLength(1)
  })

  it('says the Circle 55 team cancelled it when an admin did', async () => {
    const host = await member()
    const admin = await member({ staff_role: 'admin' })
    const ann = await member()
    const experience = await createExperience(database.db, host.user.id, { title: 'Chess afternoon' })
    await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: ann.token, body: { user_id: ann.user.id } })
    const from = api.queuedJobs.length
    expect((await api.request('DELETE', `v1/experiences/${experience.id}`, { token: admin.token })).status).toBe(204)
    await runDeliveries(from)
    const [email] = await outboxFor(ann.user)
    expect(email!.text_body).toContain('The Circle 55 team has canceled Chess afternoon.')
  })
})

describe('an invitation from a host (experience.invited)', () => {
  it('emails the member the host’s name, the activity, its date and place and the link to accept or decline', async () => {
    const host = await member({ first_name: 'Harold', last_name: 'Stone' })
    const guest = await member({ locale: 'fr' })
    const experience = await createExperience(database.db, host.user.id, { title: 'Atelier aquarelle' })
    const from = api.queuedJobs.length
    // The host among the addresses: nobody is emailed about their own action.
    const invited = await api.request('POST', `v1/experiences/${experience.id}/attendees/create-by-emails`, {
      token: host.token,
      body: { emails: [guest.user.email, host.user.email] },
    })
    expect(invited.json.data[0].invited_if_member).toEqual([guest.user.email, host.user.email])
    expect(await runDeliveries(from)).toHaveLength(2)
    const [email] = await outboxFor(guest.user)
    expect(email).toMatchObject({ locale: 'fr', kind: 'experienceInvited', subject: 'Harold S. vous invite à Atelier aquarelle' })
    expect(email!.text_body).toContain(formatZonedDateTime(experience.start_at!, 'America/Los_Angeles', 'fr'))
    expect(email!.text_body).toContain('1 SW Naito Pkwy, Portland, OR')
    expect(email!.text_body).toContain('accepter ou refuser')
    expect(email!.text_body).toContain(link(experience.id))
    expect(await outboxFor(host.user)).toEqual([])

    await runDeliveries(from)
    expect(await outboxFor(guest.user)).toHaveLength(1)
  })
})

describe('exactly once', () => {
  it('a delivery that fails queues nothing and stays undelivered; its retry queues one email', async () => {
    const host = await member()
    const ann = await member()
    const experience = await createExperience(database.db, host.user.id, { title: 'Garden tour' })
    await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: ann.token, body: { user_id: ann.user.id } })
    const from = api.queuedJobs.length
    await api.request('DELETE', `v1/experiences/${experience.id}`, { token: host.token })
    const [id] = api.queuedJobs.slice(from).map((job) => (job.data as { id: string }).id)
    // The mail server's job cannot be queued (the queue's database is down): all rolls back.
    let failures = 1
    const flaky = createMailer({
      db: database.db,
      smtp: { url: 'smtp://127.0.0.1:9', from: 'Circle 55 <hello@circle55.example>' },
      queue: {
        async send() {
          if (failures-- > 0) throw new Error('queue unavailable')
        },
      },
    })
    const flakyDeps = testDeliveryDeps(database.db, { mailer: flaky })
    await expect(deliverNotification(flakyDeps, id!)).rejects.toThrow('queue unavailable')
    expect(await outboxFor(ann.user)).toEqual([])
    const stamped = () => database.db.selectFrom('notifications').select('delivered_at').where('id', '=', id!).executeTakeFirstOrThrow()
    expect((await stamped()).delivered_at).toBeNull()
    expect(await deliverNotification(flakyDeps, id!)).toMatchObject({ sent: ['email'] })
    expect(await deliverNotification(flakyDeps, id!)).toBeNull()
    expect(await outboxFor(ann.user)).toHaveLength(1)
    expect((await stamped()).delivered_at).not.toBeNull()
  })

  it('a seat given and already cancelled by the member before the job ran is not announced', async () => {
    const host = await member()
    const going = await member()
    const waiting = await member()
    const experience = await createExperience(database.db, host.user.id, { max_attendees: 1 })
    await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: going.token, body: { user_id: going.user.id } })
    await api.request('POST', `v1/experiences/${experience.id}/waitlist`, { token: waiting.token })
    const from = api.queuedJobs.length
    await api.request('DELETE', `v1/experiences/${experience.id}/attendees/${going.user.id}`, { token: going.token })
    expect((await api.request('DELETE', `v1/experiences/${experience.id}/attendees/${waiting.user.id}`, { token: waiting.token })).status).toBe(200)
    await runDeliveries(from)
    expect(await outboxFor(waiting.user)).toEqual([])
  })
})
