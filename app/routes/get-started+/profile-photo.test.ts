import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { photoChecker } from '#api/media/photo-check.ts'
import { maxPhotoBytes } from '#contract/limits.ts'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import { action } from './profile-photo.tsx'

/**
 * Onboarding's profile photo as the browser posts it without JavaScript (a multipart form),
 * through the real API and its real face check (tests/fixtures/photos): each refusal is said
 * next to the photo field, and a photo of one face is saved on the profile.
 */
let database: TestDatabase
let web: WebHarness

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
}, 60_000)

afterAll(async () => {
  await photoChecker.stop()
  await web?.close()
  await database?.drop()
})

const fixture = async (name: string) =>
  new File([await readFile(path.join(import.meta.dirname, '../../../tests/fixtures/photos', name))], name, { type: 'image/jpeg' })

interface Reply {
  data: { error: Record<string, string[] | null> | undefined }
  init: { status?: number } | null
}

async function newMember() {
  const user = await createUser(database.db, { onboarded_at: null, state: 'created' })
  return { user, cookie: await web.signedInCookie(user.id) }
}

async function post(cookie: string, photo: File | null, query = '') {
  const form = new FormData()
  if (photo) form.set('photo', photo)
  else form.set('photo', new File([], '', { type: 'application/octet-stream' }))
  const request = new Request(`${TEST_PUBLIC_URL}/get-started/profile-photo${query}`, { method: 'POST', headers: { cookie }, body: form })
  return (await action({ request, context: web.newContext(), params: {} }).catch((thrown: unknown) => thrown)) as Response | Reply
}

async function avatarOf(id: string) {
  return (await database.db.selectFrom('users').select('avatar_media_id').where('id', '=', id).executeTakeFirstOrThrow()).avatar_media_id
}

describe('the profile photo step', () => {
  it('saves a photo of one face on the profile and goes on, returnTo kept', async () => {
    const { user, cookie } = await newMember()
    const response = (await post(cookie, await fixture('one-face.jpg'), `?returnTo=${encodeURIComponent('/activities/42')}`)) as Response
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`/get-started/subscription?returnTo=${encodeURIComponent('/activities/42')}`)
    expect(await avatarOf(user.id)).not.toBeNull()
  }, 60_000)

  it('says "no face" next to the field for a photo without a face, and saves nothing', async () => {
    const { user, cookie } = await newMember()
    const reply = (await post(cookie, await fixture('no-face.jpg'))) as Reply
    expect(reply.init?.status).toBe(422)
    expect(reply.data.error?.photo).toEqual(['photo:errors.noFace'])
    expect(await avatarOf(user.id)).toBeNull()
  }, 60_000)

  it('says there is more than one face for a photo of two people', async () => {
    const { cookie } = await newMember()
    const reply = (await post(cookie, await fixture('two-faces.jpg'))) as Reply
    expect(reply.init?.status).toBe(422)
    expect(reply.data.error?.photo).toEqual(['photo:errors.multipleFaces'])
  }, 60_000)

  it('asks for a photo when none was chosen', async () => {
    const { cookie } = await newMember()
    const reply = (await post(cookie, null)) as Reply
    expect(reply.init?.status).toBe(400)
    expect(reply.data.error?.photo).toEqual(['photo:errors.required'])
  })

  it('says which formats for a GIF named .jpg (415), and too large over 15 MB (413)', async () => {
    const { cookie } = await newMember()
    const gif = new File([new TextEncoder().encode('GIF89a\u0001\u0000\u0001\u0000')], 'me.jpg', { type: 'image/jpeg' })
    const notPhoto = (await post(cookie, gif)) as Reply
    expect(notPhoto.init?.status).toBe(415)
    expect(notPhoto.data.error?.photo).toEqual(['photo:errors.format'])
    const huge = (await post(cookie, new File([new Uint8Array(maxPhotoBytes + 1)], 'me.jpg', { type: 'image/jpeg' }))) as Reply
    expect(huge.init?.status).toBe(413)
    expect(huge.data.error?.photo).toEqual(['photo:errors.tooLarge'])
  })

  it('says the content is not allowed when the API refuses it for its content', async () => {
    const { cookie } = await newMember()
    const apiFetch = web.services.apiFetch
    web.services.apiFetch = async (request) =>
      request.method === 'POST' && new URL(request.url).pathname === '/api/v1/medias'
        ? Response.json({ error: { code: 'inappropriate_content', message: "This photo's content is not allowed." } }, { status: 422 })
        : apiFetch(request)
    try {
      const reply = (await post(cookie, await fixture('one-face.jpg'))) as Reply
      expect(reply.init?.status).toBe(422)
      expect(reply.data.error?.photo).toEqual(['photo:errors.content'])
    } finally {
      web.services.apiFetch = apiFetch
    }
  })
})
