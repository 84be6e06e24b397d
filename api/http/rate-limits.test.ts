import express from 'express'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { serveOnLoopback, type LoopbackServer } from '#tests/express-host.ts'
import { rateLimits } from './security.ts'

/**
 * The per-address limiter keeps its counters in PostgreSQL. When the database does not answer,
 * a form must still reach its action quickly (which draws it again with what the member typed),
 * not wait out a statement timeout in the limiter first.
 */
let database: TestDatabase
let served: LoopbackServer
let baseUrl: string

beforeAll(async () => {
  database = await createTestDatabase()
  const app = express()
  const limiter = rateLimits({
    db: database.db,
    general: { name: 'general', max: 1000, windowSeconds: 60 },
    writes: { name: 'writes', max: 3, windowSeconds: 60 },
    auth: { name: 'auth', max: 3, windowSeconds: 60 },
    isAuthPath: () => false,
  })
  app.use((req, res, next) => {
    limiter(req, res, next).catch(next)
  })
  app.post('/form', (_req, res) => {
    res.send('saved')
  })
  served = await serveOnLoopback(app)
  baseUrl = served.url
})

afterAll(async () => {
  await served?.close()
  await database?.drop()
})

describe('the write limiter', () => {
  it('lets a form through within about 2 s when its counters do not answer', async () => {
    // Another session holds the counters' table: every count waits, as on a frozen database.
    const locked = database.db.transaction().execute(async (trx) => {
      await sql`LOCK TABLE rate_limits IN ACCESS EXCLUSIVE MODE`.execute(trx)
      await new Promise((resolve) => setTimeout(resolve, 6_000))
    })
    await new Promise((resolve) => setTimeout(resolve, 200))
    const started = Date.now()
    const response = await fetch(`${baseUrl}/form`, { method: 'POST' })
    const waited = Date.now() - started
    expect(response.status).toBe(200)
    expect(waited).toBeGreaterThanOrEqual(1_900)
    expect(waited).toBeLessThan(3_500)
    await locked
    // The count it gave up waiting for still lands once the table is free.
    await expect.poll(async () => (await database.db.selectFrom('rate_limits').select('count').execute()).length).toBe(1)
  })

  it('still refuses the fourth write in a minute once the counters answer', async () => {
    await database.db.deleteFrom('rate_limits').execute()
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await fetch(`${baseUrl}/form`, { method: 'POST' })).status)
    expect(statuses).toEqual([200, 200, 200, 429])
  })
})
