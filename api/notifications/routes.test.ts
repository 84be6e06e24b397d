import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser, User } from '#api/db/schema.ts'
import { pageOf } from '#contract/common.ts'
import { notificationSchema } from '#contract/notifications.ts'
import { createApiHarness, createExperience, createUser, testNotifier, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import type { Notify } from './service.ts'

/** The in-app notifications list and its unread total (issue 15 §3, decision 043), as an API client sees them. */

let database: TestDatabase
let api: ApiHarness
let notify: Notify

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  notify = testNotifier(database.db).notify
})

afterAll(async () => {
  await database?.drop()
})

async function member(overrides: Partial<NewUser> = {}) {
  return createUser(database.db, overrides)
}

async function as(user: User) {
  const token = await api.signToken(user.id)
  return (method: string, path: string) => api.request(method, path, { token })
}

/** Records notifications one after the other, so that their order is their creation order. */
async function told(userId: string, count: number, at = Date.now() - 3_600_000) {
  const ids: string[] = []
  for (let index = 0; index < count; index++) {
    const [id] = await notify({ type: 'sample', to: [userId], data: {} })
    await sql`UPDATE notifications SET created_at = ${new Date(at + index * 1000)} WHERE id = ${id!}`.execute(database.db)
    ids.push(id!)
  }
  return ids
}

const page = pageOf(notificationSchema)

describe('GET /api/users/notifications', () => {
  it('pages the member’s own notifications, newest first, with the metadata of spec §7', async () => {
    const [reader, other] = [await member(), await member()]
    const ids = await told(reader.id, 3)
    await told(other.id, 2)
    const call = await as(reader)

    const first = await call('GET', 'users/notifications?per_page=2')
    expect(first.status).toBe(200)
    const parsed = page.parse(first.json)
    expect(parsed.data.map((n) => n.id)).toEqual([ids[2], ids[1]])
    expect(parsed.metadata).toEqual({ page: 1, total_pages: 2, total_count: 3 })
    expect(parsed.data[0]).toMatchObject({ type: 'sample', title: 'A test notification', link: '/notifications', seen_at: null })

    const second = page.parse((await call('GET', 'users/notifications?per_page=2&page=2')).json)
    expect(second.data.map((n) => n.id)).toEqual([ids[0]])
  })

  it('answers the unread total alone with seen_at=null&exclude_results=true', async () => {
    const reader = await member()
    const [first] = await told(reader.id, 4)
    const call = await as(reader)
    await call('PUT', `users/notifications/${first}/seen`)

    const unread = await call('GET', 'users/notifications?seen_at=null&exclude_results=true')
    expect(unread.status).toBe(200)
    expect(unread.json).toEqual({ data: [], metadata: { page: 1, total_pages: 1, total_count: 3 } })

    const all = page.parse((await call('GET', 'users/notifications?exclude_results=true')).json)
    expect(all.metadata.total_count).toBe(4)
    const unseen = page.parse((await call('GET', 'users/notifications?seen_at=null')).json)
    expect(unseen.data.map((n) => n.id)).not.toContain(first)
    expect(unseen.data).toHaveLength(3)
  })

  it('writes each notification in the reader’s language, with the activity’s title and its page', async () => {
    const host = await member()
    const reader = await member({ locale: 'fr' })
    const experience = await createExperience(database.db, host.id, { title: 'Marche au parc' })
    await notify({ type: 'experience.canceled', to: [reader.id], data: { experience_id: experience.id, canceled_by: host.id } })
    await notify({ type: 'message.new', to: [reader.id], data: { channel_id: experience.id, message_id: experience.id } })
    await notify({ type: 'verification.decided', to: [reader.id], data: { verification_id: experience.id, outcome: 'rejected' } })
    const call = await as(reader)

    const { data } = page.parse((await call('GET', 'users/notifications')).json)
    const byType = Object.fromEntries(data.map((n) => [n.type, n]))
    expect(byType['experience.canceled']).toMatchObject({
      title: 'Activité annulée',
      body: '« Marche au parc » a été annulée. Vous n’avez rien à faire.',
      link: `/activities/${experience.id}`,
    })
    expect(byType['message.new']).toMatchObject({ title: 'Un nouveau message', link: `/messenger?channel=${experience.id}` })
    expect(byType['verification.decided']).toMatchObject({ title: 'Nous n’avons pas pu vérifier votre identité', link: '/account/verification' })
  })

  it('reads a type it does not know, or data it cannot read, as something new rather than failing', async () => {
    const reader = await member()
    await database.db.insertInto('notifications').values({ user_id: reader.id, type: 'future.event', data: '{}' }).execute()
    await database.db.insertInto('notifications').values({ user_id: reader.id, type: 'verification.decided', data: '{"outcome":"maybe"}' }).execute()
    const { data } = page.parse((await (await as(reader))('GET', 'users/notifications')).json)
    expect(data.map((n) => n.title)).toEqual(['Something new for you', 'Something new for you'])
  })

  it('says the total on a page past the end, and reads an activity named by no uuid as “an activity”', async () => {
    const reader = await member()
    await told(reader.id, 2)
    await database.db.insertInto('notifications').values({ user_id: reader.id, type: 'experience.canceled', data: '{"experience_id":"not-a-uuid"}' }).execute()
    const call = await as(reader)
    const past = page.parse((await call('GET', 'users/notifications?per_page=2&page=5')).json)
    expect(past).toEqual({ data: [], metadata: { page: 5, total_pages: 2, total_count: 3 } })
    const { data } = page.parse((await call('GET', 'users/notifications')).json)
    expect(data.find((n) => n.type === 'experience.canceled')).toMatchObject({ link: '/attending' })
  })

  it('refuses a query it cannot read', async () => {
    const call = await as(await member())
    expect((await call('GET', 'users/notifications?seen_at=yesterday')).status).toBe(422)
    expect((await call('GET', 'users/notifications?exclude_results=yes')).status).toBe(422)
    expect((await api.request('GET', 'users/notifications')).status).toBe(401)
  })
})

describe('PUT /api/users/notifications/{id}/seen and /api/users/notifications/seen', () => {
  it('marks one seen, keeping when it was first seen; another member’s is not found', async () => {
    const [reader, other] = [await member(), await member()]
    const [id] = await told(reader.id, 1)
    const call = await as(reader)

    expect((await (await as(other))('PUT', `users/notifications/${id}/seen`)).status).toBe(404)
    const seen = await call('PUT', `users/notifications/${id}/seen`)
    expect(seen.status).toBe(200)
    const seenAt = seen.json.data[0].seen_at
    expect(Date.parse(seenAt)).toBeGreaterThan(Date.now() - 60_000)
    const again = await call('PUT', `users/notifications/${id}/seen`)
    expect(again.json.data[0].seen_at).toBe(seenAt)
    expect((await call('PUT', 'users/notifications/not-an-id/seen')).status).toBe(404)
  })

  it('marks all of the member’s own seen, and nobody else’s', async () => {
    const [reader, other] = [await member(), await member()]
    await told(reader.id, 3)
    await told(other.id, 2)
    const call = await as(reader)

    expect((await call('PUT', 'users/notifications/seen')).status).toBe(204)
    expect((await call('GET', 'users/notifications?seen_at=null&exclude_results=true')).json.metadata.total_count).toBe(0)
    const others = await (await as(other))('GET', 'users/notifications?seen_at=null&exclude_results=true')
    expect(others.json.metadata.total_count).toBe(2)
  })
})

describe('GET /api/users/{id}', () => {
  it('still answers a member’s public profile', async () => {
    const someone = await member({ first_name: 'Rosa' })
    const response = await (await as(await member()))('GET', `users/${someone.id}`)
    expect(response.status).toBe(200)
  })
})
