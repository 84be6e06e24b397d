import { randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { sql, type RawBuilder } from 'kysely'
import { createDatabase, migrateToLatest, type DB } from '../api/db/database.ts'
import { startEmbeddedPostgres } from '../api/db/embedded.ts'
import { startJobQueue } from '../api/jobs/queue.ts'
import { createLogger } from '../api/logger.ts'
import { NOTIFICATION_DELIVERY_JOB } from '../api/notifications/service.ts'
import { REMIND_JOB, scheduleRemindersBulk } from '../api/reminders/service.ts'
import {
  accessTokenFor,
  ensureBuild,
  formatClientResult,
  freePort,
  loadLine,
  median,
  numberOption,
  root,
  runClient,
  serverEnv,
  signedInCookie,
  startServer,
  stopServer,
  throwawaySecrets,
} from './bench-helpers.ts'

/**
 * `npm run bench:notify` (issue 15 §8): notifications at scale, printed as figures (a benchmark,
 * not a timed test). One production server instance (`server.ts`, its runtime works the jobs) on
 * an embedded PostgreSQL of its own (.data/bench-notify-pg), mail to a local SMTP sink in this
 * process (so `email.deliver` jobs succeed as they would in production).
 *
 * 1. An activity with 2,000 attendees is cancelled by its host (`DELETE /api/v1/experiences/{id}`,
 *    bearer token): the call's time, in which every `experience.canceled` notification is recorded
 *    and its `notification.deliver` job queued (counted right after it answers); then the time
 *    until all 2,000 emails are in `email_outbox` (polled every 100 ms), and until all are sent.
 * 2. Reminders for 100,000 upcoming activities (inserted directly): `scheduleRemindersBulk` over
 *    all of them in one transaction: its time and the `experience.remind` jobs queued.
 * 3. `/notifications` (a member with 30 notifications) against the trivial route `/dev/ping`, same
 *    connections and duration (autocannon, scripts/bench-client.ts): req/s and the ratio.
 *
 * Goals: recorded and queued within 2 s; all emails within 60 s; `/notifications` at least 0.5×
 * the trivial route. A missed goal is printed, not an exit code (only a crash fails).
 *
 * Options (flag or environment variable, defaults in brackets):
 *   --attendees=N     BENCH_NOTIFY_ATTENDEES     attendees of the cancelled activity [2000]
 *   --activities=N    BENCH_NOTIFY_ACTIVITIES    upcoming activities given reminders [100000]
 *   --page-seconds=N  BENCH_NOTIFY_PAGE_SECONDS  seconds of each throughput run (after a warm-up: 3 s in the first round, 1 s after); 0 skips them [4]
 *   --rounds=N        BENCH_NOTIFY_ROUNDS        rounds of the three throughput runs, taking turns; the goal reads the median of
 *                     the rounds' own ratios [8] (many short rounds rather than a few long ones, each round's page
 *                     and trivial route compared with each other, in swapped order every other round: this machine's
 *                     speed drifts by a quarter within a minute, so only runs close together in time compare fairly)
 *   --build                                      rebuild the web app first
 *                     BENCH_NOTIFY_CPU_PROF      a folder: the server writes a V8 CPU profile there when it stops
 *                     BENCH_NOTIFY_EMAIL_TIMEOUT_SECONDS  how long to wait for the emails [600]
 *                     BENCH_NOTIFY_PG_STATS=1    print the statements PostgreSQL spent most time on during the page runs
 *                                                (pg_stat_statements: calls, and planning and running time per call)
 * The instance's log (warnings and errors) stays in .data/bench-notify.log.
 */
const { values: flags } = parseArgs({
  options: {
    attendees: { type: 'string' },
    activities: { type: 'string' },
    'page-seconds': { type: 'string' },
    rounds: { type: 'string' },
    build: { type: 'boolean' },
  },
})
const option = (flag: string | undefined, env: string, fallback: number) => Math.round(numberOption(flag, env, fallback))
const attendeeCount = option(flags.attendees, 'BENCH_NOTIFY_ATTENDEES', 2000)
const activityCount = option(flags.activities, 'BENCH_NOTIFY_ACTIVITIES', 100_000)
const pageSeconds = option(flags['page-seconds'], 'BENCH_NOTIFY_PAGE_SECONDS', 4)
const rounds = Math.max(1, option(flags.rounds, 'BENCH_NOTIFY_ROUNDS', 8))
const statementStats = process.env.BENCH_NOTIFY_PG_STATS === '1'

const dataDir = '.data/bench-notify-pg'
const logFile = '.data/bench-notify.log'
const goals = { queuedMs: 2_000, emailsMs: 60_000, pageRatio: 0.5 }
/** How long the bench waits for the emails before it reports them missing. */
const emailTimeoutMs = option(undefined, 'BENCH_NOTIFY_EMAIL_TIMEOUT_SECONDS', 600) * 1000
const DAY = 24 * 3600 * 1000

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const count = (n: number) => n.toLocaleString('en-US')

/** What PostgreSQL spent its time on since the reset (BENCH_NOTIFY_PG_STATS=1), most first. */
async function printStatementStats(db: DB) {
  const { rows } = await sql<{ calls: number; plan: number; exec: number; query: string }>`
    SELECT calls::int, total_plan_time / calls AS plan, total_exec_time / calls AS exec, regexp_replace(query, '\\s+', ' ', 'g') AS query
    FROM pg_stat_statements WHERE calls > 0 ORDER BY total_plan_time + total_exec_time DESC LIMIT 8`.execute(db)
  console.log('  PostgreSQL during the runs (pg_stat_statements), most time first: calls, ms planning + ms running per call')
  for (const row of rows) console.log(`    ${count(row.calls).padStart(7)}  ${row.plan.toFixed(3)} + ${row.exec.toFixed(3)} ms  ${row.query.slice(0, 110)}`)
}

/**
 * A mail server that accepts everything and keeps nothing (enough SMTP for nodemailer: greeting,
 * EHLO, MAIL, RCPT, DATA, QUIT), so the instance's `email.deliver` jobs succeed. Counts messages.
 */
function startSmtpSink() {
  let received = 0
  const server: Server = createServer((socket) => {
    let inData = false
    let buffer = ''
    socket.setEncoding('utf8')
    socket.on('error', () => undefined)
    socket.write('220 bench-notify ESMTP\r\n')
    socket.on('data', (chunk: string) => {
      buffer += chunk
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n')
          if (end === -1) {
            // Keep only what could be the start of the terminator.
            buffer = buffer.slice(-4)
            return
          }
          buffer = buffer.slice(end + 5)
          inData = false
          received++
          socket.write('250 OK queued\r\n')
          continue
        }
        const newline = buffer.indexOf('\r\n')
        if (newline === -1) return
        const line = buffer.slice(0, newline)
        buffer = buffer.slice(newline + 2)
        const verb = line.slice(0, 4).toUpperCase()
        if (verb === 'EHLO') socket.write('250-bench-notify\r\n250 8BITMIME\r\n')
        else if (verb === 'DATA') {
          inData = true
          socket.write('354 End data with <CR><LF>.<CR><LF>\r\n')
        } else if (verb === 'QUIT') socket.end('221 Bye\r\n')
        else socket.write('250 OK\r\n')
      }
    })
  })
  return {
    async listen() {
      const port = await freePort()
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
      return port
    },
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

async function inBatches<T>(rows: readonly T[], size: number, insert: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size))
}

/** Members 0 … n − 1 (0 hosts), active and onboarded, each with an email address. */
async function seedMembers(db: DB, memberIds: string[]) {
  const yearAgo = new Date(Date.now() - 365 * DAY)
  await inBatches(
    memberIds.map((id, i) => ({
      id,
      auth_subject: id,
      slug: `notify-bench-${i}`,
      email: `notify-bench-${i}@bench.test`,
      first_name: 'Member',
      last_name: `Number ${i}`,
      dob: new Date(Date.UTC(1950, 0, 1 + (i % 5000))).toISOString().slice(0, 10),
      state: 'active' as const,
      city: 'Chicago',
      region: 'IL',
      onboarded_at: yearAgo,
      created_at: yearAgo,
    })),
    1000,
    (batch) => db.insertInto('users').values(batch).execute(),
  )
}

function activityRow(id: string, hostId: string, k: number, startAt: Date, attendees: number) {
  return {
    id,
    slug: `notify-bench-activity-${k}`,
    host_id: hostId,
    title: `Notify bench activity ${k}`,
    max_attendees: null,
    attendees_count: attendees,
    start_at: startAt,
    end_at: new Date(startAt.getTime() + 2 * 3600 * 1000),
    venue_type: 'online' as const,
    city: 'Chicago',
    region: 'IL',
  }
}

async function countRows(db: DB, query: RawBuilder<{ n: number }>) {
  return (await query.execute(db)).rows[0]?.n ?? 0
}

// The run ---------------------------------------------------------------------------------------------

if (flags.build) process.argv.push('--build')
ensureBuild()
console.log(`Starting (${loadLine()})`)
rmSync(path.join(root, dataDir), { recursive: true, force: true })
const pg = await startEmbeddedPostgres({
  dataDir,
  settings: statementStats ? ['shared_preload_libraries=pg_stat_statements', 'pg_stat_statements.track_planning=on'] : [],
})
const { db } = createDatabase(pg.url, { statementTimeoutMs: 0 })
const smtp = startSmtpSink()
/** BENCH_NOTIFY_CPU_PROF: a folder where the server writes a V8 CPU profile when it stops. */
const cpuProfileDir = process.env.BENCH_NOTIFY_CPU_PROF ? path.resolve(process.env.BENCH_NOTIFY_CPU_PROF) : null
let server: Awaited<ReturnType<typeof startServer>> | undefined
let queue: Awaited<ReturnType<typeof startJobQueue>> | undefined
const summary: Array<{ figure: string; goal?: string; met?: boolean }> = []

try {
  await migrateToLatest(db)
  const smtpPort = await smtp.listen()

  // Members and the activity to cancel ----------------------------------------------------------------
  const seedStarted = performance.now()
  const memberIds = Array.from({ length: attendeeCount + 1 }, () => randomUUID())
  await seedMembers(db, memberIds)
  const hostId = memberIds[0]!
  const activityId = randomUUID()
  await db
    .insertInto('experiences')
    .values(activityRow(activityId, hostId, 0, new Date(Date.now() + 3 * DAY), attendeeCount))
    .execute()
  await inBatches(memberIds.slice(1), 5000, (batch) =>
    db
      .insertInto('experience_attendees')
      .values(batch.map((user_id) => ({ experience_id: activityId, user_id })))
      .execute(),
  )
  console.log(`Seeded ${count(memberIds.length)} members and one activity with ${count(attendeeCount)} attendees in ${seconds(performance.now() - seedStarted)}`)

  const port = await freePort()
  const publicUrl = `http://localhost:${port}`
  const secrets = await throwawaySecrets()
  server = await startServer({
    env: serverEnv({ port, publicUrl, databaseUrl: pg.url, secrets, extra: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_FROM: 'bench@bench.test' } }),
    logFile: path.join(root, logFile),
    nodeArgs: cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [],
    // QUALITY: the server and the load generator (core 1) on different cores, as `npm run bench`.
    core: 0,
  })
  console.log(`One instance on ${publicUrl} (pid ${server.pid}), one PostgreSQL, an SMTP sink on port ${smtpPort}`)

  // 1. The cancellation --------------------------------------------------------------------------------
  const hostToken = await accessTokenFor(secrets.jwks, { publicUrl, subject: hostId, lifetime: '3h' })
  console.log('')
  console.log(`Cancelling the activity with ${count(attendeeCount)} attendees (DELETE /api/v1/experiences/{id} as its host)…`)
  const cancelStarted = performance.now()
  const response = await fetch(`${publicUrl}/api/v1/experiences/${activityId}`, { method: 'DELETE', headers: { authorization: `Bearer ${hostToken}` } })
  const cancelMs = performance.now() - cancelStarted
  await response.arrayBuffer()
  if (response.status !== 204) throw new Error(`DELETE /api/v1/experiences/{id} answered ${response.status}`)
  const recorded = await countRows(db, sql<{ n: number }>`SELECT count(*)::int AS n FROM notifications WHERE type = 'experience.canceled'`)
  // Queued or already worked (a job completed meanwhile stays in pgboss.job until it is archived).
  const queued = await countRows(db, sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${NOTIFICATION_DELIVERY_JOB}`)
  console.log(`  The call answered ${response.status} in ${seconds(cancelMs)}; right after it: ${count(recorded)} notifications recorded, ${count(queued)} ${NOTIFICATION_DELIVERY_JOB} jobs queued`)
  const allQueued = recorded === attendeeCount && queued >= attendeeCount
  summary.push({
    figure: `Cancellation (${count(attendeeCount)} attendees): recorded and queued in ${seconds(cancelMs)} (${count(recorded)} notifications, ${count(queued)} jobs)`,
    goal: `≤ ${seconds(goals.queuedMs)}, all of them`,
    met: cancelMs <= goals.queuedMs && allQueued,
  })

  let emailsMs: number | null = null
  let sentMs: number | null = null
  let lastReport = cancelStarted
  for (;;) {
    const row = (
      await sql<{ outbox: number; sent: number; delivered: number }>`SELECT count(*)::int AS outbox, count(sent_at)::int AS sent,
          (SELECT count(delivered_at)::int FROM notifications WHERE type = 'experience.canceled') AS delivered
        FROM email_outbox WHERE kind = 'experienceCanceled'`.execute(db)
    ).rows[0]!
    const now = performance.now()
    if (emailsMs === null && row.outbox >= attendeeCount) emailsMs = now - cancelStarted
    if (sentMs === null && row.sent >= attendeeCount) sentMs = now - cancelStarted
    if (emailsMs !== null && sentMs !== null) break
    if (now - lastReport >= 10_000) {
      lastReport = now
      console.log(`  after ${seconds(now - cancelStarted)}: ${count(row.delivered)} notifications delivered, ${count(row.outbox)} emails in the outbox, ${count(row.sent)} sent`)
    }
    if (now - cancelStarted > emailTimeoutMs) {
      console.log(`  Gave up after ${seconds(emailTimeoutMs)}: ${count(row.delivered)} notifications delivered, ${count(row.outbox)} emails in the outbox, ${count(row.sent)} sent`)
      break
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  console.log(`  All ${count(attendeeCount)} emails in the outbox after ${emailsMs === null ? 'never' : seconds(emailsMs)}; all sent over SMTP after ${sentMs === null ? 'never' : seconds(sentMs)} (the sink took ${count(smtp.received())})`)
  summary.push({
    figure: `Cancellation: every email in the outbox after ${emailsMs === null ? `more than ${seconds(emailTimeoutMs)}` : seconds(emailsMs)}`,
    goal: `≤ ${seconds(goals.emailsMs)}`,
    met: emailsMs !== null && emailsMs <= goals.emailsMs,
  })
  summary.push({ figure: `Cancellation: every email sent over SMTP (local sink) after ${sentMs === null ? `more than ${seconds(emailTimeoutMs)}` : seconds(sentMs)}` })

  // 2. Reminders for many upcoming activities --------------------------------------------------------
  console.log('')
  console.log(`Scheduling the reminders of ${count(activityCount)} upcoming activities (scheduleRemindersBulk, one transaction)…`)
  queue = await startJobQueue({ url: pg.url, logger: createLogger({ LOG_LEVEL: 'warn', NODE_ENV: 'production' }) })
  const jobQueue = queue
  const remindersBefore = await countRows(db, sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${REMIND_JOB}`)
  // The activities are inserted by the same transaction (not timed), so the instance's reminder
  // sweep never sees them unscheduled; each starts 3 to 30 days from now, so both reminders are ahead.
  const { insertMs, scheduleMs, jobs } = await db.transaction().execute(async (trx) => {
    const insertStarted = performance.now()
    const now = Date.now()
    const activities = Array.from({ length: activityCount }, (_, k) => ({
      k,
      id: randomUUID(),
      start_at: new Date(now + 3 * DAY + ((k * 7919) % (27 * 24)) * 3600 * 1000),
      canceled_at: null,
    }))
    await inBatches(activities, 5000, (batch) =>
      trx
        .insertInto('experiences')
        .values(batch.map((a) => activityRow(a.id, memberIds[a.k % memberIds.length]!, a.k + 1, a.start_at, 0)))
        .execute(),
    )
    const insertMs = performance.now() - insertStarted
    const scheduleStarted = performance.now()
    const jobs = await scheduleRemindersBulk(trx, jobQueue, activities)
    return { insertMs, scheduleMs: performance.now() - scheduleStarted, jobs }
  })
  const remindersQueued = (await countRows(db, sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${REMIND_JOB}`)) - remindersBefore
  const schedules = await countRows(db, sql<{ n: number }>`SELECT count(*)::int AS n FROM experience_reminder_schedules`)
  console.log(`  Inserted the activities in ${seconds(insertMs)} (not counted); scheduleRemindersBulk took ${seconds(scheduleMs)} for ${count(jobs)} jobs`)
  console.log(`  Queue size: ${count(remindersQueued)} ${REMIND_JOB} jobs in pgboss.job, ${count(schedules)} rows in experience_reminder_schedules`)
  summary.push({ figure: `Reminders for ${count(activityCount)} activities: scheduleRemindersBulk in ${seconds(scheduleMs)}; queue size ${count(remindersQueued)} ${REMIND_JOB} jobs` })

  // 3. /notifications against the trivial route --------------------------------------------------------
  if (pageSeconds > 0) {
    // Member 1 (an attendee, who already has the cancellation) gets 29 more, of several kinds.
    const reader = memberIds[1]!
    const kinds = [
      { type: 'experience.reminder', data: { experience_id: activityId, slot: '24h', start_at: new Date(Date.now() + 3 * DAY).toISOString() } },
      { type: 'experience.changed', data: { experience_id: activityId, changes: ['time'] } },
      { type: 'waitlist.seat_available', data: { experience_id: activityId } },
      { type: 'experience.attendee_joined', data: { experience_id: activityId, attendee_id: memberIds[2]! } },
    ]
    await db
      .insertInto('notifications')
      .values(
        Array.from({ length: 29 }, (_, i) => ({
          user_id: reader,
          type: kinds[i % kinds.length]!.type,
          data: JSON.stringify(kinds[i % kinds.length]!.data),
          delivered_at: new Date(),
          seen_at: i % 3 === 0 ? new Date() : null,
          created_at: new Date(Date.now() - (i + 1) * 3600 * 1000),
        })),
      )
      .execute()
    const listed = await countRows(db, sql<{ n: number }>`SELECT count(*)::int AS n FROM notifications WHERE user_id = ${reader} AND in_app`)

    const token = await accessTokenFor(secrets.jwks, { publicUrl, subject: reader, lifetime: '3h' })
    const headers = { cookie: await signedInCookie(db, secrets.sessionSecret, { userId: reader, accessToken: token }) }
    // The seeding above wrote 300,000 rows, which sets PostgreSQL's autovacuum on every table it
    // touched, on a core the instance or the load generator uses, during whichever run comes
    // first. Done now, before anything is timed: the runs measure the pages, not the clean-up.
    await sql`VACUUM (ANALYZE)`.execute(db)
    const check = await fetch(`${publicUrl}/notifications`, { headers, redirect: 'manual' })
    await check.arrayBuffer()
    if (check.status !== 200) throw new Error(`GET /notifications answered ${check.status}`)
    if (statementStats) {
      await sql`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`.execute(db)
      await sql`SELECT pg_stat_statements_reset()`.execute(db)
    }

    const targets = [
      { name: 'trivial Remix route  GET /dev/ping', url: `${publicUrl}/dev/ping`, headers: {} },
      { name: `notifications page   GET /notifications (signed in, ${listed} notifications)`, url: `${publicUrl}/notifications`, headers },
      // What being signed in costs every page (the member, the two badges), apart from the page's own data.
      { name: 'trivial route signed in GET /dev/ping', url: `${publicUrl}/dev/ping`, headers },
    ]
    console.log('')
    console.log(
      `Throughput, autocannon 10 connections, ${pageSeconds} s each after a warm-up (3 s in round 1, then 1 s), in ${rounds} rounds taking turns (the reminder jobs are not due; the queue is idle):`,
    )
    const rates = targets.map(() => [] as number[])
    // Each round's own ratio, from two runs a few seconds apart: the machine's drift between
    // rounds cancels out. The page and the trivial route take turns going first, so a drift
    // within a round favours neither (an ABBA design); the signed-in trivial route runs last.
    const ratios: number[] = []
    let failed = 0
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 === 1 ? [0, 1, 2] : [1, 0, 2]
      for (const index of order) {
        const target = targets[index]!
        await runClient(target.url, round === 1 ? 3 : 1, { headers: target.headers })
        const result = await runClient(target.url, pageSeconds, { headers: target.headers })
        rates[index]!.push(result.rps)
        failed += result.non2xx
        console.log(`  round ${round}  ${target.name}: ${formatClientResult(result)}`)
      }
      ratios.push(rates[1]!.at(-1)! / rates[0]!.at(-1)!)
      console.log(`  round ${round}  /notifications ÷ /dev/ping: ${ratios.at(-1)!.toFixed(2)}×`)
    }
    const [ping, page, signedInPing] = rates.map(median) as [number, number, number]
    const ratio = median(ratios)
    console.log(`  Medians: /dev/ping ${ping.toFixed(1)}, /notifications ${page.toFixed(1)}, /dev/ping signed in ${signedInPing.toFixed(1)} req/s`)
    console.log(
      `  /notifications serves ${ratio.toFixed(2)}× the requests/s of /dev/ping (median of the rounds' ratios, ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}; ratio of the medians ${(page / ping).toFixed(2)}×; ${(page / signedInPing).toFixed(2)}× of /dev/ping signed in)`,
    )
    console.log(`  ${loadLine()}`)
    if (statementStats) await printStatementStats(db)
    summary.push({
      figure: `/notifications ${page.toFixed(1)} req/s against /dev/ping ${ping.toFixed(1)} req/s (medians of ${rounds} rounds); median of the rounds' ratios ${ratio.toFixed(2)}×`,
      goal: `≥ ${goals.pageRatio}×`,
      met: ratio >= goals.pageRatio && failed === 0,
    })
  }

  console.log('')
  console.log('Summary')
  for (const line of summary) {
    const verdict = line.met === undefined ? '' : line.met ? `  [goal ${line.goal}: met]` : `  [goal ${line.goal}: MISSED]`
    console.log(`  ${line.figure}${verdict}`)
  }
  console.log(`  ${loadLine()}`)
} finally {
  await queue?.stop()
  if (server) await stopServer(server)
  await smtp.close()
  await db.destroy()
  await pg.stop()
  rmSync(path.join(root, dataDir), { recursive: true, force: true })
}
