import { createHash } from 'node:crypto'
import { AwsV4Signer } from 'aws4fetch'
import { http, HttpResponse } from 'msw'

/**
 * An S3-compatible bucket as the REST API documents it, path-style (`<endpoint>/<bucket>/<key>`):
 * PutObject, GetObject (404 NoSuchKey), CopyObject (PUT with x-amz-copy-source) and
 * DeleteObject (204 even when missing). Every request must carry a SigV4 Authorization header
 * for the configured access key; the signature itself is recomputed and compared.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_Operations_Amazon_Simple_Storage_Service.html
 */
export interface S3Object {
  body: Uint8Array
  contentType: string
  etag: string
}

export interface S3Mock {
  handlers: ReturnType<typeof http.all>[]
  /** Objects by key, for assertions and seeding. */
  objects: Map<string, S3Object>
  /** Every request seen, as `METHOD /bucket/key`. */
  requests: string[]
}

export function s3Handlers(options: {
  endpoint: string
  bucket: string
  region: string
  accessKeyId: string
  secretAccessKey: string
}): S3Mock {
  const endpoint = options.endpoint.replace(/\/+$/, '')
  const objects = new Map<string, S3Object>()
  const requests: string[] = []

  const error = (status: number, code: string, message: string, extra = '') =>
    new HttpResponse(
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message>${extra}<RequestId>MOCK</RequestId></Error>`,
      { status, headers: { 'content-type': 'application/xml' } },
    )

  async function checkSignature(request: Request) {
    const authorization = request.headers.get('authorization') ?? ''
    const prefix = `AWS4-HMAC-SHA256 Credential=${options.accessKeyId}/`
    if (!authorization.startsWith(prefix)) return false
    const scope = /Credential=[^/]+\/(\d{8})\/([^/]+)\/s3\/aws4_request/.exec(authorization)
    const signedHeaders = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(';') ?? []
    const datetime = request.headers.get('x-amz-date')
    if (!scope || scope[2] !== options.region || !datetime?.startsWith(scope[1]!)) return false
    const headers = new Headers()
    for (const name of signedHeaders) {
      const value = request.headers.get(name)
      if (value !== null && name !== 'host') headers.set(name, value)
    }
    const expected = await new AwsV4Signer({
      method: request.method,
      url: request.url,
      headers,
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      service: 's3',
      region: options.region,
      datetime,
    }).authHeader()
    return expected === authorization
  }

  const handler = http.all(`${endpoint}/:bucket/*`, async ({ request, params }) => {
    const url = new URL(request.url)
    const bucket = decodeURIComponent(params.bucket as string)
    const key = url.pathname
      .slice(`/${params.bucket as string}/`.length)
      .split('/')
      .map(decodeURIComponent)
      .join('/')
    requests.push(`${request.method} /${bucket}/${key}`)

    if (!(await checkSignature(request))) {
      return error(
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided.',
      )
    }
    if (bucket !== options.bucket)
      return error(404, 'NoSuchBucket', 'The specified bucket does not exist.')

    switch (request.method) {
      case 'PUT': {
        const copySource = request.headers.get('x-amz-copy-source')
        if (copySource) {
          const source = decodeURIComponent(copySource.replace(/^\//, ''))
          const slash = source.indexOf('/')
          const sourceObject =
            source.slice(0, slash) === options.bucket
              ? objects.get(source.slice(slash + 1))
              : undefined
          if (!sourceObject)
            return error(
              404,
              'NoSuchKey',
              'The specified key does not exist.',
              `<Key>${source}</Key>`,
            )
          objects.set(key, { ...sourceObject, body: sourceObject.body.slice() })
          return new HttpResponse(
            `<?xml version="1.0" encoding="UTF-8"?>\n<CopyObjectResult><LastModified>${new Date().toISOString()}</LastModified><ETag>${sourceObject.etag}</ETag></CopyObjectResult>`,
            { status: 200, headers: { 'content-type': 'application/xml' } },
          )
        }
        const body = new Uint8Array(await request.arrayBuffer())
        const etag = `"${createHash('md5').update(body).digest('hex')}"`
        objects.set(key, {
          body,
          contentType: request.headers.get('content-type') ?? 'binary/octet-stream',
          etag,
        })
        return new HttpResponse(null, { status: 200, headers: { etag } })
      }
      case 'GET':
      case 'HEAD': {
        const object = objects.get(key)
        if (!object)
          return error(404, 'NoSuchKey', 'The specified key does not exist.', `<Key>${key}</Key>`)
        return new HttpResponse(request.method === 'HEAD' ? null : object.body, {
          status: 200,
          headers: {
            'content-type': object.contentType,
            'content-length': String(object.body.byteLength),
            etag: object.etag,
          },
        })
      }
      case 'DELETE':
        objects.delete(key)
        return new HttpResponse(null, { status: 204 })
      default:
        return error(
          405,
          'MethodNotAllowed',
          'The specified method is not allowed against this resource.',
        )
    }
  })

  return { handlers: [handler], objects, requests }
}
