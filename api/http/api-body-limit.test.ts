import { request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { API_BODY_LIMIT } from './api-body-limit.ts'

/**
 * Issue 10 §3: the API parsed JSON bodies of any size (50 MB and more). Every API route is
 * limited to 100 KB before it parses anything, answered with the §8 error shape.
 */
const MB = 1024 * 1024
let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
})

afterAll(async () => {
  await database?.drop()
})

/** The start of a JSON body of about `size` bytes (`{"title":"aaa…`), made 64 KB at a time as it is pulled. */
function countingJsonBody(size: number) {
  const chunkSize = 64 * 1024
  let pulled = 0
  let done = false
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= size) {
          done = true
          controller.close()
          return
        }
        const chunk = pulled === 0 ? new TextEncoder().encode('{"title":"') : new Uint8Array(chunkSize).fill(0x61)
        pulled += chunk.byteLength
        controller.enqueue(chunk)
      },
    },
    { highWaterMark: 0 },
  )
  return { stream, chunkSize, pulled: () => pulled, finished: () => done }
}

function send(method: string, path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string>) {
  return api.app.fetch(
    new Request(`${api.env.PUBLIC_URL}${path}`, {
      method,
      body,
      headers: { 'content-type': 'application/json', ...headers },
      duplex: 'half',
    }),
  )
}

describe('API request bodies', () => {
  it('answers 413 payload_too_large to a declared 300 MB body without reading it, signed in or not', async () => {
    const member = await createUser(database.db)
    const token = await api.signToken(member.id)
    const callers: Record<string, string>[] = [{}, { authorization: `Bearer ${token}` }]
    for (const authorization of callers) {
      const body = countingJsonBody(300 * MB)
      const response = await send('POST', '/api/v1/experiences', body.stream, { ...authorization, 'content-length': String(300 * MB) })
      expect(response.status).toBe(413)
      // The unread rest may still be on its way: a client reusing the connection would be reset.
      expect(response.headers.get('connection')).toBe('close')
      expect(await response.json()).toEqual({
        error: { code: 'payload_too_large', message: 'The request body is larger than 100 KB.' },
      })
      expect(body.pulled()).toBeLessThanOrEqual(64 * 1024)
    }
  })

  it('answers 413 to a chunked body as soon as it passes 100 KB, before it ends', async () => {
    const member = await createUser(database.db)
    const body = countingJsonBody(300 * MB)
    const response = await send('PUT', '/api/v1/users/me', body.stream, { authorization: `Bearer ${await api.signToken(member.id)}` })
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({ error: { code: 'payload_too_large' } })
    expect(body.pulled()).toBeGreaterThan(API_BODY_LIMIT)
    expect(body.pulled()).toBeLessThan(API_BODY_LIMIT + 3 * body.chunkSize)
    expect(body.finished()).toBe(false)
  })

  it('takes a body within the limit, with or without a Content-Length', async () => {
    const member = await createUser(database.db)
    const token = await api.signToken(member.id)
    // Valid JSON padded to just under the limit.
    const json = `{"locale":"fr"}${' '.repeat(API_BODY_LIMIT - 15)}`
    const declared = await api.request('PUT', '/v1/users/me', { token, body: json })
    expect(declared.status).toBe(200)
    expect(declared.json.data[0].locale).toBe('fr')
    const chunked = await send('PUT', '/api/v1/users/me', new Blob([json.replace('fr', 'nl')]).stream(), { authorization: `Bearer ${token}` })
    expect(chunked.status).toBe(200)
    expect((await chunked.json()).data[0].locale).toBe('nl')
  })

  it('answers 413 over real HTTP while the client is still sending, as the API alone serves it', async () => {
    const server = await new Promise<Server>((resolve) => {
      const started = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started as Server))
    })
    try {
      const { port } = server.address() as AddressInfo
      const result = await new Promise<{ status: number; text: string; sent: number }>((resolve, reject) => {
        let sent = 0
        let answered = false
        const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/experiences', headers: { 'content-type': 'application/json' } })
        request.on('response', (response) => {
          answered = true
          let text = ''
          response.setEncoding('utf8')
          response.on('data', (chunk: string) => (text += chunk))
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text, sent }))
        })
        // The server may close the socket while we still write: that is expected once it answered.
        request.on('error', (error) => (answered ? undefined : reject(error)))
        const pump = async () => {
          const chunk = Buffer.alloc(64 * 1024, 'a')
          request.write('{"title":"')
          while (!answered && !request.destroyed && sent < 300 * MB) {
            sent += chunk.byteLength
            if (!request.write(chunk)) await new Promise((next) => request.once('drain', next).once('close', next))
          }
          request.end()
        }
        pump().catch(reject)
      })
      expect(result.status).toBe(413)
      expect(JSON.parse(result.text)).toMatchObject({ error: { code: 'payload_too_large' } })
      expect(result.sent).toBeLessThan(100 * MB)
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
