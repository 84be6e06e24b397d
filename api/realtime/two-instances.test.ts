import type { AddressInfo } from 'node:net'
import { serve, type ServerType } from '@hono/node-server'
import { SignJWT, importJWK } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiApp } from '#api/app.ts'
import { parseEnv } from '#api/env.ts'
import { createApiRuntime, type ApiRuntime } from '#api/runtime.ts'
import type { ChatMessageEvent } from '#contract/chat.ts'
import { TEST_PUBLIC_URL, createExperience, createUser } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { dataOf, readSse, type SseReader } from '#tests/sse.ts'

/**
 * ARCHITECTURE §6, issue 14 §2: two API instances (each its own runtime, hub and HTTP server) on
 * one PostgreSQL behave as one: a message posted through one arrives live on a stream opened on
 * the other within 2 seconds, and a stream that moves to the other instance resumes exactly.
 */
let database: TestDatabase
const instances: Array<{ runtime: ApiRuntime; server: ServerType; url: string }> = []
const readers = new Set<SseReader>()

async function startInstance() {
  const env = parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: database.url, PUBLIC_URL: TEST_PUBLIC_URL, SEED_DEMO_DATA: 'false' })
  // servesApi false: no gazetteer or photo models, which this test does not need; the API is served all the same.
  const runtime = await createApiRuntime(env, { servesApi: false, servesIdentity: true })
  const app = createApiApp(runtime.services)
  const server = await new Promise<ServerType>((resolve) => {
    const started: ServerType = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started))
  })
  const { port } = server.address() as AddressInfo
  const instance = { runtime, server, url: `http://127.0.0.1:${port}/api` }
  instances.push(instance)
  return instance
}

beforeAll(async () => {
  database = await createTestDatabase()
  // One after the other: both load (or make, the first time) the same secrets.
  await startInstance()
  await startInstance()
})

afterAll(async () => {
  await Promise.all([...readers].map((reader) => reader.close()))
  for (const { runtime, server } of instances) {
    await runtime.realtime.close()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await runtime.close()
  }
  await database?.drop()
})

/** A token as the built-in identity provider signs it, with the keys both runtimes loaded. */
async function tokenFor(userId: string) {
  const jwk = instances[0]!.runtime.secrets.oidcJwks.keys[0]!
  return new SignJWT({ scope: 'openid' })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid!, typ: 'at+jwt' })
    .setIssuer(`${TEST_PUBLIC_URL}/oidc`)
    .setAudience(instances[0]!.runtime.env.API_AUDIENCE)
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(await importJWK(jwk, 'RS256'))
}

async function call(base: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, json: await response.json() }
}

async function stream(base: string, token: string, lastEventId?: string) {
  const response = await fetch(`${base}/v1/chat/events`, {
    headers: { authorization: `Bearer ${token}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
  })
  expect(response.status).toBe(200)
  const reader = readSse(response.body!)
  readers.add(reader)
  const ready = await reader.next((event) => event.event === 'ready')
  return { reader, ready }
}

describe('two API instances on one PostgreSQL', () => {
  it('deliver a message posted through one live on a stream of the other within 2 seconds, and resume across them', async () => {
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]]
    const host = await createUser(database.db, { first_name: 'Walter' })
    const guest = await createUser(database.db, { first_name: 'Margaret' })
    const experience = await createExperience(database.db, host.id)
    await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: guest.id }).execute()
    const [hostToken, guestToken] = await Promise.all([tokenFor(host.id), tokenFor(guest.id)])
    const joined = await call(a.url, hostToken, 'PUT', `experiences/${experience.id}/message-channels/join`)
    expect(joined.status).toBe(200)
    const channelId = joined.json.data[0].id as string
    expect((await call(b.url, guestToken, 'PUT', `experiences/${experience.id}/message-channels/join`)).status).toBe(200)

    // The host listens on B; the guest posts through A.
    const onB = await stream(b.url, hostToken)
    const postedAt = performance.now()
    const sent = await call(a.url, guestToken, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'Posted on A' })
    expect(sent.status).toBe(201)
    const arrived = await onB.reader.next((event) => event.event === 'message', 2_000)
    expect(arrived.at - postedAt).toBeLessThan(2_000)
    expect(JSON.parse(arrived.data)).toMatchObject({ channel_id: channelId, message_id: sent.json.data[0].id, message: { body: 'Posted on A' } })

    // B goes away; the host's browser reconnects to A with the last id it had, after missing one.
    await onB.reader.close()
    readers.delete(onB.reader)
    const missed = await call(b.url, guestToken, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'Posted on B while away' })
    const onA = await stream(a.url, hostToken, arrived.id)
    await onA.reader.next((event) => event.event === 'message')
    const live = await call(b.url, guestToken, 'POST', `v1/chat/message-channels/${channelId}/messages`, { text: 'Live again' })
    await onA.reader.next((event) => event.event === 'message' && JSON.parse(event.data).message_id === live.json.data[0].id, 2_000)
    expect(dataOf<ChatMessageEvent>(onA.reader, 'message').map((event) => event.message_id)).toEqual([missed.json.data[0].id, live.json.data[0].id])
  })
})
