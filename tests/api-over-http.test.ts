import { serve, type ServerType } from '@hono/node-server'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi } from '#app/utils/api/clients.server.ts'
import { ApiError } from '#app/utils/api.server.ts'
import { createApiHarness, createUser, type ApiHarness } from './api-harness.ts'
import { createTestDatabase, type TestDatabase } from './db.ts'

/**
 * ARCHITECTURE §1: with API_BASE_URL set, the web app talks to a separate API server over HTTP.
 * This runs the API as `node api/server.ts` does (Hono on @hono/node-server) and drives it with
 * the web app's own client through the global fetch, as server.ts wires it in that mode.
 */
let database: TestDatabase
let api: ApiHarness
let server: ServerType
let baseUrl: string

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  server = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise((resolve) => server.once('listening', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`
})

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  await database?.drop()
})

function client(token: string | null) {
  return createApi({
    apiFetch: (request) => fetch(request),
    baseUrl,
    getToken: () => Promise.resolve(token),
    language: () => 'nl',
    requestId: 'over-http',
  })
}

describe('the web client against the API served alone', () => {
  it('reads the signed-in member and writes their profile over HTTP', async () => {
    const user = await createUser(database.db, { first_name: 'Els' })
    const me = client(await api.signToken(user.id))
    expect(await me.users.me()).toMatchObject({ id: user.id, first_name: 'Els' })
    await me.users.updateMe({ first_name: 'Elsje' })
    expect((await me.users.me()).first_name).toBe('Elsje')
  })

  it('lists activities anonymously and refuses member-only calls with 401', async () => {
    const anonymous = client(null)
    const list = await anonymous.experiences.list({ page: 1, perPage: 12, from: new Date().toISOString() })
    expect(list.metadata.page).toBe(1)
    const error = await anonymous.users.me().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).status).toBe(401)
    expect((error as ApiError).message).toBe('Unauthorized')
  })
})
