import { randomBytes } from 'node:crypto'
import { SignJWT, importJWK } from 'jose'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEST_PUBLIC_URL, createExperience, createUser } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createApiApp } from './app.ts'
import { parseEnv } from './env.ts'
import { feesJob } from './fees/job.ts'
import { impersonationsJob } from './impersonation/job.ts'
import { analyticsRetentionJob } from './analytics/retention.ts'
import { cleanupJob } from './jobs/cleanup.ts'
import { jobs } from './jobs/registry.ts'
import { liftSuspensionsJob } from './moderation/suspension-job.ts'
import { remindSweepJob } from './reminders/service.ts'
import { askAttendanceJob } from './surveys/job.ts'
import { remindRenewalsJob, renewSubscriptionsJob } from './subscriptions/renewal.ts'
import { reconcileSubscriptionsJob } from './subscriptions/sync.ts'
import { recommendJob } from './recommendations/service.ts'
import { gazetteerRows } from './providers/maps/gazetteer.ts'
import { createApiRuntime, type ApiRuntime } from './runtime.ts'

/**
 * Issue 11 §4: the API run alone (`node api/server.ts`) started no jobs. It now starts the same
 * runtime as the combined server: this builds it the way api/server.ts does, on a test database,
 * and checks that the jobs are scheduled and worked, the API answers through it, the outbox is
 * read through it, and `close()` stops the jobs and the database.
 */
let database: TestDatabase
let runtime: ApiRuntime
let closed = false

beforeAll(async () => {
  database = await createTestDatabase()
  // The gazetteer counts as loaded when the table holds rows (the full load is tested in
  // api/providers/maps/builtin.test.ts): a few real rows spare this file that load.
  await database.db.insertInto('places').values(gazetteerRows().filter((row) => row.id === 'us-or-portland')).execute()
  const env = parseEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: database.url, PUBLIC_URL: TEST_PUBLIC_URL, SEED_DEMO_DATA: 'false' })
  runtime = await createApiRuntime(env, { servesApi: true, servesIdentity: true })
})

afterAll(async () => {
  if (!closed) await runtime?.close()
  await database?.drop()
})

describe('the API runtime', () => {
  it('schedules the cleanup and the end of suspensions, and defines the delivery queues (web push among them)', async () => {
    const { rows: schedules } = await sql<{ name: string; cron: string }>`SELECT name, cron FROM pgboss.schedule ORDER BY name`.execute(database.db)
    expect(schedules).toEqual(
      [
        { name: cleanupJob.name, cron: '*/15 * * * *' },
        { name: liftSuspensionsJob.name, cron: '*/5 * * * *' },
        { name: askAttendanceJob.name, cron: '*/10 * * * *' },
        { name: remindSweepJob.name, cron: '*/15 * * * *' },
        { name: recommendJob.name, cron: '0 15 * * 1' },
        { name: feesJob.name, cron: '*/10 * * * *' },
        { name: impersonationsJob.name, cron: '*/5 * * * *' },
        { name: analyticsRetentionJob.name, cron: '20 3 * * *' },
        { name: renewSubscriptionsJob.name, cron: '0 14 * * *' },
        { name: remindRenewalsJob.name, cron: '0 15 * * *' },
        { name: reconcileSubscriptionsJob.name, cron: '0 8 * * *' },
      ].sort((a, b) => a.name.localeCompare(b.name)),
    )
    // pg-boss's own queues start with `__pgboss__`.
    const { rows: queues } = await sql<{ name: string }>`SELECT name FROM pgboss.queue WHERE NOT starts_with(name, '__pgboss__') ORDER BY name`.execute(database.db)
    // Every job of the registry has its queue, those this instance does not work included (no
    // SMTP_URL: mail stays in the outbox and nothing is sent to `email.deliver`).
    expect(queues.map((queue) => queue.name)).toEqual(jobs.map((job) => job.name).sort())
  })

  it('works queued jobs: the cleanup removes expired rows', async () => {
    const id = `expired-${randomBytes(4).toString('hex')}`
    await database.db.insertInto('web_sessions').values({ id, data: '{}', expires_at: new Date(Date.now() - 60_000) }).execute()
    await runtime.jobs.send(cleanupJob.name, {})
    await expect
      .poll(async () => (await database.db.selectFrom('web_sessions').select('id').where('id', '=', id).execute()).length, { timeout: 15_000, interval: 250 })
      .toBe(0)
  })

  it('serves the API: a cancellation notifies the attendee and the delivery job runs', async () => {
    const app = createApiApp(runtime.services)
    const host = await createUser(database.db)
    const attendee = await createUser(database.db)
    const experience = await createExperience(database.db, host.id, { attendees_count: 1 })
    await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: attendee.id }).execute()

    // A token as the built-in provider signs it, with the keys the runtime loaded.
    const jwk = runtime.secrets.oidcJwks.keys[0]!
    const token = await new SignJWT({ scope: 'openid' })
      .setProtectedHeader({ alg: 'RS256', kid: jwk.kid!, typ: 'at+jwt' })
      .setIssuer(`${TEST_PUBLIC_URL}/oidc`)
      .setAudience(runtime.env.API_AUDIENCE)
      .setSubject(host.id)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(await importJWK(jwk, 'RS256'))
    const response = await app.fetch(
      new Request(`${TEST_PUBLIC_URL}/api/v1/experiences/${experience.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } }),
    )
    expect(response.status).toBe(204)
    const delivered = () =>
      database.db.selectFrom('notifications').select(['type', 'delivered_at']).where('user_id', '=', attendee.id).execute()
    await expect
      .poll(async () => (await delivered()).map((n) => ({ type: n.type, delivered: n.delivered_at !== null })), { timeout: 15_000, interval: 250 })
      .toEqual([{ type: 'experience.canceled', delivered: true }])
    // The job emails it (decision 018), linking to PUBLIC_URL.
    const emails = (await runtime.outbox.read(50)).filter((email) => email.to === attendee.email)
    expect(emails).toHaveLength(1)
    expect(emails[0]!.text).toContain(`${TEST_PUBLIC_URL}/activities/${experience.id}`)
  })

  it('reads the outbox for the development page', async () => {
    const to = `outbox-${randomBytes(4).toString('hex')}@example.com`
    await runtime.mailer.send({ to, subject: 'Welcome', text: 'Hello', kind: 'welcome', locale: 'en' })
    const emails = await runtime.outbox.read(5)
    expect(emails[0]).toMatchObject({ to, subject: 'Welcome', text: 'Hello' })
  })

  it('close() stops the jobs and closes the database', async () => {
    await runtime.close()
    closed = true
    await expect(runtime.db.selectFrom('users').select('id').execute()).rejects.toThrow()
    await expect(runtime.jobs.send(cleanupJob.name, {})).rejects.toThrow()
  })
})
