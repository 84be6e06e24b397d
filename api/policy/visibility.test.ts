import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser, User } from '#api/db/schema.ts'
import { createLocalStorage } from '#api/providers/storage/local.ts'
import { createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

/**
 * What the policy's member filters and private-media rule change for a member (decision 012):
 * suspended and banned members are treated as having no user (spec §6), so they are not listed
 * among attendees, cannot be invited by email or seated by an admin; ID verification photos are
 * for their owner and admins only.
 */


let database: TestDatabase
let api: ApiHarness
let mediaDir: string
let host: User
let hostToken: string
let memberToken: string
let adminToken: string

async function member(overrides: Partial<NewUser> = {}) {
  return createUser(database.db, overrides)
}

async function activity(hostId: string) {
  return (await createExperience(database.db, hostId)).id
}

async function seat(experienceId: string, userIds: string[]) {
  await database.db
    .insertInto('experience_attendees')
    .values(userIds.map((user_id) => ({ experience_id: experienceId, user_id })))
    .execute()
  await database.db.updateTable('experiences').set({ attendees_count: userIds.length }).where('id', '=', experienceId).execute()
}

beforeAll(async () => {
  database = await createTestDatabase()
  mediaDir = await mkdtemp(join(tmpdir(), 'circle55-visibility-'))
  api = await createApiHarness(database.db, {}, { media: createLocalStorage(mediaDir) })
  host = await member({ first_name: 'Walter', last_name: 'Brooks' })
  hostToken = await api.signToken(host.id)
  memberToken = await api.signToken((await member()).id)
  adminToken = await api.signToken((await member({ staff_role: 'admin' })).id)
})

afterAll(async () => {
  await database?.drop()
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
})

describe('suspended and banned members', () => {
  it('are not listed among an activity’s attendees, nor counted in the list', async () => {
    const id = await activity(host.id)
    const active = await member({ first_name: 'Margaret', last_name: 'Hughes' })
    const suspended = await member({ is_suspended: true })
    const inSuspendedState = await member({ state: 'suspended' })
    const banned = await member({ banned: true })
    await seat(id, [active.id, suspended.id, inSuspendedState.id, banned.id])

    const response = await api.request('GET', `v1/experiences/${id}/attendees`, { token: memberToken })
    expect(response.status).toBe(200)
    expect(response.json.data.map((attendee: { id: string }) => attendee.id)).toEqual([active.id])
    expect(response.json.metadata.total_count).toBe(1)
  })

  it('are left out of the host’s attendee CSV', async () => {
    const id = await activity(host.id)
    const active = await member({ first_name: 'Margaret', last_name: 'Hughes' })
    const banned = await member({ first_name: 'Boris', last_name: 'Banned', banned: true })
    await seat(id, [active.id, banned.id])

    const response = await api.app.fetch(
      new Request(`${api.env.PUBLIC_URL}/api/v1/experiences/${id}/attendees?format=csv`, {
        headers: { authorization: `Bearer ${hostToken}` },
      }),
    )
    expect(response.status).toBe(200)
    const rows = (await response.text()).trim().split('\r\n')
    // Display names only (decision 019); the banned member is not a row, not even as the generic label.
    expect(rows).toEqual(['name,rsvp_at,attendance', expect.stringMatching(/^Margaret H\.,[^,]+,going$/)])
  })

  it('cannot be invited by email: the host is told the same as for anyone', async () => {
    const id = await activity(host.id)
    const suspended = await member({ is_suspended: true })
    const banned = await member({ banned: true })
    const active = await member()
    const response = await api.request('POST', `v1/experiences/${id}/attendees/create-by-emails`, {
      token: hostToken,
      body: { emails: [suspended.email, banned.email, active.email] },
    })
    expect(response.status).toBe(200)
    expect(response.json.data[0]).toEqual({ invited_if_member: [suspended.email, banned.email, active.email], full: [] })
    const invited = await database.db.selectFrom('experience_invitations').select('user_id').where('experience_id', '=', id).execute()
    expect(invited.map((row) => row.user_id)).toEqual([active.id])
  })

  it('cannot be seated by an admin (404, as for no member)', async () => {
    const id = await activity(host.id)
    const suspended = await member({ is_suspended: true })
    const response = await api.request('POST', `v1/experiences/${id}/attendees`, {
      token: adminToken,
      body: { user_id: suspended.id },
    })
    expect(response.status).toBe(404)
    expect(response.json.error.code).toBe('not_found')
  })
})

describe('the notify list', () => {
  it('skips suspended and banned members: not shown, not counted ahead, not given a freed seat', async () => {
    const id = await activity(host.id)
    await database.db.updateTable('experiences').set({ max_attendees: 1 }).where('id', '=', id).execute()
    const holder = await member()
    await seat(id, [holder.id])
    const suspended = await member({ is_suspended: true })
    const banned = await member({ banned: true })
    const waiting = await member({ first_name: 'Ruth', last_name: 'Owens' })
    const joined = Date.now() - 60_000
    await database.db
      .insertInto('waitlist_entries')
      .values([
        { experience_id: id, user_id: suspended.id, created_at: new Date(joined) },
        { experience_id: id, user_id: banned.id, created_at: new Date(joined + 1000) },
        { experience_id: id, user_id: waiting.id, created_at: new Date(joined + 2000) },
      ])
      .execute()
    const waitingToken = await api.signToken(waiting.id)

    const list = await api.request('GET', `v1/experiences/${id}/waitlist`, { token: hostToken })
    expect(list.json.data).toEqual([expect.objectContaining({ user_id: waiting.id, position: 1 })])
    expect(list.json.metadata.total_count).toBe(1)
    const own = await api.request('GET', `v1/experiences/${id}`, { token: waitingToken })
    expect(own.json.data[0].viewer.waitlist_position).toBe(1)

    // More than 24 h ahead, the freed seat goes straight to the first member on the list.
    const cancelled = await api.request('DELETE', `v1/experiences/${id}/attendees/${holder.id}`, { token: await api.signToken(holder.id) })
    expect(cancelled.status).toBe(200)
    const seated = await database.db.selectFrom('experience_attendees').select('user_id').where('experience_id', '=', id).execute()
    expect(seated.map((row) => row.user_id)).toEqual([waiting.id])
  })
})

describe('an ID verification photo', () => {
  it('is served to its owner and admins only, never to a shared cache', async () => {
    const owner = await member()
    const key = `verification/2026/01/${randomUUID()}.jpg`
    await createLocalStorage(mediaDir).put(key, new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), 'image/jpeg')
    await database.db
      .insertInto('media')
      .values({ owner_id: owner.id, target: 'verification', storage_key: key, thumbnail_key: null, mime_type: 'image/jpeg', width: 10, height: 10, bytes: 4 })
      .execute()
    const fetchAs = (token?: string) =>
      api.app.fetch(
        new Request(`${api.env.PUBLIC_URL}/api/media/${key}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }),
      )

    const asOwner = await fetchAs(await api.signToken(owner.id))
    expect(asOwner.status).toBe(200)
    expect(asOwner.headers.get('cache-control')).toBe('private, no-store')
    expect((await fetchAs(adminToken)).status).toBe(200)
    for (const token of [undefined, memberToken, hostToken]) expect((await fetchAs(token)).status).toBe(404)
  })
})
