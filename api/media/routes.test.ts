import { randomBytes } from 'node:crypto'
import { request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose'
import { serve } from '@hono/node-server'
import { setupServer } from 'msw/node'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiApp } from '#api/app.ts'
import type { ApiServices } from '#api/http/context.ts'
import { parseEnv } from '#api/env.ts'
import { createTokenVerifier } from '#api/providers/identity/token-verifier.ts'
import { createMailer } from '#api/providers/email/mailer.ts'
import { createLogger } from '#api/logger.ts'
import { TEST_PUBLIC_URL, createUser, builtinAfterCommit } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { s3Handlers } from '#tests/msw/s3.ts'
import { MAX_UPLOAD_BYTES } from './images.ts'
import { createBuiltinPlacesProvider } from '../providers/maps/builtin.ts'
import { MAX_UPLOAD_BODY_BYTES } from './multipart.ts'
import { createMediaStorage } from '../providers.ts'
import { createLocalStorage } from '../providers/storage/local.ts'
import { S3Error, createS3Storage } from '../providers/storage/s3.ts'
import type { MediaStorage } from '../providers/storage/storage.ts'

/**
 * The API as createApiApp builds it, with the given media storage.
 */
async function createMediaApi(db: TestDatabase['db'], media: MediaStorage) {
  const env = parseEnv({ NODE_ENV: 'test', PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: 'silent' })
  const issuer = `${env.PUBLIC_URL}/oidc`
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true })
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' }
  const verifyToken = createTokenVerifier({
    issuer,
    audience: env.API_AUDIENCE,
    localJwks: { keys: [jwk] },
  })
  const services: ApiServices = {
    env,
    db,
    logger: createLogger(env),
    verifyToken,
    media,
    places: createBuiltinPlacesProvider(db),
    ...builtinAfterCommit(db),
    mailer: createMailer({ db }),
    codeSecret: 'a test code secret',
  }
  const app = createApiApp(services)

  const signToken = (sub: string, key: CryptoKey = privateKey) =>
    new SignJWT({ scope: 'openid' })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key', typ: 'at+jwt' })
      .setIssuer(issuer)
      .setAudience(env.API_AUDIENCE)
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(key)
  const fetch = (pathname: string, init: RequestInit & { token?: string } = {}) => {
    const headers = new Headers(init.headers)
    if (init.token) headers.set('authorization', `Bearer ${init.token}`)
    return app.fetch(new Request(`${env.PUBLIC_URL}${pathname}`, { ...init, headers }))
  }
  return { app, signToken, fetch }
}

type MediaApi = Awaited<ReturnType<typeof createMediaApi>>

function uploadForm(target: string, bytes: Uint8Array, name = 'photo.jpg', type = 'image/jpeg') {
  const form = new FormData()
  form.set('target', target)
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name, { type }))
  return form
}

const coverPhoto = () =>
  sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#c33' } })
    .jpeg()
    .withMetadata({ exif: { IFD0: { Copyright: 'secret' } } })
    .toBuffer()

let database: TestDatabase
let mediaDir: string
let api: MediaApi

beforeAll(async () => {
  database = await createTestDatabase()
  mediaDir = await mkdtemp(path.join(tmpdir(), 'circle55-media-'))
  api = await createMediaApi(database.db, createLocalStorage(mediaDir))
})

afterAll(async () => {
  await database?.drop()
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
})

async function member() {
  const user = await createUser(database.db)
  return { user, token: await api.signToken(user.id) }
}

async function upload(token: string, form: FormData, target = api) {
  const response = await target.fetch('/api/v1/medias', { method: 'POST', body: form, token })
  return { status: response.status, json: await response.json() }
}

async function createExperience(hostId: string, coverMediaId: string | null, canceled = false) {
  return database.db
    .insertInto('experiences')
    .values({
      slug: `walk-${randomBytes(4).toString('hex')}`,
      host_id: hostId,
      title: 'Morning walk',
      venue_type: 'in_person',
      cover_media_id: coverMediaId,
      canceled_at: canceled ? new Date() : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
}

describe('POST /api/v1/medias', () => {
  it('answers 401 without a token', async () => {
    const response = await api.fetch('/api/v1/medias', {
      method: 'POST',
      body: uploadForm('experience_cover', await coverPhoto()),
    })
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } })
  })

  it('stores a cover and its thumbnail under random keys, served back as JPEG', async () => {
    const { user, token } = await member()
    const { status, json } = await upload(
      token,
      uploadForm('experience_cover', await coverPhoto(), '../../etc/passwd'),
    )
    expect(status).toBe(200)
    const [item] = json.data
    expect(item).toMatchObject({
      id: expect.any(String),
      target: 'experience_cover',
      width: 1200,
      height: 600,
    })
    expect(item.url).toMatch(/^\/api\/media\/covers\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.jpg$/)
    expect(item.thumbnail_url).toMatch(
      /^\/api\/media\/covers\/\d{4}\/\d{2}\/[0-9a-f-]{36}-thumb\.jpg$/,
    )

    const row = await database.db
      .selectFrom('media')
      .selectAll()
      .where('id', '=', item.id)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({
      owner_id: user.id,
      target: 'experience_cover',
      mime_type: 'image/jpeg',
      width: 1200,
      height: 600,
      storage_key: item.url.slice('/api/media/'.length),
      thumbnail_key: item.thumbnail_url.slice('/api/media/'.length),
    })

    for (const [url, size] of [
      [item.url, [1200, 600]],
      [item.thumbnail_url, [450, 150]],
    ] as const) {
      const response = await api.fetch(url)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('image/jpeg')
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      const bytes = Buffer.from(await response.arrayBuffer())
      expect(bytes.byteLength).toBe(url === item.url ? row.bytes : bytes.byteLength)
      const metadata = await sharp(bytes).metadata()
      expect([metadata.width, metadata.height]).toEqual(size)
      expect(metadata.exif).toBeUndefined()
      expect(bytes.includes('secret')).toBe(false)
    }
  })

  it('accepts a PNG whose name and declared type say JPEG', async () => {
    const { token } = await member()
    const png = await sharp({
      create: { width: 800, height: 800, channels: 4, background: '#3c38' },
    })
      .png()
      .toBuffer()
    // (A profile photo must show a face: avatar.test.ts.)
    const { status, json } = await upload(token, uploadForm('message', png, 'me.jpg', 'image/jpeg'))
    expect(status).toBe(200)
    expect(json.data[0]).toMatchObject({ target: 'message', width: 800, height: 800 })
  })

  it('answers 415 to a GIF or a text file named photo.jpg', async () => {
    const { token } = await member()
    const gif = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#00f' } })
      .gif()
      .toBuffer()
    for (const bytes of [gif, Buffer.from('hello, not a photo')]) {
      const { status, json } = await upload(token, uploadForm('experience_cover', bytes))
      expect(status).toBe(415)
      expect(json).toEqual({
        error: { code: 'invalid_format', message: 'Photos must be JPEG or PNG.' },
      })
    }
  })

  it('answers 422 to an unknown target or a missing file, 400 to a JSON body', async () => {
    const { token } = await member()
    const wrongTarget = await upload(token, uploadForm('banner', await coverPhoto()))
    expect(wrongTarget.status).toBe(422)
    expect(wrongTarget.json.error.fields).toHaveProperty('target')

    const form = new FormData()
    form.set('target', 'avatar')
    const noFile = await upload(token, form)
    expect(noFile.status).toBe(422)
    expect(noFile.json.error.fields).toEqual({ file: ['required'] })

    const json = await api.fetch('/api/v1/medias', {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json' },
      body: '{"target":"avatar"}',
    })
    expect(json.status).toBe(400)
  })

  it('answers 413 to a declared Content-Length over the limit without reading the body', async () => {
    const { token } = await member()
    const body = countingMultipartBody(16 * 1024 * 1024)
    const response = await api.fetch('/api/v1/medias', {
      method: 'POST',
      token,
      body: body.stream,
      duplex: 'half',
      headers: {
        'content-type': `multipart/form-data; boundary=${body.boundary}`,
        'content-length': String(body.total),
      },
    })
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({ error: { code: 'too_large' } })
    expect(body.pulled()).toBeLessThanOrEqual(64 * 1024) // at most what the stream pre-buffers
  })

  it('answers 413 to a 16 MB streamed upload as soon as the limit is passed, before the body ends', async () => {
    const { token } = await member()
    // No Content-Length (chunked): the handler can only count the bytes as they arrive.
    const body = countingMultipartBody(16 * 1024 * 1024)
    const response = await api.fetch('/api/v1/medias', {
      method: 'POST',
      token,
      body: body.stream,
      duplex: 'half',
      headers: { 'content-type': `multipart/form-data; boundary=${body.boundary}` },
    })
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({ error: { code: 'too_large' } })
    // It stopped reading one chunk past the limit: the last megabyte was never pulled, so it
    // was never in memory either (the request stream is pull-based).
    expect(body.pulled()).toBeGreaterThan(MAX_UPLOAD_BODY_BYTES)
    expect(body.pulled()).toBeLessThan(MAX_UPLOAD_BODY_BYTES + 3 * body.chunkSize)
    expect(body.finished()).toBe(false)
  })

  it('accepts a photo of exactly 15 MB (the multipart overhead is allowed for)', async () => {
    // A JPEG followed by filler up to the limit: libvips ignores bytes after the end marker.
    const { token } = await member()
    const jpeg = await coverPhoto()
    const padded = new Uint8Array(MAX_UPLOAD_BYTES)
    padded.set(jpeg)
    const { status } = await upload(token, uploadForm('experience_cover', padded))
    expect(status).toBe(200)
  })

  it('answers 413 to more parts than target and file (and a spare), before parsing them', async () => {
    const { token } = await member()
    const photo = await coverPhoto()
    const spare = uploadForm('experience_cover', photo)
    spare.set('caption', 'A walk')
    expect((await upload(token, spare)).status).toBe(200)

    const form = uploadForm('experience_cover', photo)
    for (let index = 0; index < 5000; index++) form.append(`extra${index}`, 'x')
    const { status, json } = await upload(token, form)
    expect(status).toBe(413)
    expect(json).toMatchObject({ error: { code: 'payload_too_large' } })
  })
})

describe('POST /api/v1/medias over real HTTP', () => {
  it('sends the 413 to a client still uploading 16 MB, then drops the rest', async () => {
    const { token } = await member()
    const server = await new Promise<Server>((resolve) => {
      const started = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
        resolve(started as Server),
      )
    })
    try {
      const { port } = server.address() as AddressInfo
      const body = countingMultipartBody(16 * 1024 * 1024)
      const reader = body.stream.getReader()
      const result = await new Promise<{ status: number; text: string; sent: number }>(
        (resolve, reject) => {
          let sent = 0
          const request = httpRequest({
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/v1/medias',
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': `multipart/form-data; boundary=${body.boundary}`,
            },
          })
          request.on('response', (response) => {
            let text = ''
            response.setEncoding('utf8')
            response.on('data', (chunk: string) => (text += chunk))
            response.on('end', () => resolve({ status: response.statusCode ?? 0, text, sent }))
          })
          // The server may close the socket while we still write: that is expected.
          request.on('error', (error) => (sent > MAX_UPLOAD_BODY_BYTES ? undefined : reject(error)))
          const pump = async () => {
            for (;;) {
              const { done, value } = await reader.read()
              if (done || request.destroyed) break
              sent += value.byteLength
              if (!request.write(value))
                await new Promise((next) => request.once('drain', next).once('close', next))
            }
            request.end()
          }
          pump().catch(reject)
        },
      )
      expect(result.status).toBe(413)
      expect(JSON.parse(result.text)).toMatchObject({ error: { code: 'too_large' } })
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

/**
 * A multipart body carrying `target` and a `size`-byte "JPEG", produced lazily in 64 kB chunks
 * and counting how much the server pulled.
 */
function countingMultipartBody(size: number) {
  const boundary = `----circle55${randomBytes(8).toString('hex')}`
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="target"\r\n\r\nexperience_cover\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  const chunkSize = 64 * 1024
  const total = head.byteLength + size + tail.byteLength
  let sent = 0
  let fileSent = 0
  let done = false
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        let chunk: Uint8Array
        if (sent === 0) chunk = head
        else if (fileSent < size) {
          chunk = new Uint8Array(Math.min(chunkSize, size - fileSent)).fill(0xab)
          if (fileSent === 0) chunk.set([0xff, 0xd8, 0xff])
          fileSent += chunk.byteLength
        } else if (!done) {
          chunk = tail
          done = true
        } else {
          controller.close()
          return
        }
        sent += chunk.byteLength
        controller.enqueue(chunk)
      },
    },
    { highWaterMark: 0 },
  )
  return { stream, boundary, total, chunkSize, pulled: () => sent, finished: () => done }
}

describe('POST /api/v1/medias/duplicate', () => {
  it("copies an activity's cover into new keys and a new row owned by the caller", async () => {
    const host = await member()
    const cover = (await upload(host.token, uploadForm('experience_cover', await coverPhoto())))
      .json.data[0]
    const experience = await createExperience(host.user.id, cover.id)

    const other = await member()
    const response = await api.fetch('/api/v1/medias/duplicate', {
      method: 'POST',
      token: other.token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ experience_id: experience.id }),
    })
    expect(response.status).toBe(200)
    const copy = (await response.json()).data[0]
    expect(copy).toMatchObject({ target: 'experience_cover', width: 1200, height: 600 })
    expect(copy.id).not.toBe(cover.id)
    expect(copy.url).not.toBe(cover.url)
    expect(copy.thumbnail_url).not.toBe(cover.thumbnail_url)

    const rows = await database.db
      .selectFrom('media')
      .selectAll()
      .where('id', 'in', [cover.id, copy.id])
      .execute()
    const original = rows.find((row) => row.id === cover.id)!
    const duplicate = rows.find((row) => row.id === copy.id)!
    expect(duplicate).toMatchObject({
      owner_id: other.user.id,
      bytes: original.bytes,
      mime_type: 'image/jpeg',
    })
    expect(duplicate.storage_key).not.toBe(original.storage_key)

    const [before, after] = await Promise.all([api.fetch(cover.url), api.fetch(copy.url)])
    expect(after.status).toBe(200)
    expect(Buffer.from(await after.arrayBuffer())).toEqual(Buffer.from(await before.arrayBuffer()))
    expect((await api.fetch(copy.thumbnail_url)).status).toBe(200)
  })

  it('answers 404 for an unknown or cancelled activity, or one without a cover', async () => {
    const { user, token } = await member()
    const other = await member()
    const cover = (await upload(other.token, uploadForm('experience_cover', await coverPhoto())))
      .json.data[0]
    const cancelled = await createExperience(other.user.id, cover.id, true)
    const coverless = await createExperience(user.id, null)
    for (const experienceId of [crypto.randomUUID(), 'not-a-uuid', cancelled.id, coverless.id]) {
      const response = await api.fetch('/api/v1/medias/duplicate', {
        method: 'POST',
        token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ experience_id: experienceId }),
      })
      expect(response.status).toBe(404)
      expect(await response.json()).toMatchObject({ error: { code: 'not_found' } })
    }
  })

  it('answers 401 without a token', async () => {
    const response = await api.fetch('/api/v1/medias/duplicate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ experience_id: crypto.randomUUID() }),
    })
    expect(response.status).toBe(401)
  })
})

describe('GET /api/media/*', () => {
  it('answers 404 for a missing key and for keys that try to leave the media directory', async () => {
    for (const url of [
      '/api/media/covers/2026/11/00000000-0000-0000-0000-000000000000.jpg',
      '/api/media/../package.json',
      '/api/media/%2e%2e/%2e%2e/package.json',
      '/api/media/covers/..%2f..%2fpackage.json',
      '/api/media/%2Fetc%2Fpasswd',
      '/api/media/.hidden.tmp',
    ]) {
      const response = await api.fetch(url)
      expect(response.status, url).toBe(404)
    }
  })
})

describe('local storage', () => {
  it('puts, gets, copies and deletes; refuses keys outside its directory', async () => {
    const storage = createLocalStorage(mediaDir)
    await storage.put('tests/a.png', new Uint8Array([1, 2, 3]), 'image/png')
    expect(await storage.get('tests/a.png')).toEqual({
      body: new Uint8Array([1, 2, 3]),
      contentType: 'image/png',
    })
    await storage.copy('tests/a.png', 'tests/b.png')
    expect((await storage.get('tests/b.png'))?.body).toEqual(new Uint8Array([1, 2, 3]))
    await storage.delete('tests/a.png')
    await storage.delete('tests/a.png')
    expect(await storage.get('tests/a.png')).toBeNull()
    expect(await readdir(path.join(mediaDir, 'tests'))).toEqual(['b.png'])
    await expect(storage.put('../escape.png', new Uint8Array([1]), 'image/png')).rejects.toThrow(
      /Invalid media key/,
    )
    await expect(storage.put('/tmp/escape.png', new Uint8Array([1]), 'image/png')).rejects.toThrow(
      /Invalid media key/,
    )
    expect(await storage.get('../../package.json')).toBeNull()
    expect(storage.publicUrl('covers/x.jpg')).toBe('/api/media/covers/x.jpg')
  })
})

describe('S3 storage', () => {
  const config = {
    endpoint: 'https://s3.test.example',
    bucket: 'circle55-media',
    region: 'eu-west-1',
    accessKeyId: 'AKIATESTKEY',
    secretAccessKey: 'test-secret-key',
  }
  const s3 = s3Handlers(config)
  const server = setupServer(...s3.handlers)

  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterAll(() => server.close())

  it('puts, gets, copies and deletes over the signed REST API', async () => {
    const storage = createS3Storage({ ...config, publicBaseUrl: 'https://cdn.test.example/' })
    await storage.put('covers/2026/11/a.jpg', new Uint8Array([0xff, 0xd8, 0xff, 1]), 'image/jpeg')
    expect(s3.objects.get('covers/2026/11/a.jpg')).toMatchObject({ contentType: 'image/jpeg' })
    expect(await storage.get('covers/2026/11/a.jpg')).toEqual({
      body: new Uint8Array([0xff, 0xd8, 0xff, 1]),
      contentType: 'image/jpeg',
    })
    expect(await storage.get('covers/2026/11/missing.jpg')).toBeNull()
    await storage.copy('covers/2026/11/a.jpg', 'covers/2026/11/b.jpg')
    expect((await storage.get('covers/2026/11/b.jpg'))?.body).toEqual(
      new Uint8Array([0xff, 0xd8, 0xff, 1]),
    )
    await expect(
      storage.copy('covers/2026/11/missing.jpg', 'covers/2026/11/c.jpg'),
    ).rejects.toMatchObject({
      status: 404,
      code: 'NoSuchKey',
    })
    await storage.delete('covers/2026/11/a.jpg')
    expect(await storage.get('covers/2026/11/a.jpg')).toBeNull()
    expect(storage.publicUrl('covers/2026/11/b.jpg')).toBe(
      'https://cdn.test.example/covers/2026/11/b.jpg',
    )
    expect(s3.requests).toContain('PUT /circle55-media/covers/2026/11/b.jpg')
  })

  it('is refused by the bucket with a wrong secret (the signature is checked)', async () => {
    const storage = createS3Storage({ ...config, secretAccessKey: 'wrong' })
    const error: unknown = await storage
      .put('x/y.jpg', new Uint8Array([1]), 'image/jpeg')
      .catch((reason: unknown) => reason)
    expect(error).toBeInstanceOf(S3Error)
    expect(error).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' })
  })

  it('serves uploads and duplicates through the API when the bucket is the storage', async () => {
    const storage = createMediaStorage({
      S3_ENDPOINT: config.endpoint,
      S3_BUCKET: config.bucket,
      S3_REGION: config.region,
      S3_ACCESS_KEY_ID: config.accessKeyId,
      S3_SECRET_ACCESS_KEY: config.secretAccessKey,
    })
    const s3Api = await createMediaApi(database.db, storage)
    const user = await createUser(database.db)
    const token = await s3Api.signToken(user.id)
    const { status, json } = await upload(
      token,
      uploadForm('experience_cover', await coverPhoto()),
      s3Api,
    )
    expect(status).toBe(200)
    const cover = json.data[0]
    const key = cover.url.slice('/api/media/'.length)
    expect(s3.objects.get(key)).toMatchObject({ contentType: 'image/jpeg' })

    const served = await s3Api.fetch(cover.url)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/jpeg')

    const experience = await createExperience(user.id, cover.id)
    const response = await s3Api.fetch('/api/v1/medias/duplicate', {
      method: 'POST',
      token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ experience_id: experience.id }),
    })
    const copy = (await response.json()).data[0]
    expect(s3.objects.has(copy.url.slice('/api/media/'.length))).toBe(true)
    expect(s3.objects.has(copy.thumbnail_url.slice('/api/media/'.length))).toBe(true)
  })

  it('is chosen only when configured, and then completely', () => {
    expect(createMediaStorage({ MEDIA_DIR: mediaDir }).publicUrl('a/b.jpg')).toBe(
      '/api/media/a/b.jpg',
    )
    expect(() => createMediaStorage({ S3_BUCKET: 'only-a-bucket' })).toThrow(/must be set together/)
  })
})
