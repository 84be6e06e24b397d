import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatZonedDateTime } from '#contract/zoned-time.ts'
import { createDatabase } from '#api/db/database.ts'
import type { NewExperience, NewUser, User } from '#api/db/schema.ts'
import { TEST_PUBLIC_URL, testDeliveryDeps, createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { deliverNotification } from '../notifications/delivery.ts'
import { NOTIFICATION_DELIVERY_JOB } from '../notifications/service.ts'

/**
 * Issue 12 §3 (decision 019): adding people by email seated them without asking. Now each member
 * found gets an invitation, emailed once in their language, and takes a seat only by accepting it,
 * under the rules of attending; only the invited member can answer it.
 */
let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  // A pool wide enough for the concurrent accepts below to run at the same time.
  api = await createApiHarness(createDatabase(database.url, { max: 12 }).db)
})

afterAll(async () => {
  await api?.db.destroy()
  await database?.drop()
})

async function member(overrides: Partial<NewUser> = {}) {
  const user = await createUser(database.db, overrides)
  return { user, token: await api.signToken(user.id) }
}
type Member = Awaited<ReturnType<typeof member>>

async function activity(host: Member, overrides: Partial<NewExperience> = {}) {
  return createExperience(database.db, host.user.id, overrides)
}

function invite(experienceId: string, by: Member, emails: (string | null)[]) {
  return api.request('POST', `v1/experiences/${experienceId}/attendees/create-by-emails`, { token: by.token, body: { emails } })
}
const accept = (experienceId: string, by: Member) => api.request('POST', `v1/experiences/${experienceId}/invitations/accept`, { token: by.token })
const decline = (experienceId: string, by: Member) => api.request('POST', `v1/experiences/${experienceId}/invitations/decline`, { token: by.token })
/** The activity as `by` reads it (its `viewer` says whether they hold an invitation). */
async function read(experienceId: string, by: Member) {
  const answer = await api.request('GET', `v1/experiences/${experienceId}`, { token: by.token })
  return (answer.json as { data: [Record<string, any>] }).data[0]
}

/** Runs the delivery job for every notification queued since `from`, twice (a retried job). */
async function deliverFrom(from: number) {
  const ids = api.queuedJobs
    .slice(from)
    .filter((job) => job.name === NOTIFICATION_DELIVERY_JOB)
    .map((job) => (job.data as { id: string }).id)
  const deps = testDeliveryDeps(database.db)
  for (const id of [...ids, ...ids]) await deliverNotification(deps, id)
  return ids
}
const outboxFor = (user: Pick<User, 'email'>) =>
  database.db.selectFrom('email_outbox').selectAll().where('to_address', '=', user.email!).orderBy('created_at').execute()
const seatOf = (experienceId: string, userId: string) =>
  database.db.selectFrom('experience_attendees').select('user_id').where('experience_id', '=', experienceId).where('user_id', '=', userId).executeTakeFirst()

describe('inviting by email', () => {
  it('emails the member once, in their language: who invited them, when, where, and the link to answer', async () => {
    const host = await member({ first_name: 'Harold', last_name: 'Stone' })
    const guest = await member({ locale: 'fr', first_name: 'Odile' })
    const experience = await activity(host, { title: 'Atelier aquarelle', formatted_address: '120 Main St' })
    const from = api.queuedJobs.length
    const answer = await invite(experience.id, host, [guest.user.email])
    expect(answer.json.data[0]).toEqual({ invited_if_member: [guest.user.email], full: [] })
    // Not seated: an invitation waits for the answer, and the page can say so with no other request.
    expect(await seatOf(experience.id, guest.user.id)).toBeUndefined()
    const seen = await read(experience.id, guest)
    expect(seen).toMatchObject({ attendees_count: 0, viewer: { is_attending: false, invitation: { by: { role: 'host', display_name: 'Harold S.' } } } })
    expect(Date.parse(seen.viewer.invitation.at)).toBeGreaterThan(Date.now() - 60_000)
    expect((await read(experience.id, host)).viewer.invitation).toBeNull()

    expect(await deliverFrom(from)).toHaveLength(1)
    const emails = await outboxFor(guest.user)
    expect(emails).toHaveLength(1)
    const [email] = emails
    expect(email).toMatchObject({ locale: 'fr', kind: 'experienceInvited', subject: 'Harold S. vous invite à Atelier aquarelle' })
    expect(email!.text_body).toContain('Bonjour Odile,')
    expect(email!.text_body).toContain('Harold S. vous invite à Atelier aquarelle.')
    expect(email!.text_body).toContain(`Quand : ${formatZonedDateTime(experience.start_at!, 'America/Los_Angeles', 'fr')}`)
    expect(email!.text_body).toContain('Où\u00a0: 120 Main St, Portland, OR')
    expect(email!.text_body).toContain('que si vous acceptez')
    expect(email!.text_body).toContain(`accepter ou refuser l'invitation :\n${TEST_PUBLIC_URL}/activities/${experience.id}`)
    expect(await outboxFor(host.user)).toEqual([])
  })

  it('inviting again a member who has not answered adds no invitation and sends no second email', async () => {
    const host = await member()
    const guest = await member()
    const experience = await activity(host)
    const from = api.queuedJobs.length
    expect((await invite(experience.id, host, [guest.user.email])).json.data[0].invited_if_member).toEqual([guest.user.email])
    expect((await invite(experience.id, host, [guest.user.email, guest.user.email])).json.data[0].invited_if_member).toEqual([guest.user.email])
    await deliverFrom(from)
    expect(await outboxFor(guest.user)).toHaveLength(1)
    const rows = await database.db.selectFrom('experience_invitations').select('user_id').where('experience_id', '=', experience.id).execute()
    expect(rows).toHaveLength(1)
  })

  it('says the Circle 55 team invited them when an admin did, never the admin’s name', async () => {
    const host = await member()
    const admin = await member({ staff_role: 'admin', first_name: 'Alice', last_name: 'Admin' })
    const guest = await member({ locale: 'nl' })
    const experience = await activity(host, { title: 'Koffie', venue_type: 'online', url: 'https://meet.example.com/koffie' })
    const from = api.queuedJobs.length
    await invite(experience.id, admin, [guest.user.email])
    expect((await read(experience.id, guest)).viewer.invitation.by).toEqual({ role: 'team', display_name: null })
    await deliverFrom(from)
    const [email] = await outboxFor(guest.user)
    expect(email).toMatchObject({ locale: 'nl', subject: 'Het team van Circle 55 nodigt u uit voor Koffie' })
    expect(email!.text_body).toContain('Waar: Online')
    expect(email!.text_body).not.toContain('Alice')
  })

  it('sends nothing when the member answered before the job ran', async () => {
    const host = await member()
    const guest = await member()
    const experience = await activity(host)
    const from = api.queuedJobs.length
    await invite(experience.id, host, [guest.user.email])
    expect((await decline(experience.id, guest)).status).toBe(204)
    await deliverFrom(from)
    expect(await outboxFor(guest.user)).toEqual([])
  })

  it('a full activity invites nobody and tells no address apart from another', async () => {
    const host = await member()
    const guest = await member()
    const experience = await activity(host, { max_attendees: 1, attendees_count: 1 })
    const emails = [guest.user.email, 'nobody@example.com']
    expect((await invite(experience.id, host, emails)).json.data[0]).toEqual({ invited_if_member: [], full: emails })
  })

  it('counts every address typed against a day’s allowance per member; over it, nothing is sent', async () => {
    const host = await member()
    const guest = await member()
    const experience = await activity(host)
    const strangers = (from: number) => Array.from({ length: 50 }, (_, index) => `stranger${from + index}@example.com`)
    for (const from of [0, 50, 100, 150]) expect((await invite(experience.id, host, strangers(from))).status).toBe(200)
    const refused = await invite(experience.id, host, [guest.user.email])
    expect(refused.status).toBe(429)
    expect(refused.json.error).toMatchObject({ code: 'too_many_invitations', message: expect.stringContaining('200 addresses a day') })
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(23 * 60 * 60)
    expect(await database.db.selectFrom('experience_invitations').select('user_id').where('experience_id', '=', experience.id).execute()).toEqual([])
    // Another member's allowance is their own.
    const other = await member()
    expect((await invite((await activity(other)).id, other, [guest.user.email])).json.data[0].invited_if_member).toEqual([guest.user.email])
  })

  it('answers the same for a member, a member already going, a suspended or deleted one and an address nobody has: the host learns nobody’s membership (issue 29 §5)', async () => {
    const host = await member()
    const guest = await member()
    const going = await member()
    const suspended = await member({ is_suspended: true })
    const deleted = await member({ state: 'deleted' })
    const experience = await activity(host)
    expect((await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: going.token, body: { user_id: going.user.id } })).status).toBe(200)
    const answers = []
    for (const email of [guest.user.email, going.user.email, suspended.user.email, deleted.user.email, 'nobody@example.com'].map(String)) {
      const answer = await invite(experience.id, host, [email])
      answers.push({ status: answer.status, body: JSON.stringify(answer.json).replace(email, '<address>') })
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toEqual(new Set([JSON.stringify({ status: 200, body: '{"data":[{"invited_if_member":["<address>"],"full":[]}]}' })]))
    // Only the member who may be invited and is not going yet was.
    const rows = await database.db.selectFrom('experience_invitations').select('user_id').where('experience_id', '=', experience.id).execute()
    expect(rows.map((row) => row.user_id)).toEqual([guest.user.id])
  })
})

describe('accepting', () => {
  it('seats the invited member, once, and the invitation is answered', async () => {
    const host = await member()
    const guest = await member()
    const experience = await activity(host, { max_attendees: 3 })
    await invite(experience.id, host, [guest.user.email])
    const accepted = await accept(experience.id, guest)
    expect(accepted.status).toBe(200)
    expect(accepted.json.data[0]).toMatchObject({ attendees_count: 1, viewer: { is_attending: true, invitation: null } })
    expect((await accept(experience.id, guest)).json.data[0].attendees_count).toBe(1)
    const row = await database.db.selectFrom('experience_invitations').selectAll().where('experience_id', '=', experience.id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ state: 'accepted', answered_at: expect.any(Date) })
    // Invited again after accepting: already going, told as any address is, and not asked again.
    const from = api.queuedJobs.length
    expect((await invite(experience.id, host, [guest.user.email])).json.data[0].invited_if_member).toEqual([guest.user.email])
    expect(api.queuedJobs.slice(from)).toEqual([])
  })

  it('full: says so, offers the notify list and keeps the invitation open', async () => {
    const host = await member()
    const guest = await member()
    const other = await member()
    const experience = await activity(host, { max_attendees: 1 })
    await invite(experience.id, host, [guest.user.email])
    expect((await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: other.token, body: { user_id: other.user.id } })).status).toBe(200)
    const refused = await accept(experience.id, guest)
    expect(refused.status).toBe(409)
    expect(refused.json.error).toMatchObject({ code: 'experience_full', message: expect.stringContaining('notify list') })
    expect(await seatOf(experience.id, guest.user.id)).toBeUndefined()
    expect((await read(experience.id, guest)).viewer).toMatchObject({ can_join_waitlist: true, invitation: { by: { role: 'host' } } })
  })

  it('seats exactly one of two invited members racing for the last seat', async () => {
    const host = await member()
    const guests = await Promise.all([member(), member(), member(), member()])
    const experience = await activity(host, { max_attendees: 1 })
    await invite(experience.id, host, guests.map((guest) => guest.user.email))
    const answers = await Promise.all(guests.map((guest) => accept(experience.id, guest)))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409])
    const stored = await database.db.selectFrom('experiences').select('attendees_count').where('id', '=', experience.id).executeTakeFirstOrThrow()
    expect(stored.attendees_count).toBe(1)
  })

  it('a declined invitation cannot be accepted', async () => {
    const host = await member()
    const guest = await member()
    const experience = await activity(host)
    await invite(experience.id, host, [guest.user.email])
    expect((await decline(experience.id, guest)).status).toBe(204)
    expect((await decline(experience.id, guest)).status).toBe(204)
    expect((await read(experience.id, guest)).viewer.invitation).toBeNull()
    const refused = await accept(experience.id, guest)
    expect(refused.status).toBe(409)
    expect(refused.json.error.code).toBe('invitation_declined')
    expect(await seatOf(experience.id, guest.user.id)).toBeUndefined()
    // Invited again: still declined, not asked again.
    const from = api.queuedJobs.length
    expect((await invite(experience.id, host, [guest.user.email])).json.data[0].invited_if_member).toEqual([guest.user.email])
    expect(api.queuedJobs.slice(from)).toEqual([])
    expect((await read(experience.id, guest)).viewer.invitation).toBeNull()
  })

  it('an accepted invitation cannot be declined: the seat is cancelled instead', async () => {
    const host = await member()
    const guest = await member()
    const experience = await activity(host)
    await invite(experience.id, host, [guest.user.email])
    await accept(experience.id, guest)
    const refused = await decline(experience.id, guest)
    expect(refused.status).toBe(409)
    expect(refused.json.error.code).toBe('invitation_accepted')
  })

  it('an invitation expires with its activity: started or cancelled, it cannot be accepted', async () => {
    const host = await member()
    const guest = await member()
    const started = await activity(host)
    const cancelled = await activity(host)
    await invite(started.id, host, [guest.user.email])
    await invite(cancelled.id, host, [guest.user.email])
    await database.db.updateTable('experiences').set({ start_at: new Date(Date.now() - 60_000) }).where('id', '=', started.id).execute()
    expect((await api.request('DELETE', `v1/experiences/${cancelled.id}`, { token: host.token })).status).toBe(204)
    expect((await read(started.id, guest)).viewer.invitation).toBeNull()
    expect((await accept(started.id, guest)).json.error.code).toBe('experience_past')
    expect((await accept(cancelled.id, guest)).json.error.code).toBe('experience_canceled')
    expect(await seatOf(started.id, guest.user.id)).toBeUndefined()
    expect(await seatOf(cancelled.id, guest.user.id)).toBeUndefined()
  })

  it('only the invited member can answer: another member, the host and an admin hold no invitation (404)', async () => {
    const host = await member()
    const guest = await member()
    const other = await member()
    const admin = await member({ staff_role: 'admin' })
    const experience = await activity(host)
    await invite(experience.id, host, [guest.user.email])
    for (const caller of [other, host, admin]) {
      for (const answer of [accept, decline]) {
        const refused = await answer(experience.id, caller)
        expect(refused.status).toBe(404)
        expect(refused.json.error.code).toBe('not_found')
      }
      expect((await read(experience.id, caller)).viewer.invitation).toBeNull()
    }
    expect((await api.request('POST', `v1/experiences/${experience.id}/invitations/accept`)).status).toBe(401)
    expect(await seatOf(experience.id, other.user.id)).toBeUndefined()
    expect((await read(experience.id, guest)).viewer.invitation).not.toBeNull()
  })

  it('taking a seat another way answers the invitation', async () => {
    const host = await member()
    const guest = await member()
    const experience = await activity(host)
    await invite(experience.id, host, [guest.user.email])
    await api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: guest.token, body: { user_id: guest.user.id } })
    await api.request('DELETE', `v1/experiences/${experience.id}/attendees/${guest.user.id}`, { token: guest.token })
    // Having gone and then cancelled, the member is not shown the old invitation again.
    expect((await read(experience.id, guest)).viewer.invitation).toBeNull()
  })
})
