import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExperienceInput } from '#contract/experiences.ts'
import { createApiHarness, createUser, TEST_PUBLIC_URL, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { ApiError } from '../api.server.ts'
import { createApi, type Api } from './clients.server.ts'

/**
 * Decision 015: the resource clients are the web app's only way to the API. Against the real
 * API (in-process, real database) every call answers something its contract schema accepts;
 * against an API that answers off-contract, every call fails with the §8 Parse Error instead of
 * handing a route unchecked JSON.
 */
let database: TestDatabase
let harness: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  harness = await createApiHarness(database.db)
})

afterAll(async () => {
  await database?.drop()
})

function clientFor(token: string | null, apiFetch: (request: Request) => Promise<Response> = async (request) => harness.app.fetch(request)) {
  return createApi({ apiFetch, baseUrl: `${TEST_PUBLIC_URL}/api/`, getToken: async () => token, language: () => 'en', requestId: 'clients-test' })
}

async function signedIn(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(database.db, overrides)
  return { user, api: clientFor(await harness.signToken(user.id)) }
}

function inDays(days: number) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
}

const activity = (overrides: Partial<ExperienceInput> = {}): ExperienceInput => ({
  title: 'Morning walk by the river',
  description: 'A gentle walk.',
  venue_type: 'in_person',
  place_id: 'us-or-portland',
  formatted_address: '1000 SW Broadway, Portland, OR 97205',
  url: null,
  start_date: inDays(10),
  start_time: '09:30',
  duration_minutes: 90,
  max_attendees: 1,
  ticket_url: null,
  no_show_fee: '5.00',
  ...overrides,
})

describe('the resource clients against the real API', () => {
  it('write and read activities, seats, the notify list and their files', async () => {
    const host = await signedIn()
    const member = await signedIn()
    const waiting = await signedIn()
    const created = await host.api.experiences.create(activity())
    expect(created).toMatchObject({ title: 'Morning walk by the river', max_attendees: 1, viewer: { is_host: true } })
    // Without the fee: saving a seat at one needs a card (the fees tests, api/fees/fees.test.ts).
    const updated = await host.api.experiences.update(created.id, activity({ title: 'Evening walk by the river', no_show_fee: null }))
    expect(updated.title).toBe('Evening walk by the river')
    expect((await member.api.experiences.get(created.slug)).id).toBe(created.id)

    expect(await member.api.experiences.attend(created.id, member.user.id)).toMatchObject({ attendees_count: 1, viewer: { is_attending: true } })
    expect(await waiting.api.experiences.joinWaitlist(created.id)).toMatchObject({ viewer: { waitlist_position: 1 } })
    expect((await host.api.experiences.waitlist(created.id)).data).toEqual([expect.objectContaining({ user_id: waiting.user.id, position: 1 })])
    await expect(waiting.api.experiences.leaveWaitlist(created.id)).resolves.toBeUndefined()
    const attendees = await host.api.experiences.attendees(created.id, { page: 1, perPage: 50 })
    expect(attendees.data.map((attendee) => attendee.id)).toEqual([member.user.id])
    expect(attendees.metadata.page).toBe(1)
    expect(await host.api.experiences.attendeesCsv(created.id)).toContain('\r\n')
    expect(await member.api.experiences.calendar(created.id)).toContain('BEGIN:VCALENDAR')

    const cancelled = await member.api.experiences.cancelAttendance(created.id, member.user.id)
    expect(cancelled).toMatchObject({ experience: { attendees_count: 0 }, lateCancellation: false })
    const invited = await host.api.experiences.inviteByEmail(created.id, [String(member.user.email), 'nobody@example.com'])
    expect(invited).toEqual({ invited_if_member: [member.user.email, 'nobody@example.com'], full: [] })
    expect((await member.api.experiences.get(created.id)).viewer?.invitation).toMatchObject({ by: { role: 'host' } })
    await expect(member.api.experiences.declineInvitation(created.id)).resolves.toBeUndefined()
    await expect(member.api.experiences.acceptInvitation(created.id)).rejects.toMatchObject({ status: 409, code: 'invitation_declined' })
    await host.api.experiences.inviteByEmail(created.id, [String(waiting.user.email)])
    expect(await waiting.api.experiences.acceptInvitation(created.id)).toMatchObject({ attendees_count: 1, viewer: { is_attending: true, invitation: null } })

    const listed = await member.api.experiences.list({ page: 1, perPage: 50, from: new Date().toISOString(), datedOnly: true })
    expect(listed.data.map((experience) => experience.id)).toContain(created.id)
    const hosting = await host.api.users.experiences(host.user.id, { type: 'upcoming', hosting: true, page: 1 })
    expect(hosting.data.map((experience) => experience.id)).toEqual([created.id])

    expect(await member.api.reports.create({ reason: 'fake_or_scam', details: '', experience_id: created.id })).toEqual({
      id: expect.any(String),
      reason: 'fake_or_scam',
      created_at: expect.any(String),
    })
    await expect(host.api.experiences.cancel(created.id)).resolves.toBeUndefined()
    expect((await host.api.experiences.get(created.id)).canceled_at).not.toBeNull()
  })

  it('upload a cover and copy it for a duplicate', async () => {
    const host = await signedIn()
    const jpeg = await sharp({ create: { width: 1200, height: 600, channels: 3, background: '#36c' } }).jpeg().toBuffer()
    const cover = await host.api.media.upload('experience_cover', new File([new Uint8Array(jpeg)], 'cover.jpg', { type: 'image/jpeg' }))
    const created = await host.api.experiences.create(activity({ cover_photo: cover.id }))
    const copy = await host.api.media.duplicateCover(created.id)
    expect(copy.id).not.toBe(cover.id)
  })

  it('read and change the member, read another member and find places', async () => {
    const member = await signedIn({ first_name: 'Els' })
    expect(await member.api.users.me()).toMatchObject({ id: member.user.id, first_name: 'Els' })
    expect(await member.api.users.updateMe({ first_name: 'Elsje', locale: 'nl' })).toMatchObject({ first_name: 'Elsje', locale: 'nl' })
    expect(await clientFor(null).users.profile(member.user.slug)).toEqual({ id: member.user.id, slug: member.user.slug, display_name: expect.any(String) })
    const found = await member.api.places.search('Portland', 6)
    expect(found.map((place) => place.id)).toContain('us-or-portland')
    expect((await member.api.places.get('us-or-portland')).label).toBe('Portland, OR')
    expect((await member.api.places.nearest({ latitude: 45.52, longitude: -122.68 }))?.id).toBe('us-or-portland')
    await expect(member.api.users.delete(member.user.id)).resolves.toBeUndefined()
  })

  it('read profiles: interests, prompts and the catalogue', async () => {
    const member = await signedIn()
    const reader = await signedIn()
    await member.api.users.updateMe({ interests: ['chess', 'walking'], prompts: [{ prompt: 'ask_me_about', answer: 'Chess openings.' }] })
    expect(await reader.api.profiles.interests(member.user.slug)).toEqual([
      { key: 'chess', group: 'games', name: 'Chess' },
      { key: 'walking', group: 'outdoors', name: 'Walking' },
    ])
    expect(await reader.api.profiles.prompts(member.user.id)).toEqual([{ prompt: 'ask_me_about', question: 'Ask me about…', answer: 'Chess openings.' }])
    expect(await member.api.profiles.myInterests()).toHaveLength(2)
    expect(await member.api.profiles.myPrompts()).toHaveLength(1)
    expect((await member.api.profiles.catalogue()).prompts[0]).toEqual({ key: 'perfect_sunday', question: 'A perfect Sunday for me is…' })
  })

  it('open, write, read, accept and leave conversations; ask whether a member can be messaged', async () => {
    const sender = await signedIn()
    const recipient = await signedIn()
    expect(await sender.api.blocks.reachability(recipient.user.id)).toEqual({ can_message: true })
    const channel = await sender.api.chat.openDirect(recipient.user.id)
    expect(channel).toMatchObject({ kind: 'direct', is_awaiting_acceptance: true, other_member: { id: recipient.user.id } })
    const message = await sender.api.chat.send(channel.id, 'Hello there')
    expect(message).toMatchObject({ channel_id: channel.id, body: 'Hello there', is_system: false })
    const list = await recipient.api.chat.list({ page: 1, perPage: 1 })
    expect(list.metadata.total_unread).toBe(1)
    expect(list.data[0]).toMatchObject({ id: channel.id, is_accepted: false, unread_count: 1 })
    expect(await recipient.api.chat.accept(channel.id)).toMatchObject({ is_accepted: true })
    await expect(recipient.api.chat.markRead(channel.id)).resolves.toBeUndefined()
    expect(await recipient.api.chat.channel(channel.id)).toMatchObject({ unread_count: 0, messages: [{ id: message.id }], older_cursor: null })
    await expect(recipient.api.chat.leave(channel.id)).resolves.toBeUndefined()
    expect((await recipient.api.chat.list()).data).toEqual([])
  })

  it('send the member’s token, or the one given right after sign-in', async () => {
    const member = await createUser(database.db)
    const anonymous = clientFor(null)
    await expect(anonymous.users.me()).rejects.toMatchObject({ status: 401, message: 'Unauthorized' })
    expect((await anonymous.users.me({ token: await harness.signToken(member.id) })).id).toBe(member.id)
  })
})

describe('the resource clients against an API that answers off-contract', () => {
  const answering = (response: () => Response) => clientFor('token', async () => response())
  const parseError = { message: 'Parse Error', code: 'parse_error' }

  it('refuse a body that does not match the schema (§8 Parse Error), never hand it on', async () => {
    const wrongShape = answering(() => Response.json({ data: [{ id: 1, title: null }] }))
    await expect(wrongShape.experiences.get('x')).rejects.toMatchObject(parseError)
    await expect(wrongShape.users.me()).rejects.toMatchObject(parseError)
    await expect(wrongShape.reports.create({ reason: 'fake_or_scam', details: '', experience_id: 'x' })).rejects.toMatchObject(parseError)
    const notAPage = answering(() => Response.json({ data: [] }))
    await expect(notAPage.experiences.list({ page: 1, perPage: 6, from: '2030-01-01T00:00:00Z' })).rejects.toMatchObject(parseError)
    await expect(answering(() => new Response('<html>', { status: 200 })).places.search('Portland', 6)).rejects.toMatchObject(parseError)
  })

  it('refuse a one-item answer with no item or several', async () => {
    await expect(answering(() => Response.json({ data: [] })).places.get('us-or-portland')).rejects.toMatchObject(parseError)
    const place = { id: 'p', name: 'P', state: 'OR', label: 'P, OR', latitude: 1, longitude: 2, timeZone: 'UTC' }
    await expect(answering(() => Response.json({ data: [place, place] })).places.get('p')).rejects.toMatchObject(parseError)
  })

  it('refuse a body where the contract says 204, and a file of another type', async () => {
    await expect(answering(() => Response.json({ data: [] })).experiences.cancel('x')).rejects.toMatchObject(parseError)
    await expect(answering(() => Response.json({ data: [] })).experiences.calendar('x')).rejects.toMatchObject(parseError)
  })

  it('still read error answers as §8 errors with their code and fields', async () => {
    const refused = answering(() => Response.json({ error: { code: 'experience_full', message: 'Full' } }, { status: 409 }))
    const error = await refused.experiences.attend('x', 'y').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 409, message: 'Conflict', code: 'experience_full' })
  })
})

describe('the resource clients’ requests', () => {
  it('put ids into paths encoded, and the search into the query the API reads', async () => {
    const sent: Request[] = []
    const api: Api = clientFor('token', async (request) => {
      sent.push(request)
      return new Response(null, { status: 204 })
    })
    await api.experiences.leaveWaitlist('a/b?c')
    await api.users.delete('../users/me')
    await api.experiences.list({ page: 2, perPage: 12, from: 'F', until: 'U', datedOnly: true, near: { latitude: 1, longitude: 2, miles: 25 } }).catch(() => null)
    expect(sent.map((request) => `${request.method} ${request.url}`)).toEqual([
      `DELETE ${TEST_PUBLIC_URL}/api/v1/experiences/a%2Fb%3Fc/waitlist`,
      `DELETE ${TEST_PUBLIC_URL}/api/v1/users/..%2Fusers%2Fme`,
      `GET ${TEST_PUBLIC_URL}/api/v1/experiences?page=2&per_page=12&start_date%5Bgte%5D=F&start_date%5Blte%5D=U&start_date%5Bnot%5D=null&distance%5Blte%5D=25&latitude=1&longitude=2`,
    ])
  })
})
