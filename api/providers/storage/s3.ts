import { AwsClient } from 'aws4fetch'
import { MEDIA_URL_PREFIX, assertKey, contentTypeForKey, isValidMediaKey, type MediaStorage } from './storage.ts'

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
