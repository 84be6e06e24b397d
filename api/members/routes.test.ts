import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { NewUser, User } from '#api/db/schema.ts'
import type { NearbyVisibility } from '#contract/profile.ts'
import { createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { privateKeysIn } from '#tests/private-keys.ts'

/** Public profiles and members to meet (issue 13 §3, decision 027). */

let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
})

afterAll(async () => {
  await database?.drop()
})

// Portland, and places about 5 and 60 miles away.
const portland = { lat: 45.5152, long: -122.6784, city: 'Portland', region: 'OR' }
const beaverton = { lat: 45.4871, long: -122.8037, city: 'Beaverton', region: 'OR' }
const salem = { lat: 44.9429, long: -123.0351, city: 'Salem', region: 'OR' }

async function member(overrides: Partial<NewUser> = {}, options: { interests?: string[]; visibility?: NearbyVisibility } = {}) {
  const user = await createUser(database.db, overrides)
  for (const [position, interest] of (options.interests ?? []).entries()) {
    await database.db.insertInto('user_interests').values({ user_id: user.id, interest: interest as never, position }).execute()
  }
  if (options.visibility) {
    await database.db.insertInto('profiles').values({ user_id: user.id, family: [], nearby_visibility: options.visibility }).execute()
  }
  return user
}

/** Both took part in an activity that has already happened (`together` hosts it, `user` attends). */
async function metAt(host: User, guest: User, startsInDays = -3) {
  const experience = await createExperience(database.db, host.id, { start_at: new Date(Date.now() + startsInDays * 86_400_000) })
  await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: guest.id }).execute()
  return experience
}

async function list(viewer: User, query = '') {
  const response = await api.request('GET', `v1/members${query}`, { token: await api.signToken(viewer.id) })
  expect(response.status).toBe(200)
  return response.json as { data: Array<{ id: string; reason: string; shared_interests: string[]; activities_in_common: number }>; metadata: { page: number; total_pages: number } }
}

const ids = (page: { data: Array<{ id: string }> }) => page.data.map((entry) => entry.id)

describe('GET /api/v1/members', () => {
  let viewer: User
  beforeEach(async () => {
    // Each test in its own town, far from the others' members (the database is shared).
    viewer = await member({ ...portland, first_name: 'Viv' }, { interests: ['walking', 'birdwatching', 'chess'] })
  })

  it('lists people met at activities, then members near by who share an interest', async () => {
    const met = await member({ ...salem, first_name: 'Mabel' })
    await metAt(viewer, met)
    const near = await member({ ...beaverton, first_name: 'Nora' }, { interests: ['chess', 'walking'] })
    const nearOne = await member({ ...beaverton, first_name: 'Olive' }, { interests: ['birdwatching'] })
    const nearNoInterest = await member({ ...beaverton, first_name: 'Pearl' }, { interests: ['golf'] })
    const farAway = await member({ ...salem, first_name: 'Quinn' }, { interests: ['chess'] })

    const page = await list(viewer)
    expect(ids(page)).toContain(met.id)
    expect(ids(page)).not.toContain(nearNoInterest.id)
    expect(ids(page)).not.toContain(farAway.id)
    expect(ids(page)).not.toContain(viewer.id)
    const mine = page.data.filter((entry) => [met.id, near.id, nearOne.id].includes(entry.id))
    expect(mine.map((entry) => entry.id)).toEqual([met.id, near.id, nearOne.id])
    expect(mine[0]).toMatchObject({ reason: 'attended_with', activities_in_common: 1 })
    expect(mine[1]).toMatchObject({ reason: 'nearby', shared_interests: ['chess', 'walking'], activities_in_common: 0 })
    expect(mine[2]).toMatchObject({ reason: 'nearby', shared_interests: ['birdwatching'] })
    expect(page.metadata).toMatchObject({ page: 1, total_pages: 1 })
  })

  it('counts only activities that have happened and were not cancelled as met', async () => {
    const upcoming = await member({ ...salem, first_name: 'Uma' })
    await metAt(viewer, upcoming, 3)
    const cancelled = await member({ ...salem, first_name: 'Cora' })
    const experience = await metAt(cancelled, viewer)
    await database.db.updateTable('experiences').set({ canceled_at: new Date() }).where('id', '=', experience.id).execute()
    const page = await list(viewer)
    expect(ids(page)).not.toContain(upcoming.id)
    expect(ids(page)).not.toContain(cancelled.id)
  })

  it("respects each member's near-by visibility: everyone, attended, nobody", async () => {
    const everyone = await member({ ...beaverton, first_name: 'Eve' }, { interests: ['chess'], visibility: 'everyone' })
    const attendedNear = await member({ ...beaverton, first_name: 'Ada' }, { interests: ['chess'], visibility: 'attended' })
    const attendedMet = await member({ ...beaverton, first_name: 'Abe' }, { interests: ['chess'], visibility: 'attended' })
    await metAt(attendedMet, viewer)
    const nobodyNear = await member({ ...beaverton, first_name: 'Ned' }, { interests: ['chess'], visibility: 'nobody' })
    const nobodyMet = await member({ ...beaverton, first_name: 'Nat' }, { interests: ['chess'], visibility: 'nobody' })
    await metAt(viewer, nobodyMet)

    const listed = ids(await list(viewer))
    expect(listed).toContain(everyone.id)
    expect(listed).toContain(attendedMet.id)
    expect(listed).not.toContain(attendedNear.id)
    expect(listed).not.toContain(nobodyNear.id)
    expect(listed).not.toContain(nobodyMet.id)
    // Searching by name finds nobody outside that set.
    for (const name of ['Ada', 'Ned', 'Nat']) expect(ids(await list(viewer, `?name=${name}`))).toEqual([])
  })

  it('never lists suspended, banned or deleted members, nor anyone in a block relation', async () => {
    const hidden = [
      await member({ ...beaverton, is_suspended: true }, { interests: ['chess'] }),
      await member({ ...beaverton, banned: true }, { interests: ['chess'] }),
      await member({ ...beaverton, state: 'deleted' }, { interests: ['chess'] }),
      await member({ ...beaverton, state: 'suspended' }, { interests: ['chess'] }),
    ]
    const blocked = await member({ ...beaverton }, { interests: ['chess'] })
    const blocker = await member({ ...beaverton }, { interests: ['chess'] })
    for (const other of [...hidden, blocked, blocker]) await metAt(viewer, other)
    await database.db.insertInto('blocks').values({ blocker_id: viewer.id, blocked_id: blocked.id }).execute()
    await database.db.insertInto('blocks').values({ blocker_id: blocker.id, blocked_id: viewer.id }).execute()
    const listed = ids(await list(viewer))
    for (const other of [...hidden, blocked, blocker]) expect(listed).not.toContain(other.id)
  })

  it('searches by the start of the first name, ignoring case and accents, within the listed members only', async () => {
    const helene = await member({ ...beaverton, first_name: 'Hélène' }, { interests: ['chess'] })
    const henry = await member({ ...beaverton, first_name: 'Henry' }, { interests: ['walking'] })
    const stranger = await member({ ...salem, first_name: 'Helen' }, { interests: ['chess'] })
    expect(ids(await list(viewer, '?name=hel'))).toContain(helene.id)
    expect(ids(await list(viewer, '?name=HELE'))).toEqual(expect.arrayContaining([helene.id]))
    expect(ids(await list(viewer, '?name=hél'))).toContain(helene.id)
    expect(ids(await list(viewer, '?name=hel'))).not.toContain(henry.id)
    expect(ids(await list(viewer, '?name=hel'))).not.toContain(stranger.id)
    expect(ids(await list(viewer, '?name=%25'))).toEqual([])
    expect(ids(await list(viewer, '?name=lène'))).toEqual([])
  })

  it('lists nobody near by for a member without a home town', async () => {
    const nowhere = await member({ first_name: 'Nia' }, { interests: ['chess'] })
    await member({ ...beaverton }, { interests: ['chess'] })
    expect(await list(nowhere)).toEqual({ data: [], metadata: { page: 1, total_pages: 0, total_count: 0 } })
  })

  it('pages from 1', async () => {
    const loner = await member({ ...portland })
    for (let index = 0; index < 3; index++) await metAt(loner, await member({ ...salem }))
    const first = await list(loner, '?per_page=2')
    const second = await list(loner, '?per_page=2&page=2')
    expect(first.metadata).toMatchObject({ page: 1, total_pages: 2 })
    expect(second.data).toHaveLength(1)
    expect(new Set([...ids(first), ...ids(second)]).size).toBe(3)
  })
})

describe('GET /api/users/{id}', () => {
  it('answers a suspended, banned or deleted member with the generic label only', async () => {
    const viewer = await member()
    const token = await api.signToken(viewer.id)
    for (const overrides of [{ is_suspended: true }, { banned: true }, { state: 'suspended' as const }, { state: 'deleted' as const }]) {
      const other = await member({ ...portland, ...overrides })
      for (const caller of [token, undefined]) {
        const response = await api.request('GET', `users/${other.slug}`, { token: caller })
        expect(response.status).toBe(200)
        expect(response.json).toEqual({ id: other.id, slug: other.slug, display_name: null, is_suspended: true })
      }
    }
  })

  it('answers 404 to a member the profile’s owner blocked', async () => {
    const viewer = await member()
    const blocker = await member()
    await database.db.insertInto('blocks').values({ blocker_id: blocker.id, blocked_id: viewer.id }).execute()
    expect((await api.request('GET', `users/${blocker.id}`, { token: await api.signToken(viewer.id) })).status).toBe(404)
    expect((await api.request('GET', `users/${viewer.id}`, { token: await api.signToken(blocker.id) })).status).toBe(200)
  })

  it('shows the public facts the member chose, verification and the home town', async () => {
    const viewer = await member()
    const other = await member({ ...portland })
    await database.db
      .insertInto('profiles')
      .values({ user_id: other.id, employment: 'retired', relationship: 'widowed', family: ['grandchildren', 'pets'] })
      .execute()
    await database.db.insertInto('verifications').values({ user_id: other.id, status: 'verified' }).execute()
    const response = await api.request('GET', `users/${other.id}`, { token: await api.signToken(viewer.id) })
    expect(response.json).toMatchObject({
      is_verified: true,
      city: 'Portland, OR',
      employment: 'retired',
      relationship: 'widowed',
      family: ['grandchildren', 'pets'],
      age_decade: null,
    })
  })
})

describe('GET /api/v1/users/{id}/experiences (another member)', () => {
  it('lists the upcoming activities they host, and with in_common=true those both take part in', async () => {
    const viewer = await member()
    const host = await member()
    const token = await api.signToken(viewer.id)
    const hosting = await createExperience(database.db, host.id)
    const cancelled = await createExperience(database.db, host.id, { canceled_at: new Date() })
    const past = await metAt(host, viewer)
    const attendsTogether = await createExperience(database.db, (await member()).id)
    for (const user of [viewer, host]) {
      await database.db.insertInto('experience_attendees').values({ experience_id: attendsTogether.id, user_id: user.id }).execute()
    }

    const hosted = await api.request('GET', `v1/users/${host.id}/experiences`, { token })
    expect(hosted.status).toBe(200)
    expect(hosted.json.data.map((e: { id: string }) => e.id)).toEqual([hosting.id])

    const together = await api.request('GET', `v1/users/${host.id}/experiences?in_common=true`, { token })
    const inCommon = together.json.data.map((e: { id: string }) => e.id)
    expect(inCommon.sort()).toEqual([past.id, attendsTogether.id].sort())
    expect(inCommon).not.toContain(cancelled.id)
    expect(together.json.metadata).toMatchObject({ page: 1, total_pages: 1 })
  })

  it('answers 404 for a suspended member or one who blocked the caller', async () => {
    const viewer = await member()
    const token = await api.signToken(viewer.id)
    const suspended = await member({ is_suspended: true })
    const blocker = await member()
    await database.db.insertInto('blocks').values({ blocker_id: blocker.id, blocked_id: viewer.id }).execute()
    for (const other of [suspended, blocker]) {
      for (const query of ['', '?in_common=true']) {
        expect((await api.request('GET', `v1/users/${other.id}/experiences${query}`, { token })).status).toBe(404)
      }
    }
  })
})

describe('privacy of public answers', () => {
  it('never shows contact details, birth date, exact age or coordinates of a member anywhere', async () => {
    const viewer = await member({ ...portland, first_name: 'Vera', phone: '+15035550100' }, { interests: ['chess'] })
    const other = await member({ ...beaverton, first_name: 'Otto', phone: '+15035550199' }, { interests: ['chess'] })
    await database.db.insertInto('profiles').values({ user_id: other.id, show_age: true, family: ['pets'] }).execute()
    const hosted = await createExperience(database.db, other.id)
    await database.db.insertInto('experience_attendees').values({ experience_id: hosted.id, user_id: viewer.id }).execute()
    await metAt(other, viewer)
    const token = await api.signToken(viewer.id)

    const answers = {
      profile: await api.request('GET', `users/${other.id}`, { token }),
      anonymousProfile: await api.request('GET', `users/${other.slug}`),
      members: await api.request('GET', 'v1/members', { token }),
      hosting: await api.request('GET', `v1/users/${other.id}/experiences`, { token }),
      inCommon: await api.request('GET', `v1/users/${other.id}/experiences?in_common=true`, { token }),
      activity: await api.request('GET', `v1/experiences/${hosted.id}`, { token }),
      attendees: await api.request('GET', `v1/experiences/${hosted.id}/attendees`, { token }),
    }
    for (const [name, response] of Object.entries(answers)) {
      expect(response.status, name).toBe(200)
      expect(privateKeysIn(response.json), name).toEqual([])
      expect(JSON.stringify(response.json), name).not.toContain('5550199')
      expect(JSON.stringify(response.json), name).not.toContain(other.email!)
    }
    // The walk itself finds what it looks for.
    expect(privateKeysIn({ data: [{ host: { lat: 1 } }, { location: { latitude: 1 } }, { user: { latitude: 2 } }] })).toEqual([
      '$.data[0].host.lat',
      '$.data[2].user.latitude',
    ])
    expect(answers.members.json.data.map((entry: { id: string }) => entry.id)).toContain(other.id)
    expect(answers.attendees.json.data.length).toBeGreaterThan(0)
  })
})
