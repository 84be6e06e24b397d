import { randomBytes, randomUUID } from 'node:crypto'
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { AwsClient } from 'aws4fetch'
import type { MediaTable } from '../db/schema.ts'

/**
 * Where uploaded photos live (ARCHITECTURE): files under `.data/media` by default, an
 * S3-compatible bucket (AWS S3, R2, MinIO…) when configured. Keys are made on the server
 * (`covers/2026/11/<uuid>.jpg`), never from a client's file name.
 */
export interface StoredObject {
  body: Uint8Array
  contentType: string
}

export interface MediaStorage {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>
  /** The object, or null when there is none under `key`. */
  get(key: string): Promise<StoredObject | null>
  copy(fromKey: string, toKey: string): Promise<void>
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>
  /** Where browsers fetch the object: absolute for a public bucket, `/api/media/<key>` otherwise. */
  publicUrl(key: string): string
}

export type MediaTarget = MediaTable['target']

/** Served by `GET /api/media/*` (the API's basePath is /api). */
export const MEDIA_URL_PREFIX = '/api/media'

const FOLDERS: Record<MediaTarget, string> = {
  avatar: 'avatars',
  experience_cover: 'covers',
  verification: 'verification',
  message: 'messages',
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
}

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
}

/**
 * A fresh random key and its thumbnail's: `covers/2026/11/<uuid>.jpg` and
 * `covers/2026/11/<uuid>-thumb.jpg`.
 */
export function newMediaKeys(target: MediaTarget, contentType: string, now = new Date()) {
  const extension = EXTENSIONS[contentType] ?? 'bin'
  const month = String(now.getUTCMonth() + 1).padStart(2, '0')
  const base = `${FOLDERS[target]}/${now.getUTCFullYear()}/${month}/${randomUUID()}`
  return { key: `${base}.${extension}`, thumbnailKey: `${base}-thumb.${extension}` }
}

/**
 * Keys are slash-separated segments of letters, digits, `-`, `_` and `.`, none starting with a
 * dot: no `..`, no absolute paths, no hidden (temporary) files, no backslashes or NULs.
 */
const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*(\/[A-Za-z0-9][A-Za-z0-9_.-]*)*$/

export function isValidMediaKey(key: string) {
  return key.length <= 512 && KEY_PATTERN.test(key)
}

function assertKey(key: string) {
  if (!isValidMediaKey(key)) throw new Error(`Invalid media key: ${JSON.stringify(key)}`)
}

export function contentTypeForKey(key: string) {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase()
  return CONTENT_TYPES[extension] ?? 'application/octet-stream'
}

/** Files under `dir`; the content type follows from the key's extension. */
export function createLocalStorage(dir = '.data/media'): MediaStorage {
  const root = path.resolve(dir)

  function fileFor(key: string) {
    assertKey(key)
    const file = path.resolve(root, key)
    // Belt and braces: the key pattern already rules out `..` and absolute paths.
    if (!file.startsWith(root + path.sep))
      throw new Error(`Invalid media key: ${JSON.stringify(key)}`)
    return file
  }

  /** Writes through a hidden temporary file and a rename, so readers never see half a file. */
  async function atomically(file: string, write: (temporary: string) => Promise<void>) {
    await mkdir(path.dirname(file), { recursive: true })
    const temporary = path.join(
      path.dirname(file),
      `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`,
    )
    try {
      await write(temporary)
      await rename(temporary, file)
    } catch (error) {
      await rm(temporary, { force: true })
      throw error
    }
  }

  return {
    async put(key, bytes) {
      const file = fileFor(key)
      await atomically(file, (temporary) => writeFile(temporary, bytes))
    },
    async get(key) {
      if (!isValidMediaKey(key)) return null
      try {
        const body = await readFile(fileFor(key))
        return {
          body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
          contentType: contentTypeForKey(key),
        }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null
        throw error
      }
    },
    async copy(fromKey, toKey) {
      const from = fileFor(fromKey)
      const to = fileFor(toKey)
      await atomically(to, (temporary) => copyFile(from, temporary))
    },
    async delete(key) {
      await rm(fileFor(key), { force: true })
    },
    publicUrl(key) {
      return `${MEDIA_URL_PREFIX}/${key}`
    },
  }
}

export interface S3StorageOptions {
  /** e.g. `https://s3.eu-west-1.amazonaws.com`, `https://<account>.r2.cloudflarestorage.com`, `http://localhost:9000`. */
  endpoint: string
  bucket: string
  region: string
  accessKeyId: string
  secretAccessKey: string
  /** A public (CDN) base URL for the bucket; without it, photos are served through `/api/media/<key>`. */
  publicBaseUrl?: string
}

export class S3Error extends Error {
  override name = 'S3Error'
  readonly status: number
  readonly code: string | undefined

  constructor(operation: string, status: number, code: string | undefined, detail: string) {
    super(
      `S3 ${operation} failed: ${status}${code ? ` ${code}` : ''}${detail ? ` (${detail})` : ''}`,
    )
    this.status = status
    this.code = code
  }
}

/**
 * An S3-compatible bucket over the REST API with path-style URLs
 * (`<endpoint>/<bucket>/<key>`), signed with AWS Signature Version 4 by aws4fetch.
 */
export function createS3Storage(options: S3StorageOptions): MediaStorage {
  const endpoint = options.endpoint.replace(/\/+$/, '')
  const publicBase = options.publicBaseUrl?.replace(/\/+$/, '')
  const client = new AwsClient({
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    service: 's3',
    region: options.region,
    retries: 2,
  })

  const objectPath = (key: string) =>
    `/${encodeURIComponent(options.bucket)}/${key.split('/').map(encodeURIComponent).join('/')}`
  function urlFor(key: string) {
    assertKey(key)
    return `${endpoint}${objectPath(key)}`
  }

  async function failure(operation: string, response: Response): Promise<never> {
    const text = await response.text().catch(() => '')
    const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1]
    const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? ''
    throw new S3Error(operation, response.status, code, message)
  }

  return {
    async put(key, bytes, contentType) {
      const response = await client.fetch(urlFor(key), {
        method: 'PUT',
        body: bytes as Uint8Array<ArrayBuffer>,
        headers: {
          'content-type': contentType,
          'content-length': String(bytes.byteLength),
          'cache-control': 'public, max-age=31536000, immutable',
        },
      })
      if (!response.ok) await failure('PutObject', response)
      await discard(response)
    },
    async get(key) {
      if (!isValidMediaKey(key)) return null
      const response = await client.fetch(urlFor(key), { method: 'GET' })
      if (response.status === 404) {
        await discard(response)
        return null
      }
      if (!response.ok) await failure('GetObject', response)
      return {
        body: new Uint8Array(await response.arrayBuffer()),
        contentType: response.headers.get('content-type') ?? contentTypeForKey(key),
      }
    },
    async copy(fromKey, toKey) {
      assertKey(fromKey)
      const response = await client.fetch(urlFor(toKey), {
        method: 'PUT',
        headers: { 'x-amz-copy-source': objectPath(fromKey) },
      })
      if (!response.ok) await failure('CopyObject', response)
      // CopyObject may answer 200 and still fail: the error is then in the body.
      const text = await response.text()
      if (/<Error>/.test(text)) await failure('CopyObject', new Response(text, { status: 500 }))
    },
    async delete(key) {
      const response = await client.fetch(urlFor(key), { method: 'DELETE' })
      if (!response.ok && response.status !== 404) await failure('DeleteObject', response)
      await discard(response)
    },
    publicUrl(key) {
      return publicBase ? `${publicBase}/${key}` : `${MEDIA_URL_PREFIX}/${key}`
    },
  }
}

/** Reads a (small or empty) response to its end, so the connection goes back to the pool. */
async function discard(response: Response) {
  await response.arrayBuffer().catch(() => undefined)
}

export interface MediaStorageOptions {
  /** Directory for local storage; `.data/media` when unset. */
  MEDIA_DIR?: string
  S3_ENDPOINT?: string
  S3_BUCKET?: string
  S3_REGION?: string
  S3_ACCESS_KEY_ID?: string
  S3_SECRET_ACCESS_KEY?: string
  S3_PUBLIC_URL?: string
}

/** S3 when a bucket is configured (endpoint, bucket and both keys set together), local disk otherwise. */
export function createMediaStorage(options: MediaStorageOptions = {}): MediaStorage {
  const s3 = [
    options.S3_ENDPOINT,
    options.S3_BUCKET,
    options.S3_ACCESS_KEY_ID,
    options.S3_SECRET_ACCESS_KEY,
  ]
  const configured = s3.filter(Boolean).length
  if (configured === 0) return createLocalStorage(options.MEDIA_DIR)
  if (configured < s3.length) {
    throw new Error(
      'S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    )
  }
  return createS3Storage({
    endpoint: options.S3_ENDPOINT!,
    bucket: options.S3_BUCKET!,
    region: options.S3_REGION ?? 'us-east-1',
    accessKeyId: options.S3_ACCESS_KEY_ID!,
    secretAccessKey: options.S3_SECRET_ACCESS_KEY!,
    publicBaseUrl: options.S3_PUBLIC_URL,
  })
}
