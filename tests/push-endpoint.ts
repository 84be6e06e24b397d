import { createECDH, createDecipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { importJWK, jwtVerify } from 'jose'

/**
 * A local push service for tests (decision 048), speaking what real ones speak: RFC 8030 (a POST
 * per push, 201 Created), RFC 8292 (the `Authorization: vapid t=<JWT>, k=<key>` header: an ES256
 * JWT signed by `k`, for this origin, not expired) and RFC 8291 (the aes128gcm body, decrypted
 * here with the subscription's private key, written with node:crypto alone). Each subscription
 * is one browser: `subscribe()` makes its keys as a browser would and returns its PushSubscription JSON.
 * `answer(status)` makes the next pushes answer 404 or 410 (gone) or 500 (a failure to retry);
 * `subscribe({ hang: true })` is a browser whose push service never answers (decision pushjobs).
 */

export interface ReceivedPush {
  endpoint: string
  /** The decrypted payload, as text. */
  payload: string
  ttl: string | undefined
  urgency: string | undefined
  /** The VAPID public key (base64url) that signed it. */
  vapidKey: string
}

export interface PushEndpoint {
  origin: string
  /**
   * A new browser subscription at this service: `{ endpoint, keys: { p256dh, auth } }`. With
   * `hang`, a push to it is read and never answered (the connection stays open until `close()`).
   */
  subscribe(options?: { hang?: boolean }): { endpoint: string; keys: { p256dh: string; auth: string } }
  /** How many pushes reached this endpoint, answered or not. */
  hits(endpoint: string): number
  /** Pushes accepted (and decrypted), oldest first. */
  received: ReceivedPush[]
  /** The status every push is answered with from now on (201 by default). */
  answer(status: 201 | 404 | 410 | 500): void
  /** Pushes refused for a bad signature or body, with why. */
  refused: string[]
  close(): Promise<void>
}

interface Subscriber {
  ecdh: ReturnType<typeof createECDH>
  publicKey: Buffer
  auth: Buffer
  hang?: boolean
  hits?: number
}

const b64 = (value: Buffer) => value.toString('base64url')

/** RFC 8291 §3.4 and RFC 8188: the plain text of one aes128gcm push message. */
export function decryptAes128gcm(body: Buffer, subscriber: Subscriber): string {
  const salt = body.subarray(0, 16)
  const recordSize = body.readUInt32BE(16)
  const idLength = body.readUInt8(20)
  const senderPublicKey = body.subarray(21, 21 + idLength)
  const ciphertext = body.subarray(21 + idLength)
  if (idLength !== 65) throw new Error(`keyid is ${idLength} bytes, not a P-256 public key`)
  if (ciphertext.byteLength > recordSize) throw new Error('more than one record')
  const ecdhSecret = subscriber.ecdh.computeSecret(senderPublicKey)
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), subscriber.publicKey, senderPublicKey])
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, subscriber.auth, keyInfo, 32))
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16))
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12))
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce)
  decipher.setAuthTag(ciphertext.subarray(ciphertext.byteLength - 16))
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.byteLength - 16)), decipher.final()])
  // The last record ends with the delimiter 0x02, then zero or more zero bytes of padding.
  let end = padded.byteLength - 1
  while (end >= 0 && padded[end] === 0) end -= 1
  if (padded[end] !== 2) throw new Error('no last-record delimiter')
  return padded.subarray(0, end).toString('utf8')
}

/** RFC 8292 §2–3: the JWT is ES256, signed by `k`, for this origin, and expires within 24 hours. */
async function checkVapid(header: string | undefined, origin: string): Promise<string> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '')
  if (!match) throw new Error(`no vapid Authorization header: ${header}`)
  const [, token, key] = match as unknown as [string, string, string]
  const raw = Buffer.from(key, 'base64url')
  if (raw.byteLength !== 65 || raw[0] !== 4) throw new Error('k is not an uncompressed P-256 key')
  const publicKey = await importJWK({ kty: 'EC', crv: 'P-256', x: b64(raw.subarray(1, 33)), y: b64(raw.subarray(33)) }, 'ES256')
  const { payload } = await jwtVerify(token, publicKey, { algorithms: ['ES256'], audience: origin, requiredClaims: ['exp', 'sub'] })
  if (payload.exp! > Date.now() / 1000 + 24 * 60 * 60) throw new Error('exp more than 24 hours ahead')
  return key
}

async function bodyOf(request: IncomingMessage) {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

export async function startPushEndpoint(): Promise<PushEndpoint> {
  const subscribers = new Map<string, Subscriber>()
  const received: ReceivedPush[] = []
  const refused: string[] = []
  let status: 201 | 404 | 410 | 500 = 201
  let origin = ''
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request)
      const endpoint = `${origin}${request.url}`
      const subscriber = subscribers.get(request.url ?? '')
      if (request.method !== 'POST' || !subscriber) {
        response.writeHead(404).end()
        return
      }
      subscriber.hits = (subscriber.hits ?? 0) + 1
      if (subscriber.hang) return
      if (status !== 201) {
        response.writeHead(status).end()
        return
      }
      try {
        if (request.headers['content-encoding'] !== 'aes128gcm') throw new Error(`Content-Encoding ${request.headers['content-encoding']}`)
        if (!request.headers.ttl) throw new Error('no TTL header')
        const vapidKey = await checkVapid(request.headers.authorization, origin)
        const ttl = request.headers.ttl as string
        const payload = decryptAes128gcm(body, subscriber)
        received.push({ endpoint, payload, ttl, urgency: request.headers.urgency as string | undefined, vapidKey })
        response.writeHead(201, { Location: `${endpoint}/messages/${randomUUID()}` }).end()
      } catch (error) {
        refused.push(String(error))
        response.writeHead(400).end()
      }
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    subscribe(options = {}) {
      const ecdh = createECDH('prime256v1')
      const publicKey = ecdh.generateKeys()
      const auth = randomBytes(16)
      const path = `/push/${randomUUID()}`
      subscribers.set(path, { ecdh, publicKey, auth, hang: options.hang ?? false })
      return { endpoint: `${origin}${path}`, keys: { p256dh: b64(publicKey), auth: b64(auth) } }
    },
    hits: (endpoint) => subscribers.get(new URL(endpoint).pathname)?.hits ?? 0,
    received,
    refused,
    answer(next) {
      status = next
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Pushes to a hanging browser are still open.
        server.closeAllConnections()
      }),
  }
}
