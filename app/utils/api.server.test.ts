import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createApi } from './api/clients.server.ts'
import { ApiError, createApiTransport, messageForStatus } from './api.server.ts'

function clientWith(handler: (request: Request) => Response | Promise<Response>, token: string | null = 'token-123') {
  const calls: Request[] = []
  const options = {
    apiFetch: async (request: Request) => {
      calls.push(request.clone())
      return handler(request)
    },
    baseUrl: 'http://api.test/api/',
    getToken: async () => token,
    language: () => 'fr' as const,
    requestId: 'req-1',
  }
  // `client` is the HTTP layer under the resource clients, `api` the resource clients.
  return { client: createApiTransport(options), api: createApi(options), calls }
}

const anything = z.unknown()

describe('the API client (spec §7, §8)', () => {
  it('maps statuses to the §8 messages', () => {
    expect(messageForStatus(401)).toBe('Unauthorized')
    expect(messageForStatus(409)).toBe('Conflict')
    expect(messageForStatus(502)).toBe('Bad Gateway')
    expect(messageForStatus(418)).toBe('Request failed with status 418')
  })

  it('sends the bearer token, language, request id, JSON body and query', async () => {
    const { client, calls } = clientWith(() => Response.json({ data: [] }))
    await client.json('PUT', 'v1/users/me', anything, { body: { phone: '1' }, query: { page: 1, empty: '', missing: undefined } })
    const sent = calls[0]!
    expect(sent.url).toBe('http://api.test/api/v1/users/me?page=1')
    expect(sent.headers.get('authorization')).toBe('Bearer token-123')
    expect(sent.headers.get('accept-language')).toBe('fr')
    expect(sent.headers.get('x-request-id')).toBe('req-1')
    expect(sent.headers.get('content-type')).toBe('application/json')
    expect(await sent.json()).toEqual({ phone: '1' })
  })

  it('returns no data for 204', async () => {
    const { api } = clientWith(() => new Response(null, { status: 204 }))
    await expect(api.users.delete('1')).resolves.toBeUndefined()
  })

  it('reports an unparsable body as Parse Error, and a body that fails its schema too', async () => {
    const { api } = clientWith(() => new Response('<html>', { status: 200, headers: { 'content-type': 'application/json' } }))
    await expect(api.users.me()).rejects.toMatchObject({ message: 'Parse Error' })
    const { client: other } = clientWith(() => Response.json({ data: 'nope' }))
    await expect(other.json('GET', 'v1/users/me', z.object({ data: z.array(z.string()) }))).rejects.toMatchObject({ message: 'Parse Error' })
  })

  it('turns error statuses into ApiError with the §8 message, code and field errors', async () => {
    const { client } = clientWith(() => Response.json({ error: { code: 'invalid_input', message: 'x', fields: { phone: ['invalid_phone'] } } }, { status: 422 }))
    const error = (await client.json('PUT', 'v1/users/me', anything, { body: {} }).catch((e: unknown) => e)) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error.message).toBe('Request failed with status 422')
    expect(error.fields).toEqual({ phone: ['invalid_phone'] })
    const { client: conflict } = clientWith(() => Response.json({ error: { code: 'full', message: 'x' } }, { status: 409 }))
    await expect(conflict.json('POST', 'v1/x', anything)).rejects.toMatchObject({ message: 'Conflict', code: 'full', status: 409 })
  })

  it('retries failed reads twice but never retries writes', async () => {
    let reads = 0
    const { client } = clientWith(() => (++reads < 3 ? new Response(null, { status: 502 }) : Response.json({ ok: true })))
    await expect(client.json('GET', 'v1/x', z.object({ ok: z.boolean() }))).resolves.toEqual({ ok: true })
    expect(reads).toBe(3)
    let writes = 0
    const { client: writer } = clientWith(() => {
      writes++
      return new Response(null, { status: 502 })
    })
    await expect(writer.json('POST', 'v1/x', anything, { body: {} })).rejects.toMatchObject({ message: 'Bad Gateway' })
    expect(writes).toBe(1)
  })

  it('gives up after three failed reads with the last status', async () => {
    let reads = 0
    const { client } = clientWith(() => {
      reads++
      return new Response(null, { status: 503 })
    })
    await expect(client.json('GET', 'v1/x', anything)).rejects.toMatchObject({ status: 503 })
    expect(reads).toBe(3)
  })

  it('does not retry a 503 that says when to come back (the API already waited out its database)', async () => {
    let reads = 0
    const { client } = clientWith(() => {
      reads++
      return Response.json({ error: { code: 'service_unavailable', message: 'x' } }, { status: 503, headers: { 'retry-after': '30' } })
    })
    await expect(client.json('GET', 'v1/x', anything)).rejects.toMatchObject({ status: 503, code: 'service_unavailable' })
    expect(reads).toBe(1)
  })

  it('sends no authorization header for anonymous calls', async () => {
    const { client, calls } = clientWith(() => Response.json({}), null)
    await client.json('GET', 'v1/experiences', anything)
    expect(calls[0]!.headers.has('authorization')).toBe(false)
  })
})
