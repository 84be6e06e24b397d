import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Experience, NewUser, User } from '#api/db/schema.ts'
import { createMediaStorage } from '#api/providers.ts'
import { createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { s3Handlers } from '#tests/msw/s3.ts'

/**
 * With a public bucket (S3_PUBLIC_URL), browsers fetch every photo from it: every photo URL the
 * API answers — covers, hosts', attendees', members' and chat senders' photos, the member's own,
 * in lists, pages, chats, the support inbox and the live stream — is the storage's public URL,
 * never `/api/media/<key>` (decision 067).
 */

const cdn = 'https://cdn.test.example'
const s3 = {
  S3_ENDPOINT: 'https://s3.test.example',
  S3_BUCKET: 'circle55-media',
  S3_REGION: 'eu-west-1',
  S3_ACCESS_KEY_ID: 'AKIATESTKEY',
  S3_SECRET_ACCESS_KEY: 'test-secret-key',
}
const bucket = s3Handlers({
  endpoint: s3.S3_ENDPOINT,
  bucket: s3.S3_BUCKET,
  region: s3.S3_REGION,
  accessKeyId: s3.S3_ACCESS_KEY_ID,
  secretAccessKey: s3.S3_SECRET_ACCESS_KEY,
})
const server = setupServer(...bucket.handlers)

let database: TestDatabase
let api: ApiHarness
let host: User
let guest: User
let admin: User
let activity: Experience
let later: Experience

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' })
  database = await createTestDatabase()
  api = await createApiHarness(database.db, { ...s3, S3_PUBLIC_URL: cdn }, { media: createMediaStorage({ ...s3, S3_PUBLIC_URL: cdn }) })
  host = await withPhoto({ first_name: 'Walter', last_name: 'Brooks' })
  guest = await withPhoto({ first_name: 'Margaret', last_name: 'Hughes' })
  admin = await createUser(database.db, { first_name: 'Alice', last_name: 'Adminson', staff_role: 'admin' })
  activity = await createExperience(database.db, host.id, { max_attendees: 10, cover_media_id: await photo(host.id, 'experience_cover') })
  later = await createExperience(database.db, host.id, {
    start_at: new Date(Date.now() + 9 * 86_400_000),
    max_attendees: 1,
    cover_media_id: await photo(host.id, 'experience_cover'),
  })
  expect((await as(guest, 'POST', `v1/experiences/${activity.id}/attendees`, { user_id: guest.id })).status).toBe(200)
  // They met at a past one: each is among the other's members to meet.
  const past = await createExperience(database.db, host.id, { start_at: new Date(Date.now() - 10 * 86_400_000) })
  await database.db.insertInto('experience_attendees').values({ experience_id: past.id, user_id: guest.id }).execute()
})

afterAll(async () => {
  server.close()
  await database?.drop()
})

/** A stored photo's row (its files are never read here: only their URLs are answered). */
async function photo(ownerId: string, target: 'avatar' | 'experience_cover') {
  const base = `${target === 'avatar' ? 'avatars' : 'covers'}/2026/11/${crypto.randomUUID()}`
  const row = await database.db
    .insertInto('media')
    .values({ owner_id: ownerId, target, storage_key: `${base}.jpg`, thumbnail_key: `${base}-thumb.jpg`, mime_type: 'image/jpeg', width: 400, height: 400, bytes: 1000 })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

async function withPhoto(overrides: Partial<NewUser>) {
  const user = await createUser(database.db, overrides)
  const avatar = await photo(user.id, 'avatar')
  return database.db.updateTable('users').set({ avatar_media_id: avatar }).where('id', '=', user.id).returningAll().executeTakeFirstOrThrow()
}

async function as(user: User, method: string, path: string, body?: unknown) {
  return api.request(method, path, { token: await api.signToken(user.id), body })
}

/** Every photo URL in an answer: the `url` and `thumbnail_url` of each `avatar`, `cover_photo`. */
function photoUrls(value: unknown, key = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => photoUrls(item, key))
  if (value === null || typeof value !== 'object') return []
  const entries = Object.entries(value as Record<string, unknown>)
  const own = ['avatar', 'cover_photo'].includes(key)
    ? entries.filter(([name, url]) => (name === 'url' || name === 'thumbnail_url') && typeof url === 'string').map(([, url]) => url as string)
    : []
  return [...own, ...entries.flatMap(([name, inner]) => photoUrls(inner, name))]
}

/** The answer's photos all come from the public bucket, and there is at least `least` of them. */
function expectPublicPhotos(body: unknown, least: number) {
  const urls = photoUrls(body)
  expect(urls.length).toBeGreaterThanOrEqual(least)
  for (const url of urls) expect(url).toMatch(new RegExp(`^${cdn}/(avatars|covers)/2026/11/[0-9a-f-]+(-thumb)?\\.jpg$`))
  expect(JSON.stringify(body)).not.toContain('/api/media/')
}

async function ok(user: User, method: string, path: string, body?: unknown) {
  const response = await as(user, method, path, body)
  expect(response.status, `${method} ${path}`).toBeLessThan(300)
  return response.json as unknown
}

describe('with S3_PUBLIC_URL, every photo URL the API answers is the public bucket’s', () => {
  it('activities: the list, one activity, the attendees, a member’s activities and every change that answers the activity', async () => {
    // Covers (with thumbnails) and the host's photo.
    expectPublicPhotos(await ok(guest, 'GET', 'v1/experiences'), 6)
    expectPublicPhotos(await ok(guest, 'GET', `v1/experiences/${activity.id}`), 3)
    expectPublicPhotos(await ok(host, 'GET', `v1/experiences/${activity.id}/attendees`), 1)
    expectPublicPhotos(await ok(guest, 'GET', `v1/users/${host.id}/experiences`), 6)
    expectPublicPhotos(await ok(guest, 'GET', `v1/users/${guest.id}/experiences`), 3)
    expectPublicPhotos(await ok(guest, 'GET', `v1/users/${host.id}/experiences?in_common=true`), 3)
    expectPublicPhotos(await ok(guest, 'POST', `v1/experiences/${later.id}/attendees`, { user_id: guest.id }), 3)
    expectPublicPhotos(await ok(guest, 'DELETE', `v1/experiences/${later.id}/attendees/${guest.id}`), 3)
    expectPublicPhotos(await ok(host, 'PUT', `v1/experiences/${later.id}`, { title: 'Riverside walk, longer' }), 3)
    const other = await createUser(database.db)
    expect((await as(other, 'POST', `v1/experiences/${later.id}/attendees`, { user_id: other.id })).status).toBe(200)
    expectPublicPhotos(await ok(guest, 'POST', `v1/experiences/${later.id}/waitlist`), 3)
  })

  it('members: a public profile, the members to meet and the member’s own', async () => {
    expectPublicPhotos(await ok(guest, 'GET', `users/${host.id}`), 1)
    expectPublicPhotos(await ok(guest, 'GET', 'v1/members'), 1)
    expectPublicPhotos(await ok(guest, 'GET', 'v1/users/me?include=badges'), 1)
    expectPublicPhotos(await ok(guest, 'GET', 'v1/users/me'), 1)
  })

  it('chat: the channels, a channel, its members, the member search and the live stream', async () => {
    const joined = await ok(host, 'PUT', `experiences/${activity.id}/message-channels/join`)
    const channelId = (joined as { data: Array<{ id: string }> }).data[0]!.id
    await ok(guest, 'PUT', `experiences/${activity.id}/message-channels/join`)
    await ok(host, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'See you at the river' })
    const opened = await ok(guest, 'POST', 'users/message-channels', { user_id: host.id })
    expectPublicPhotos(opened, 1)

    expectPublicPhotos(await ok(guest, 'GET', 'v1/chat/message-channels'), 2)
    expectPublicPhotos(await ok(guest, 'GET', `message-channels/${channelId}`), 1)
    expectPublicPhotos(await ok(guest, 'GET', `message-channels/${channelId}/users`), 2)
    expectPublicPhotos(await ok(guest, 'GET', `experiences/${activity.id}/message-channels`), 1)
    expectPublicPhotos(await ok(guest, 'GET', 'v1/chat/users?name=Walter'), 1)

    const stream = await api.app.fetch(
      new Request(`${api.env.PUBLIC_URL}/api/v1/chat/events?once=true`, {
        headers: { authorization: `Bearer ${await api.signToken(guest.id)}`, 'last-event-id': '0' },
      }),
    )
    expect(stream.status).toBe(200)
    const messages = (await stream.text())
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line.includes('"message"'))
      .map((line) => JSON.parse(line.slice('data: '.length)) as unknown)
    expect(messages.length).toBeGreaterThanOrEqual(1)
    expectPublicPhotos(messages, 1)
  })

  it('support: the inbox and a conversation show the member’s photo from the bucket', async () => {
    const opened = (await ok(guest, 'POST', 'v1/support/message-channel')) as { data: Array<{ id: string }> }
    const id = opened.data[0]!.id
    await ok(guest, 'POST', `v1/chat/message-channels/${id}/messages`, { text: 'How do I change my photo?' })
    expectPublicPhotos(await ok(admin, 'GET', 'v1/admin/support'), 1)
    expectPublicPhotos(await ok(admin, 'GET', `v1/admin/support/${id}`), 1)
    expectPublicPhotos(await ok(admin, 'POST', `v1/admin/support/${id}/done`), 1)
  })

  it('a profile photo is put on the profile by the URL the API gave for it', async () => {
    const avatar = await photo(guest.id, 'avatar')
    const row = await database.db.selectFrom('media').select('storage_key').where('id', '=', avatar).executeTakeFirstOrThrow()
    const url = `${cdn}/${row.storage_key}`
    const updated = await ok(guest, 'PUT', 'v1/users/me/avatar', { file_name: url })
    expect((updated as { data: Array<{ avatar: { url: string } }> }).data[0]!.avatar.url).toBe(url)
    expectPublicPhotos(updated, 1)
  })
})
