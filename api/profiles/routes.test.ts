import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { User } from '#api/db/schema.ts'
import { createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { interests, profilePrompts } from '#contract/profile.ts'

/** A member's interests and prompts as others read them, and the catalogue (issue 13 §1). */

let database: TestDatabase
let api: ApiHarness
let margaret: User
let reader: User
let readerToken: string
let marToken: string

const profile = {
  interests: ['walking', 'bridge', 'baking'],
  prompts: [
    { prompt: 'perfect_sunday', answer: 'Church, then lunch with the grandchildren.' },
    { prompt: 'ask_me_about', answer: 'My roses.' },
  ],
  phone: '(503) 555-0142',
  city: 'us-or-portland',
}

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  margaret = await createUser(database.db, { first_name: 'Margaret', last_name: 'Hughes', locale: 'en' })
  reader = await createUser(database.db, { first_name: 'Ruth', last_name: 'Owens', locale: 'fr' })
  marToken = await api.signToken(margaret.id)
  readerToken = await api.signToken(reader.id)
  expect((await api.request('PUT', 'v1/users/me', { token: marToken, body: profile })).status).toBe(200)
})

afterAll(async () => {
  await database?.drop()
})

describe('GET /api/v1/users/{id}/interests', () => {
  it('lists the member’s interests in the order chosen, named in the reader’s own language', async () => {
    const response = await api.request('GET', `v1/users/${margaret.id}/interests`, { token: readerToken })
    expect(response.status).toBe(200)
    expect(response.json).toEqual({
      data: [
        { key: 'walking', group: 'outdoors', name: 'Marche' },
        { key: 'bridge', group: 'games', name: 'Bridge' },
        { key: 'baking', group: 'food', name: 'Pâtisserie' },
      ],
    })
  })

  it('answers by slug and for `me`, in the member’s own language', async () => {
    const bySlug = await api.request('GET', `v1/users/${margaret.slug}/interests`, { token: readerToken })
    expect(bySlug.json.data.map((interest: { key: string }) => interest.key)).toEqual(['walking', 'bridge', 'baking'])
    const mine = await api.request('GET', 'v1/users/me/interests', { token: marToken })
    expect(mine.json.data[0]).toEqual({ key: 'walking', group: 'outdoors', name: 'Walking' })
  })

  it('uses Accept-Language when the reader has chosen no language', async () => {
    const noLocale = await createUser(database.db, { locale: null })
    const token = await api.signToken(noLocale.id)
    const response = await api.request('GET', `v1/users/${margaret.id}/interests`, { token, headers: { 'accept-language': 'nl-BE,nl;q=0.9' } })
    expect(response.json.data[0].name).toBe('Wandelen')
    const english = await api.request('GET', `v1/users/${margaret.id}/interests`, { token })
    expect(english.json.data[0].name).toBe('Walking')
  })

  it('answers an empty list for a member who chose none', async () => {
    const response = await api.request('GET', `v1/users/${reader.id}/interests`, { token: marToken })
    expect(response.json).toEqual({ data: [] })
  })

  it('answers 401 to anonymous callers', async () => {
    const response = await api.request('GET', `v1/users/${margaret.id}/interests`)
    expect(response.status).toBe(401)
    expect(response.json.error.code).toBe('unauthorized')
  })

  it.each([
    ['suspended', { is_suspended: true }],
    ['banned', { banned: true }],
    ['deleted', { state: 'deleted' as const }],
  ])('answers 404 for a %s member, and for one that does not exist', async (_, overrides) => {
    const hidden = await createUser(database.db, overrides)
    await database.db.insertInto('user_interests').values({ user_id: hidden.id, interest: 'golf' }).execute()
    for (const key of [hidden.id, hidden.slug, crypto.randomUUID(), 'no-such-member']) {
      const response = await api.request('GET', `v1/users/${key}/interests`, { token: readerToken })
      expect(response.status).toBe(404)
      expect(response.json.error.code).toBe('not_found')
    }
  })
})

describe('GET /api/v1/users/{id}/profile-prompts', () => {
  it('lists the answers in order, each question in the reader’s language', async () => {
    const response = await api.request('GET', `v1/users/${margaret.slug}/profile-prompts`, { token: readerToken })
    expect(response.status).toBe(200)
    expect(response.json).toEqual({
      data: [
        { prompt: 'perfect_sunday', question: 'Pour moi, un dimanche parfait, c’est…', answer: 'Church, then lunch with the grandchildren.' },
        { prompt: 'ask_me_about', question: 'Posez-moi des questions sur…', answer: 'My roses.' },
      ],
    })
    const mine = await api.request('GET', 'v1/users/me/profile-prompts', { token: marToken })
    expect(mine.json.data[0].question).toBe('A perfect Sunday for me is…')
  })

  it('answers 401 to anonymous callers and 404 for a banned member', async () => {
    expect((await api.request('GET', `v1/users/${margaret.id}/profile-prompts`)).status).toBe(401)
    const banned = await createUser(database.db, { banned: true })
    expect((await api.request('GET', `v1/users/${banned.id}/profile-prompts`, { token: readerToken })).status).toBe(404)
  })
})

describe('what another member can read', () => {
  it('never includes the email, phone or birth date', async () => {
    const stored = await database.db.selectFrom('users').selectAll().where('id', '=', margaret.id).executeTakeFirstOrThrow()
    const secrets = [stored.email!, stored.phone!, '5035550142', '555-0142', stored.dob!]
    for (const path of ['interests', 'profile-prompts']) {
      const response = await api.request('GET', `v1/users/${margaret.id}/${path}`, { token: readerToken })
      const text = JSON.stringify(response.json)
      for (const secret of secrets) expect(text).not.toContain(secret)
      expect(text).not.toMatch(/email|phone|dob/)
    }
  })
})

describe('GET /api/v1/profile/catalogue', () => {
  it('lists every interest by group and every prompt, named in the caller’s language', async () => {
    const response = await api.request('GET', 'v1/profile/catalogue', { headers: { 'accept-language': 'fr' } })
    expect(response.status).toBe(200)
    const catalogue = response.json.data[0]
    expect(catalogue.interest_groups[0]).toMatchObject({ key: 'outdoors', name: 'Plein air' })
    expect(catalogue.interest_groups.flatMap((group: { interests: { key: string }[] }) => group.interests.map((interest) => interest.key))).toEqual(interests)
    expect(catalogue.prompts.map((prompt: { key: string }) => prompt.key)).toEqual([...profilePrompts])
    expect(catalogue.prompts[0]).toEqual({ key: 'perfect_sunday', question: 'Pour moi, un dimanche parfait, c’est…' })
    expect(catalogue.nearby_visibilities.map((choice: { key: string }) => choice.key)).toEqual(['everyone', 'attended', 'nobody'])
    expect(catalogue.employments).toContainEqual({ key: 'retired', name: 'À la retraite' })
    expect(catalogue.genders).toContainEqual({ key: 'woman', name: expect.any(String) })
  })

  it('names everything in English by default, and for a member in their own language', async () => {
    const anonymous = await api.request('GET', 'v1/profile/catalogue')
    expect(anonymous.json.data[0].interest_groups[0].interests[0]).toEqual({ key: 'walking', name: 'Walking' })
    const member = await api.request('GET', 'v1/profile/catalogue', { token: readerToken, headers: { 'accept-language': 'nl' } })
    expect(member.json.data[0].interest_groups[0].interests[0].name).toBe('Marche')
  })
})
