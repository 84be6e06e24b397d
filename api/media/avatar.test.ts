import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createLocalStorage } from '../providers/storage/local.ts'
import type { MediaStorage } from '../providers/storage/storage.ts'
import { checkUnavailable, createPhotoChecker, type PhotoChecker } from './photo-check.ts'

/** Real photos (tests/fixtures/photos/LICENSE.md) through the real face and content models. */
const fixture = (name: string) => readFile(path.join(import.meta.dirname, '../../tests/fixtures/photos', name))

let database: TestDatabase
let mediaDir: string
let storage: MediaStorage
let checker: PhotoChecker
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  mediaDir = await mkdtemp(path.join(tmpdir(), 'circle55-avatars-'))
  storage = createLocalStorage(mediaDir)
  checker = createPhotoChecker()
  // The models load once, on the first photo: here, rather than in the first test.
  await checker.inspect(sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } }))
  api = await createApiHarness(database.db, {}, { media: storage, photoChecker: checker })
})

afterAll(async () => {
  await checker?.stop()
  await database?.drop()
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
})

async function member() {
  const user = await createUser(database.db)
  return { user, token: await api.signToken(user.id) }
}

async function uploadAvatar(token: string, bytes: Uint8Array, target = 'avatar', through = api) {
  const form = new FormData()
  form.set('target', target)
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], 'me.jpg', { type: 'image/jpeg' }))
  const response = await through.app.fetch(
    new Request(`${through.env.PUBLIC_URL}/api/v1/medias`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}` },
    }),
  )
  return { status: response.status, json: (await response.json()) }
}

/** The bytes behind a media URL, through the API (`/api/media/<key>`). */
async function download(url: string) {
  const response = await api.app.fetch(new Request(new URL(url, api.env.PUBLIC_URL)))
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) }
}

describe('POST v1/medias with target avatar: the photo check', () => {
  it('keeps a photo of one face as a 400×400 square and a 96×96 thumbnail, under random names', async () => {
    const { token } = await member()
    const { status, json } = await uploadAvatar(token, await fixture('one-face.jpg'))
    expect(status).toBe(200)
    const media = json.data[0]
    expect(media).toMatchObject({ target: 'avatar', width: 400, height: 400 })
    expect(media.url).toMatch(/^\/api\/media\/avatars\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.jpg$/)
    const main = await download(media.url)
    const thumbnail = await download(media.thumbnail_url)
    expect(await sharp(main.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 400, height: 400 })
    expect(await sharp(thumbnail.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 96, height: 96 })
  })

  it('centres the square on the face', async () => {
    // The face of one-face.jpg sits left of the middle; a plain centre crop would cut into it.
    const { token } = await member()
    const bytes = await fixture('one-face.jpg')
    // The same photo with a wide grey margin on its right: the face is now far from the centre.
    const widened = await sharp(bytes).extend({ right: 900, background: '#888' }).jpeg().toBuffer()
    const { status, json } = await uploadAvatar(token, widened)
    expect(status).toBe(200)
    const kept = await download(json.data[0].url)
    // Had the square been centred on the picture, it would be mostly the grey margin.
    const { channels } = await sharp(kept.bytes).stats()
    const grey = channels.every((channel) => Math.abs(channel.mean - 136) < 8 && channel.stdev < 10)
    expect(grey).toBe(false)
    const margin = await sharp(kept.bytes).extract({ left: 300, top: 0, width: 100, height: 400 }).stats()
    expect(margin.channels[0]!.stdev).toBeGreaterThan(10)
  })

  it('checks a black-and-white JPEG and a 16-bit PNG with transparency the same way', async () => {
    const { token } = await member()
    const bytes = await fixture('one-face.jpg')
    const grey = await sharp(bytes).greyscale().jpeg().toBuffer()
    const deep = await sharp(bytes).ensureAlpha(0.8).toColourspace('rgb16').png().toBuffer()
    expect((await sharp(deep).metadata()).depth).toBe('ushort')
    for (const photo of [grey, deep]) {
      const { status, json } = await uploadAvatar(token, photo)
      expect(status).toBe(200)
      expect(json.data[0]).toMatchObject({ width: 400, height: 400 })
    }
  })

  it('strips the GPS position and every other metadata', async () => {
    const { token } = await member()
    const withGps = await sharp(await fixture('one-face.jpg'))
      .jpeg()
      .withExif({
        IFD0: { Artist: 'Jane Roe', Copyright: 'secret' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 26/1 4601/100', GPSLongitudeRef: 'W', GPSLongitude: '79/1 58/1 3600/100' },
      })
      .toBuffer()
    const before = await sharp(withGps).metadata()
    expect(before.exif?.includes('GPS') || before.exif?.includes('Jane Roe')).toBe(true)

    const { status, json } = await uploadAvatar(token, withGps)
    expect(status).toBe(200)
    for (const url of [json.data[0].url, json.data[0].thumbnail_url]) {
      const { bytes } = await download(url)
      const after = await sharp(bytes).metadata()
      expect(after.exif).toBeUndefined()
      expect(after.xmp).toBeUndefined()
      expect(Buffer.from(bytes).includes('Jane Roe')).toBe(false)
      expect(Buffer.from(bytes).includes('GPS')).toBe(false)
    }
  })

  it('refuses a photo with no face: 422 no_face, "no face" in the message', async () => {
    const { token } = await member()
    const { status, json } = await uploadAvatar(token, await fixture('no-face.jpg'))
    expect(status).toBe(422)
    expect(json.error.code).toBe('no_face')
    expect(json.error.message).toContain('no face')
  })

  it('refuses a photo of two or more people: 422 multiple_faces, "face(s)" in the message', async () => {
    const { token } = await member()
    for (const name of ['two-faces.jpg', 'several-faces.jpg']) {
      const { status, json } = await uploadAvatar(token, await fixture(name))
      expect(status).toBe(422)
      expect(json.error.code).toBe('multiple_faces')
      expect(json.error.message).toContain('face(s)')
    }
  })

  it('stores nothing for a refused photo', async () => {
    const { user, token } = await member()
    await uploadAvatar(token, await fixture('two-faces.jpg'))
    const rows = await database.db.selectFrom('media').select('id').where('owner_id', '=', user.id).execute()
    expect(rows).toEqual([])
  })

  it('still refuses GIFs (415) before looking for faces', async () => {
    const { token } = await member()
    const gif = await sharp(await fixture('one-face.jpg')).gif().toBuffer()
    expect((await uploadAvatar(token, gif)).status).toBe(415)
  })

  it('does not look for faces on activity covers', async () => {
    const { token } = await member()
    const { status, json } = await uploadAvatar(token, await fixture('no-face.jpg'), 'experience_cover')
    expect(status).toBe(200)
    expect(json.data[0]).toMatchObject({ width: 1200, height: 600 })
  })
})

describe('inappropriate content', () => {
  it('refuses with 422 inappropriate_content, "content" in the message', async () => {
    // No explicit photo ships with the project: a checker whose classifier "sees" one.
    const explicit: PhotoChecker = {
      inspect: async () => ({
        width: 400,
        height: 400,
        faces: [{ score: 0.99, x: 150, y: 100, width: 100, height: 120 }],
        content: { Porn: 0.82, Hentai: 0.03, Sexy: 0.1, Neutral: 0.04, Drawing: 0.01 },
      }),
      warmUp: () => undefined,
      stop: async () => undefined,
    }
    const harness = await createApiHarness(database.db, {}, { media: storage, photoChecker: explicit })
    const user = await createUser(database.db)
    const { status, json } = await uploadAvatar(await harness.signToken(user.id), await fixture('one-face.jpg'), 'avatar', harness)
    expect(status).toBe(422)
    expect(json.error.code).toBe('inappropriate_content')
    expect(json.error.message).toContain('content')
  })
})

describe('a check that cannot run', () => {
  it('answers 503 photo_check_unavailable (try again), not that the photo is wrong', async () => {
    const broken: PhotoChecker = {
      inspect: () => Promise.reject(checkUnavailable(new Error('The photo check stopped'))),
      warmUp: () => undefined,
      stop: async () => undefined,
    }
    const harness = await createApiHarness(database.db, {}, { media: storage, photoChecker: broken })
    const user = await createUser(database.db)
    const { status, json } = await uploadAvatar(await harness.signToken(user.id), await fixture('one-face.jpg'), 'avatar', harness)
    expect(status).toBe(503)
    expect(json.error.code).toBe('photo_check_unavailable')
  })
})

describe('PUT and DELETE v1/users/me/avatar', () => {
  it('puts the uploaded photo on the profile: v1/users/me and users/{id} show it', async () => {
    const { user, token } = await member()
    const media = (await uploadAvatar(token, await fixture('one-face.jpg'))).json.data[0]
    const put = await api.request('PUT', 'v1/users/me/avatar', { token, body: { file_name: media.id } })
    expect(put.status).toBe(200)
    expect(put.json.data[0].avatar).toEqual({ url: media.url })

    const me = await api.request('GET', 'v1/users/me', { token })
    expect(me.json.data[0].avatar).toEqual({ url: media.url })
    const other = await member()
    const profile = await api.request('GET', `users/${user.id}`, { token: other.token })
    expect(profile.json.avatar).toEqual({ url: media.url })

    // A suspended member's photo is not shown (as in attendee lists).
    await database.db.updateTable('users').set({ is_suspended: true }).where('id', '=', user.id).execute()
    const suspended = await api.request('GET', `users/${user.id}`, { token: other.token })
    expect(suspended.json).toEqual({ id: user.id, slug: user.slug, display_name: null, is_suspended: true })
  })

  it('takes the photo by its URL too', async () => {
    const { token } = await member()
    const media = (await uploadAvatar(token, await fixture('one-face.jpg'))).json.data[0]
    const put = await api.request('PUT', 'v1/users/me/avatar', { token, body: { file_name: media.url } })
    expect(put.status).toBe(200)
    expect(put.json.data[0].avatar).toEqual({ url: media.url })
  })

  it('deletes the old photo files when the member replaces their photo', async () => {
    const { token } = await member()
    const first = (await uploadAvatar(token, await fixture('one-face.jpg'))).json.data[0]
    await api.request('PUT', 'v1/users/me/avatar', { token, body: { file_name: first.id } })
    const second = (await uploadAvatar(token, await fixture('one-face.jpg'))).json.data[0]
    expect((await api.request('PUT', 'v1/users/me/avatar', { token, body: { file_name: second.id } })).status).toBe(200)

    expect((await download(first.url)).status).toBe(404)
    expect((await download(first.thumbnail_url)).status).toBe(404)
    expect((await download(second.url)).status).toBe(200)
    const gone = await database.db.selectFrom('media').select('id').where('id', '=', first.id).executeTakeFirst()
    expect(gone).toBeUndefined()
  })

  it('removes the photo (204) and deletes its files', async () => {
    const { token } = await member()
    const media = (await uploadAvatar(token, await fixture('one-face.jpg'))).json.data[0]
    await api.request('PUT', 'v1/users/me/avatar', { token, body: { file_name: media.id } })
    expect((await api.request('DELETE', 'v1/users/me/avatar', { token })).status).toBe(204)
    expect((await api.request('GET', 'v1/users/me', { token })).json.data[0].avatar).toBeNull()
    expect((await download(media.url)).status).toBe(404)
    // Nothing left to remove is fine.
    expect((await api.request('DELETE', 'v1/users/me/avatar', { token })).status).toBe(204)
  })

  it("refuses another member's photo (404) and a photo uploaded as a cover (422)", async () => {
    const owner = await member()
    const theirs = (await uploadAvatar(owner.token, await fixture('one-face.jpg'))).json.data[0]
    const { token } = await member()
    const stolen = await api.request('PUT', 'v1/users/me/avatar', { token, body: { file_name: theirs.id } })
    expect(stolen.status).toBe(404)
    const cover = (await uploadAvatar(token, await fixture('no-face.jpg'), 'experience_cover')).json.data[0]
    const wrong = await api.request('PUT', 'v1/users/me/avatar', { token, body: { file_name: cover.id } })
    expect(wrong.status).toBe(422)
    expect((await api.request('PUT', 'v1/users/me/avatar', { token, body: {} })).status).toBe(422)
    expect((await api.request('PUT', 'v1/users/me/avatar', { token, body: { file_name: 'nope' } })).status).toBe(404)
  })
})
