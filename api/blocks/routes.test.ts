import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser, User } from '#api/db/schema.ts'
import { blockStateSchema, reachabilitySchema } from '#contract/blocks.ts'
import { createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

/** Block and unblock (issue 14 §4, decision 030), as an API client sees them. */

let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
})

afterAll(async () => {
  await database?.drop()
})

const portland = { lat: 45.5152, long: -122.6784, city: 'Portland', region: 'OR' }

async function member(overrides: Partial<NewUser> = {}) {
  return createUser(database.db, overrides)
}

async function as(user: User) {
  const token = await api.signToken(user.id)
  return (method: string, path: string) => api.request(method, path, { token })
}

/** Both took part in an activity that has already happened, so each lists the other under Members. */
async function metAt(host: User, guest: User) {
  const experience = await createExperience(database.db, host.id, { start_at: new Date(Date.now() - 3 * 86_400_000) })
  await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: guest.id }).execute()
  return experience
}

const listed = (response: { json: { data: Array<{ id: string }> } }) => response.json.data.map((entry) => entry.id)

describe('PUT, GET and DELETE /api/v1/block/{id}', () => {
  it('blocks, tells the blocker since when, and unblocks', async () => {
    const [blocker, other] = [await member(), await member()]
    const call = await as(blocker)

    const before = await call('GET', `v1/block/${other.id}`)
    expect(before.status).toBe(200)
    expect(before.json).toEqual({ is_blocked: false, blocked_at: null })

    const blocked = await call('PUT', `v1/block/${other.id}`)
    expect(blocked.status).toBe(200)
    expect(blockStateSchema.parse(blocked.json).is_blocked).toBe(true)
    expect(Date.parse(blocked.json.blocked_at)).toBeGreaterThan(Date.now() - 60_000)
    expect((await call('GET', `v1/block/${other.id}`)).json).toEqual(blocked.json)
    expect(blocked.headers.get('cache-control')).toContain('no-store')

    const unblocked = await call('DELETE', `v1/block/${other.id}`)
    expect(unblocked.status).toBe(204)
    expect((await call('GET', `v1/block/${other.id}`)).json).toEqual({ is_blocked: false, blocked_at: null })
  })

  it('is idempotent: blocking again keeps the first block, unblocking again is not an error', async () => {
    const [blocker, other] = [await member(), await member()]
    const call = await as(blocker)
    const first = await call('PUT', `v1/block/${other.id}`)
    const second = await call('PUT', `v1/block/${other.id}`)
    expect(second.status).toBe(200)
    expect(second.json).toEqual(first.json)
    const rows = await database.db.selectFrom('blocks').selectAll().where('blocker_id', '=', blocker.id).execute()
    expect(rows).toHaveLength(1)

    expect((await call('DELETE', `v1/block/${other.id}`)).status).toBe(204)
    expect((await call('DELETE', `v1/block/${other.id}`)).status).toBe(204)
    // Never blocked at all: 204 as well.
    expect((await call('DELETE', `v1/block/${(await member()).id}`)).status).toBe(204)
  })

  it('makes one block from requests sent at once', async () => {
    const [blocker, other] = [await member(), await member()]
    const call = await as(blocker)
    const answers = await Promise.all(Array.from({ length: 5 }, () => call('PUT', `v1/block/${other.id}`)))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200])
    expect(new Set(answers.map((answer) => blockStateSchema.parse(answer.json).blocked_at)).size).toBe(1)
    expect(await database.db.selectFrom('blocks').selectAll().where('blocker_id', '=', blocker.id).execute()).toHaveLength(1)
  })

  it('takes a member id only: a slug is not found', async () => {
    const other = await member()
    expect((await (await as(await member()))('PUT', `v1/block/${other.slug}`)).status).toBe(404)
  })

  it('refuses blocking oneself (422 cannot_block_self)', async () => {
    const self = await member()
    const response = await (await as(self))('PUT', `v1/block/${self.id}`)
    expect(response.status).toBe(422)
    expect(response.json.error).toMatchObject({ code: 'invalid_input', fields: { id: ['cannot_block_self'] } })
  })

  it('answers 404 for an unknown or deleted member, or an id that is not one', async () => {
    const call = await as(await member())
    const deleted = await member({ state: 'deleted' })
    for (const id of [crypto.randomUUID(), deleted.id, 'not-an-id', deleted.slug]) {
      for (const [method, path] of [
        ['GET', `v1/block/${id}`],
        ['PUT', `v1/block/${id}`],
        ['DELETE', `v1/block/${id}`],
        ['GET', `v1/block/${id}/me`],
      ] as const) {
        const response = await call(method, path)
        expect(response.status, `${method} ${path}`).toBe(404)
        expect(response.json.error.code).toBe('not_found')
      }
    }
    expect(await database.db.selectFrom('blocks').selectAll().where('blocked_id', '=', deleted.id).execute()).toEqual([])
  })

  it('lets a member block anyone who exists: an admin, a suspended member, someone who blocked them first', async () => {
    const caller = await member()
    const call = await as(caller)
    const admin = await member({ staff_role: 'admin' })
    const suspended = await member({ is_suspended: true })
    const firstBlocker = await member()
    await (await as(firstBlocker))('PUT', `v1/block/${caller.id}`)
    for (const other of [admin, suspended, firstBlocker]) {
      const response = await call('PUT', `v1/block/${other.id}`)
      expect(response.status).toBe(200)
      expect(response.json.is_blocked).toBe(true)
    }
    // Each block is its own: the first blocker's answer is about their block only.
    expect((await call('DELETE', `v1/block/${firstBlocker.id}`)).status).toBe(204)
    expect((await (await as(firstBlocker))('GET', `v1/block/${caller.id}`)).json.is_blocked).toBe(true)
  })

  it('refuses anonymous callers (401) and suspended ones (403 user_suspended)', async () => {
    const other = await member()
    const suspended = await member({ is_suspended: true })
    const banned = await member({ banned: true })
    for (const method of ['GET', 'PUT', 'DELETE']) {
      expect((await api.request(method, `v1/block/${other.id}`)).status).toBe(401)
      for (const caller of [suspended, banned]) {
        const response = await (await as(caller))(method, `v1/block/${other.id}`)
        expect(response.status).toBe(403)
        expect(response.json.error.code).toBe('user_suspended')
      }
    }
    expect((await api.request('GET', `v1/block/${other.id}/me`)).status).toBe(401)
    expect((await (await as(suspended))('GET', `v1/block/${other.id}/me`)).status).toBe(403)
    expect(await database.db.selectFrom('blocks').selectAll().where('blocked_id', '=', other.id).execute()).toEqual([])
  })

  it('sends the blocked member nothing (no notification, no delivery job)', async () => {
    const [blocker, other] = [await member(), await member()]
    const jobs = api.queuedJobs.length
    const notifications = await database.db.selectFrom('notifications').select('id').where('user_id', '=', other.id).execute()
    await (await as(blocker))('PUT', `v1/block/${other.id}`)
    await (await as(blocker))('DELETE', `v1/block/${other.id}`)
    expect(api.queuedJobs.length).toBe(jobs)
    expect(await database.db.selectFrom('notifications').select('id').where('user_id', '=', other.id).execute()).toEqual(notifications)
  })
})

describe('GET /api/v1/block/{id}/me', () => {
  it('says only whether the caller can message the member, the same whoever blocked whom or if they are suspended', async () => {
    const caller = await member()
    const call = await as(caller)
    const free = await member()
    const blockedByCaller = await member()
    const blockedCaller = await member()
    const suspended = await member({ is_suspended: true })
    const banned = await member({ banned: true })
    await call('PUT', `v1/block/${blockedByCaller.id}`)
    await (await as(blockedCaller))('PUT', `v1/block/${caller.id}`)

    const answer = async (other: User) => {
      const response = await call('GET', `v1/block/${other.id}/me`)
      expect(response.status).toBe(200)
      return reachabilitySchema.strict().parse(response.json)
    }
    expect(await answer(free)).toEqual({ can_message: true })
    for (const other of [blockedByCaller, blockedCaller, suspended, banned]) expect(await answer(other)).toEqual({ can_message: false })
    expect(await answer(caller)).toEqual({ can_message: false })

    // Unblocking restores it for both sides.
    await call('DELETE', `v1/block/${blockedByCaller.id}`)
    expect(await answer(blockedByCaller)).toEqual({ can_message: true })
    expect((await (await as(blockedByCaller))('GET', `v1/block/${caller.id}/me`)).json).toEqual({ can_message: true })
  })
})

describe('blocking takes effect where members are shown', () => {
  it('hides the blocked member from the blocker’s Members list and search, and the blocker from theirs; unblocking restores both', async () => {
    const blocker = await member({ ...portland, first_name: 'Beatrice' })
    const blocked = await member({ ...portland, first_name: 'Dorothy' })
    await metAt(blocker, blocked)
    const asBlocker = await as(blocker)
    const asBlocked = await as(blocked)
    const lists = async () => ({
      blockers: listed(await asBlocker('GET', 'v1/members')),
      blockersSearch: listed(await asBlocker('GET', 'v1/members?name=dor')),
      blockeds: listed(await asBlocked('GET', 'v1/members')),
      blockedsSearch: listed(await asBlocked('GET', 'v1/members?name=bea')),
    })
    expect(await lists()).toEqual({ blockers: [blocked.id], blockersSearch: [blocked.id], blockeds: [blocker.id], blockedsSearch: [blocker.id] })

    expect((await asBlocker('PUT', `v1/block/${blocked.id}`)).status).toBe(200)
    expect(await lists()).toEqual({ blockers: [], blockersSearch: [], blockeds: [], blockedsSearch: [] })

    expect((await asBlocker('DELETE', `v1/block/${blocked.id}`)).status).toBe(204)
    expect(await lists()).toEqual({ blockers: [blocked.id], blockersSearch: [blocked.id], blockeds: [blocker.id], blockedsSearch: [blocker.id] })
  })

  it('answers 404 to the blocked member for the blocker’s profile, activities, interests and prompts; unblocking restores them', async () => {
    const blocker = await member()
    const blocked = await member()
    const asBlocker = await as(blocker)
    const asBlocked = await as(blocked)
    const paths = [
      `users/${blocker.id}`,
      `users/${blocker.slug}`,
      `v1/users/${blocker.id}/experiences`,
      `v1/users/${blocker.id}/experiences?in_common=true`,
      `v1/users/${blocker.id}/interests`,
      `v1/users/${blocker.slug}/profile-prompts`,
    ]
    const statuses = async () => Promise.all(paths.map(async (path) => (await asBlocked('GET', path)).status))
    expect(await statuses()).toEqual(paths.map(() => 200))

    await asBlocker('PUT', `v1/block/${blocked.id}`)
    expect(await statuses()).toEqual(paths.map(() => 404))
    // The blocker can still open the blocked member's profile (to unblock from it).
    expect((await asBlocker('GET', `users/${blocked.id}`)).status).toBe(200)
    expect((await asBlocker('GET', `v1/users/${blocked.id}/interests`)).status).toBe(200)

    await asBlocker('DELETE', `v1/block/${blocked.id}`)
    expect(await statuses()).toEqual(paths.map(() => 200))
  })

  it('keeps both on an activity’s attendee list (decision 030: who will be there stays true)', async () => {
    const host = await member()
    const blocker = await member()
    const blocked = await member()
    const experience = await createExperience(database.db, host.id)
    for (const user of [blocker, blocked]) {
      await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: user.id }).execute()
    }
    await (await as(blocker))('PUT', `v1/block/${blocked.id}`)
    for (const viewer of [blocker, blocked]) {
      const response = await (await as(viewer))('GET', `v1/experiences/${experience.id}/attendees`)
      expect(response.status).toBe(200)
      expect(listed(response).sort()).toEqual([blocker.id, blocked.id].sort())
    }
  })
})
