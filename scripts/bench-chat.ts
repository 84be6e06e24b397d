import { randomUUID } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { createDatabase, migrateToLatest, type DB } from '../api/db/database.ts'
import { startEmbeddedPostgres } from '../api/db/embedded.ts'
import type { ChatMessageEvent } from '../contract/chat.ts'
import { readSse, type SseReader } from '../tests/sse.ts'
import {
  accessTokenFor,
  ensureBuild,
  formatClientResult,
  freePort,
  loadLine,
  numberOption,
  percentile,
  root,
  rssOf,
  runClient,
  serverEnv,
  signedInCookie,
  startServer,
  stopServer,
  throwawaySecrets,
  type ClientResult,
} from './bench-helpers.ts'

/**
 * `npm run bench:chat` (issue 14 §8, decision 040): live chat at scale, printed as figures (a
 * benchmark, not a timed test). Two production server instances (`server.ts`, web tier and API
 * in each) on one embedded PostgreSQL; 1,000 members, each with one `EventSource`-like stream on
 * `/messenger/events` (the web tier's relay of `GET v1/chat/events`, signed in with a session
 * cookie), alternately on either instance; then 50 messages a second posted through
 * `POST /api/v1/chat/message-channels/{id}/messages` (bearer token), each by a member of the
 * channel through the instance their own stream is on.
 *
 * The chats are a mix: every member is in 2 activity chats of 10 (a host and 9 attendees, the
 * members of each chat spread over both instances) and 2 direct channels (a ring of pairs); 60 %
 * of the messages go to activity chats (each read by 10 streams), 40 % to direct ones (2 streams).
 * Each message's text starts with its number; the bench notes when it sent the POST and when each
 * stream parsed the event, so latency is post → receipt on another member's stream, and every
 * stream of every member of the channel (the sender's own included) must get each message exactly
 * once. A stream that ends is reopened after the `retry:` delay with `Last-Event-ID`, as a browser
 * does, and what it then replays counts.
 *
 * Prints: post → receipt p50/p95/p99 (all, by kind of chat, same instance or across), messages
 * lost (not received 60 s after the last POST answered), duplicated or delivered to a stream that
 * may not read them, what PostgreSQL's sessions did while posting, memory per connection (each
 * instance's RSS from /proc/<pid>/status, read after each of 10 batches of streams opened: the
 * median step divided by the batch's streams, and the overall growth), and with the streams still
 * open (posting stopped) the throughput of the signed-in `/messenger` page against the trivial
 * routes `/healthz` and `/dev/ping` on instance A (autocannon, scripts/bench-client.ts), with the
 * load average. Goals: delivery p95 ≤ 150 ms; none lost or duplicated. The instances' logs stay
 * in .data/bench-chat-{a,b}.log.
 *
 * Options (flag or environment variable, defaults in brackets):
 *   --connections=N   BENCH_CHAT_CONNECTIONS   streams (one per member) [1000]
 *   --rate=N          BENCH_CHAT_RATE          messages posted per second [50]
 *   --seconds=N       BENCH_CHAT_SECONDS       seconds of posting [30]
 *   --group-size=N    BENCH_CHAT_GROUP_SIZE    members of each activity chat [10]
 *   --direct-share=F  BENCH_CHAT_DIRECT_SHARE  share of messages sent in direct channels [0.4]
 *   --page-seconds=N  BENCH_CHAT_PAGE_SECONDS  seconds of each throughput run (after a 3 s warm-up); 0 skips them [10]
 *   --build                                    rebuild the web app first
 *                     BENCH_CHAT_CPU_PROF      a folder: each instance writes a V8 CPU profile there when it stops
 * e.g. a short trial: `npm run bench:chat -- --connections=100 --seconds=10 --page-seconds=3`.
 */
const { values: flags } = parseArgs({
  options: {
    connections: { type: 'string' },
    rate: { type: 'string' },
    seconds: { type: 'string' },
    'group-size': { type: 'string' },
    'direct-share': { type: 'string' },
    'page-seconds': { type: 'string' },
    build: { type: 'boolean' },
  },
})
const option = numberOption
const connections = Math.round(option(flags.connections, 'BENCH_CHAT_CONNECTIONS', 1000))
const rate = option(flags.rate, 'BENCH_CHAT_RATE', 50)
const cpuProfileDir = process.env.BENCH_CHAT_CPU_PROF ? path.resolve(process.env.BENCH_CHAT_CPU_PROF) : null
const seconds = option(flags.seconds, 'BENCH_CHAT_SECONDS', 30)
const groupSize = Math.round(option(flags['group-size'], 'BENCH_CHAT_GROUP_SIZE', 10))
const directShare = option(flags['direct-share'], 'BENCH_CHAT_DIRECT_SHARE', 0.4)
const pageSeconds = option(flags['page-seconds'], 'BENCH_CHAT_PAGE_SECONDS', 10)
if (connections < 2 * groupSize || connections % groupSize !== 0) throw new Error(`--connections must be a multiple of --group-size and at least two groups`)
if (directShare > 1 || rate <= 0) throw new Error('--direct-share is a share (0 to 1); --rate must be above 0')

const dataDir = '.data/bench-chat-pg'
/** Each instance's log (warnings and errors), kept after the run. */
const logFiles = ['.data/bench-chat-a.log', '.data/bench-chat-b.log']
const goalP95Ms = 150
/**
 * How long after the last POST answered the bench waits for missing deliveries (a stream the
 * server closed comes back after its `retry:` and replays what it missed) before counting them lost.
 */
const drainMs = 60_000
/** How long an instance runs before its memory counts as the baseline (see settledRss). */
const minimumUptimeMs = 60_000
/** Streams opened at once while setting up. */
const openConcurrency = 50

/** A deterministic pseudo-random sequence (mulberry32), so two runs post the same messages. */
function random(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const ms = (value: number) => `${value.toFixed(1)} ms`
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
function spread(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return 'none'
  return `p50 ${ms(percentile(sorted, 50))}, p95 ${ms(percentile(sorted, 95))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1)!)} (${sorted.length})`
}

/** The soft limit on open files (Linux), which 1,000 streams and their servers need room under. */
function openFileLimit() {
  try {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'))
    return match?.[1] === 'unlimited' ? Infinity : Number(match?.[1] ?? Infinity)
  } catch {
    return Infinity
  }
}
if (openFileLimit() < connections + 500) {
  throw new Error(`The open-file limit (${openFileLimit()}) is too low for ${connections} streams: raise it (ulimit -n ${connections * 2 + 1000}) or use fewer --connections`)
}

// The chats -----------------------------------------------------------------------------------------

interface Channel {
  id: string
  kind: 'experience' | 'direct'
  /** Members (indexes) who read it: its streams. */
  members: number[]
}

/**
 * Member i is in the activity chat of group ⌊i / size⌋ (hosted by its first member), in a second
 * one made of the same groups of a shuffled order (a stride that visits every member once), and in
 * the direct channels with members i − 1 and i + 1. Member i's stream is on instance i mod 2, so
 * every chat has readers on both.
 */
function designChats() {
  const groups = connections / groupSize
  const stride = [101, 103, 107, 109, 113].find((candidate) => gcd(candidate, connections) === 1) ?? 1
  const activities: Channel[] = []
  for (let round = 0; round < 2; round++) {
    for (let g = 0; g < groups; g++) {
      const members = Array.from({ length: groupSize }, (_, k) => (round === 0 ? g * groupSize + k : ((g * groupSize + k) * stride) % connections))
      activities.push({ id: randomUUID(), kind: 'experience', members })
    }
  }
  const directs: Channel[] = Array.from({ length: connections }, (_, i) => ({ id: randomUUID(), kind: 'direct', members: [i, (i + 1) % connections] }))
  return { activities, directs }
}
function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b)
}

async function seed(db: DB, memberIds: string[], chats: ReturnType<typeof designChats>) {
  const now = Date.now()
  const yearAgo = new Date(now - 365 * 24 * 3600 * 1000)
  const inBatches = async <T>(rows: T[], insert: (batch: T[]) => Promise<unknown>) => {
    for (let i = 0; i < rows.length; i += 1000) await insert(rows.slice(i, i + 1000))
  }
  await inBatches(
    memberIds.map((id, i) => ({
      id,
      auth_subject: id,
      slug: `chat-bench-${i}`,
      email: `chat-bench-${i}@bench.test`,
      first_name: 'Member',
      last_name: `Number ${i}`,
      dob: new Date(Date.UTC(1950, 0, 1 + (i % 5000))).toISOString().slice(0, 10),
      state: 'active' as const,
      city: 'Chicago',
      region: 'IL',
      onboarded_at: yearAgo,
      created_at: yearAgo,
    })),
    (batch) => db.insertInto('users').values(batch).execute(),
  )
  // Each activity chat belongs to an activity two days from now, hosted by its first member.
  const experiences = chats.activities.map((channel, k) => ({
    id: randomUUID(),
    slug: `chat-bench-activity-${k}`,
    host_id: memberIds[channel.members[0]!]!,
    title: `Chat bench activity ${k}`,
    max_attendees: null,
    attendees_count: channel.members.length - 1,
    start_at: new Date(now + 2 * 24 * 3600 * 1000),
    end_at: new Date(now + 2 * 24 * 3600 * 1000 + 2 * 3600 * 1000),
    venue_type: 'online' as const,
    city: 'Chicago',
    region: 'IL',
  }))
  await inBatches(experiences, (batch) => db.insertInto('experiences').values(batch).execute())
  await inBatches(
    chats.activities.flatMap((channel, k) => channel.members.slice(1).map((member) => ({ experience_id: experiences[k]!.id, user_id: memberIds[member]! }))),
    (batch) => db.insertInto('experience_attendees').values(batch).execute(),
  )
  await inBatches(
    [
      ...chats.activities.map((channel, k) => ({ id: channel.id, kind: 'experience' as const, experience_id: experiences[k]!.id, created_by: memberIds[channel.members[0]!]! })),
      ...chats.directs.map((channel) => {
        const [a, b] = channel.members.map((member) => memberIds[member]!) as [string, string]
        return { id: channel.id, kind: 'direct' as const, direct_key: [a, b].sort().join(':'), created_by: a }
      }),
    ],
    (batch) => db.insertInto('message_channels').values(batch).execute(),
  )
  // Everyone joined their chats and accepted their direct channels.
  await inBatches(
    [...chats.activities, ...chats.directs].flatMap((channel) => channel.members.map((member) => ({ channel_id: channel.id, user_id: memberIds[member]!, is_accepted: true }))),
    (batch) => db.insertInto('channel_memberships').values(batch).execute(),
  )
}

// The run ---------------------------------------------------------------------------------------------

if (flags.build) process.argv.push('--build')
ensureBuild()
console.log(`Starting (${loadLine()})`)
rmSync(path.join(root, dataDir), { recursive: true, force: true })
const pg = await startEmbeddedPostgres({ dataDir })
const { db } = createDatabase(pg.url, { statementTimeoutMs: 0 })
const servers: Array<Awaited<ReturnType<typeof startServer>>> = []
const streams: Stream[] = []
let stopping = false

interface Stream {
  member: number
  instance: number
  readers: SseReader[]
  /** Events of `readers` already looked at, per reader. */
  scanned: number[]
  reconnects: number
  failures: number
}

try {
  await migrateToLatest(db)
  const memberIds = Array.from({ length: connections }, () => randomUUID())
  const chats = designChats()
  await seed(db, memberIds, chats)
  console.log(
    `Seeded ${connections} members, ${chats.activities.length} activity chats of ${groupSize} and ${chats.directs.length} direct channels (each member in 2 of each)`,
  )

  // Two instances behind an imaginary load balancer: one PUBLIC_URL (so one token issuer and one
  // cookie), X-Forwarded-Host naming it and X-Forwarded-For naming each member's own address.
  const ports = [await freePort(), await freePort()] as const
  const publicUrl = `http://localhost:${ports[0]}`
  const publicHost = new URL(publicUrl).host
  const bases = ports.map((port) => `http://localhost:${port}`)
  const secrets = await throwawaySecrets()
  const serversStarted = Date.now()
  servers.push(
    ...(await Promise.all(
      ports.map((port, i) =>
        startServer({
          env: serverEnv({ port, publicUrl, databaseUrl: pg.url, secrets, extra: { TRUST_PROXY: '1' } }),
          logFile: path.join(root, logFiles[i]!),
          nodeArgs: cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [],
        }),
      ),
    )),
  )
  const pids = servers.map((server) => server.pid)
  console.log(`Two instances: A on ${bases[0]} (pid ${pids[0]}), B on ${bases[1]} (pid ${pids[1]}), one PostgreSQL`)

  // Each member: an access token (as the built-in provider signs it) and a web session holding it.
  const tokens = await Promise.all(memberIds.map((id) => accessTokenFor(secrets.jwks, { publicUrl, subject: id, lifetime: '3h' })))
  const cookies = await Promise.all(memberIds.map((id, i) => signedInCookie(db, secrets.sessionSecret, { userId: id, accessToken: tokens[i]! })))
  const addressOf = (member: number) => `10.${(member >> 16) & 255}.${(member >> 8) & 255}.${member & 255}`
  const webHeaders = (member: number) => ({ cookie: cookies[member]!, 'x-forwarded-host': publicHost, 'x-forwarded-for': addressOf(member) })

  // Warm both instances up (the first page renders, the profile-photo models load in their
  // worker at start), then wait for their memory to settle before taking the baseline.
  for (const base of bases) {
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${base}/messenger`, { headers: webHeaders(0), redirect: 'manual' })
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`GET /messenger on ${base} answered ${response.status}`)
    }
  }
  const baseline = await settledRss(pids, serversStarted)

  // The streams, opened in 10 batches (50 at a time), each instance's RSS read after each batch.
  const openStarted = performance.now()
  const openTimes: number[] = []
  for (let member = 0; member < connections; member++) {
    streams.push({ member, instance: member % 2, readers: [], scanned: [], reconnects: 0, failures: 0 })
  }
  const batches = 10
  const rssSteps: Array<Array<number | null>> = [baseline]
  for (let batch = 0; batch < batches; batch++) {
    const queue = streams.slice(Math.round((batch * connections) / batches), Math.round(((batch + 1) * connections) / batches))
    await Promise.all(
      Array.from({ length: openConcurrency }, async () => {
        for (let stream = queue.shift(); stream; stream = queue.shift()) {
          const t0 = performance.now()
          await openWithRetries(stream)
          openTimes.push(performance.now() - t0)
        }
      }),
    )
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    rssSteps.push(pids.map(rssOf))
  }
  console.log(`Opened ${connections} streams (${connections / 2} on each instance) in ${((performance.now() - openStarted) / 1000).toFixed(1)} s; each open ${spread(openTimes)}`)
  const withStreams = rssSteps.at(-1)!

  /** Opens (or reopens, with the last event id it saw) a member's stream, and reopens it when it ends. */
  async function open(stream: Stream): Promise<void> {
    const lastId = stream.readers.flatMap((reader) => reader.events.filter((event) => event.id !== undefined)).at(-1)?.id
    const response = await fetch(`${bases[stream.instance]}/messenger/events`, {
      headers: { ...webHeaders(stream.member), accept: 'text/event-stream', ...(lastId ? { 'last-event-id': lastId } : {}) },
      redirect: 'manual',
    })
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel()
      throw new Error(`GET /messenger/events for member ${stream.member} answered ${response.status}`)
    }
    const reader = readSse(response.body)
    stream.readers.push(reader)
    stream.scanned.push(0)
    try {
      await reader.next((event) => event.event === 'ready', 60_000)
    } catch (error) {
      // An empty stream that asks to come back later (the API could not stream), or no answer.
      await reader.close()
      throw error
    }
    void reader.ended.then(async () => {
      if (stopping) return
      // As EventSource: wait the stream's `retry:` (3 s), then reconnect with Last-Event-ID.
      stream.reconnects++
      await new Promise((resolve) => setTimeout(resolve, 3_000))
      if (!stopping) await openWithRetries(stream).catch(() => undefined)
    })
  }

  /** As EventSource after a network error or an error answer: tries again 3 s later (10 times at most). */
  async function openWithRetries(stream: Stream) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await open(stream)
      } catch (error) {
        stream.failures++
        if (attempt >= 10 || stopping) throw error
        await new Promise((resolve) => setTimeout(resolve, 3_000))
      }
    }
  }

  // Posting ---------------------------------------------------------------------------------------
  const total = Math.round(rate * seconds)
  const pick = random(55)
  interface Post {
    n: number
    channel: Channel
    sender: number
    at: number
    status?: number
    took?: number
  }
  const posts: Post[] = []
  const phrases = [
    'Looking forward to it, see you at the entrance.',
    'Does anyone need a lift? I can take two people.',
    'Thank you all, that was a lovely afternoon.',
    'I will bring the cards and a thermos of coffee.',
    'Running ten minutes late, please start without me.',
  ]
  const lag = monitorEventLoopDelay({ resolution: 10 })
  lag.enable()
  const database = sampleDatabase(db)
  console.log(`Posting ${total} messages at ${rate}/s for ${seconds} s (${Math.round((1 - directShare) * 100)} % to activity chats, ${Math.round(directShare * 100)} % direct)…`)
  const postStarted = performance.now()
  const pending: Array<Promise<void>> = []
  for (let n = 0; n < total; n++) {
    const due = postStarted + (n * 1000) / rate
    const wait = due - performance.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    const pool = pick() < directShare ? chats.directs : chats.activities
    const channel = pool[Math.floor(pick() * pool.length)]!
    const sender = channel.members[Math.floor(pick() * channel.members.length)]!
    const post: Post = { n, channel, sender, at: performance.now() }
    posts.push(post)
    pending.push(
      fetch(`${bases[sender % 2]}/api/v1/chat/message-channels/${channel.id}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens[sender]}`, 'content-type': 'application/json', 'x-forwarded-for': addressOf(sender) },
        body: JSON.stringify({ text: `#${n} ${phrases[n % phrases.length]}` }),
      }).then(
        async (response) => {
          await response.arrayBuffer()
          post.status = response.status
          post.took = performance.now() - post.at
        },
        () => {
          post.status = 0
        },
      ),
    )
  }
  const issuedIn = (performance.now() - postStarted) / 1000
  await Promise.all(pending)
  const answeredIn = (performance.now() - postStarted) / 1000
  const pgSessions = await database.stop()

  // What was stored decides what every reader must get: a POST that answered an error may still
  // have committed its message (and one that answered 201 must have).
  const stored = new Set(
    (await db.selectFrom('messages').select(['body', 'channel_id']).where('body', 'like', '#%').execute()).flatMap((row) => {
      const n = Number(/^#(\d+) /.exec(row.body)?.[1] ?? NaN)
      return posts[n]?.channel.id === row.channel_id ? [n] : []
    }),
  )
  const delivered = posts.filter((post) => post.status === 201)
  const expected = new Map<string, number>() // `${n}:${member}` → receipts
  for (const n of stored) for (const member of posts[n]!.channel.members) expected.set(`${n}:${member}`, 0)
  let unexpected = 0
  let unreadEvents = 0
  let otherEvents = 0
  const latencies = { all: [] as number[], experience: [] as number[], direct: [] as number[], same: [] as number[], across: [] as number[] }
  function absorb() {
    for (const stream of streams) {
      stream.readers.forEach((reader, r) => {
        for (; stream.scanned[r]! < reader.events.length; stream.scanned[r]!++) {
          const event = reader.events[stream.scanned[r]!]!
          if (event.event === 'unread') unreadEvents++
          if (event.event !== 'message') {
            if (event.event !== 'ready') otherEvents++
            continue
          }
          const data = JSON.parse(event.data) as ChatMessageEvent
          const n = Number(/^#(\d+) /.exec(data.message.body ?? '')?.[1] ?? NaN)
          const key = `${n}:${stream.member}`
          const count = expected.get(key)
          if (count === undefined) {
            unexpected++
            continue
          }
          expected.set(key, count + 1)
          const post = posts[n]!
          if (count > 0 || stream.member === post.sender) continue
          const latency = event.at - post.at
          latencies.all.push(latency)
          latencies[post.channel.kind].push(latency)
          latencies[stream.instance === post.sender % 2 ? 'same' : 'across'].push(latency)
        }
      })
    }
  }
  const drainStarted = performance.now()
  const drainUntil = drainStarted + drainMs
  for (;;) {
    absorb()
    const missing = [...expected.values()].filter((count) => count === 0).length
    if (missing === 0 || performance.now() > drainUntil) break
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const drainedIn = (performance.now() - drainStarted) / 1000
  lag.disable()
  const afterPosting = pids.map(rssOf)
  const lost = [...expected.values()].filter((count) => count === 0).length
  const duplicated = [...expected.values()].filter((count) => count > 1).length
  const refused = posts.filter((post) => post.status !== 201)
  const refusedButStored = refused.filter((post) => stored.has(post.n)).length
  const acceptedButMissing = delivered.filter((post) => !stored.has(post.n)).length

  // Figures ---------------------------------------------------------------------------------------
  const p95 = percentile([...latencies.all].sort((a, b) => a - b), 95)
  console.log('')
  console.log(
    `Posted ${posts.length} messages over ${issuedIn.toFixed(1)} s (${(posts.length / issuedIn).toFixed(1)}/s sent; the last answered after ${answeredIn.toFixed(1)} s): ${delivered.length} × 201${refused.length ? `, ${refused.length} errors (statuses ${[...new Set(refused.map((post) => post.status))].join(', ')}), ${refusedButStored} of them stored all the same` : ''}${acceptedButMissing ? `, ${acceptedButMissing} answered 201 but not stored` : ''}`,
  )
  console.log(`POST answer time: ${spread(delivered.map((post) => post.took!))}`)
  console.log(
    `PostgreSQL sessions while posting (mean of ${pgSessions.samples} samples): ${pgSessions.lockWaits.toFixed(1)} waiting for the chat's write lock, ${pgSessions.idleInTransaction.toFixed(1)} idle in a transaction (waiting for Node), ${pgSessions.active.toFixed(1)} running a statement`,
  )
  console.log(`Delivery, post → receipt on another member's stream: ${spread(latencies.all)}`)
  console.log(`  activity chats: ${spread(latencies.experience)}`)
  console.log(`  direct channels: ${spread(latencies.direct)}`)
  console.log(`  stream on the sender's instance: ${spread(latencies.same)}`)
  console.log(`  stream on the other instance: ${spread(latencies.across)}`)
  console.log(`  goal p95 ≤ ${goalP95Ms} ms: ${p95 <= goalP95Ms ? 'met' : 'MISSED'}`)
  console.log(
    `Lost ${lost}, duplicated ${duplicated} of ${expected.size} expected deliveries (every stream of the channel's members, the sender's own included; ${lost ? `still missing ${drainMs / 1000} s` : `all in ${drainedIn.toFixed(1)} s`} after the last POST answered); ${unexpected} delivered to a stream that may not read them — goal 0 lost or duplicated: ${lost === 0 && duplicated === 0 && unexpected === 0 ? 'met' : 'MISSED'}`,
  )
  console.log(`Streams that ended and were reopened: ${streams.reduce((sum, s) => sum + s.reconnects, 0)} (failed attempts to open ${streams.reduce((sum, s) => sum + s.failures, 0)}); ${unreadEvents} unread events, ${otherEvents - unreadEvents} others (resync)`)
  for (const [i, name] of ['A', 'B'].entries()) {
    const before = baseline[i] ?? 0
    const opened = withStreams[i] ?? 0
    const after = afterPosting[i] ?? 0
    const count = streams.filter((stream) => stream.instance === i).length
    // The median of the batches' steps: robust to memory the process gives back or takes for
    // other reasons (a GC, the photo worker) during one of them.
    const steps = rssSteps.slice(1).map((step, k) => ((step[i] ?? 0) - (rssSteps[k]![i] ?? 0)) / (count / batches))
    const median = percentile([...steps].sort((a, b) => a - b), 50)
    console.log(
      `Memory, instance ${name}: ${kb(median)} per connection (median of ${batches} batches of ${count / batches} streams; steps ${steps.map((step) => (step / 1024).toFixed(0)).join(', ')} KB); RSS ${mb(before)} before, ${mb(opened)} with ${count} streams open (${kb((opened - before) / count)} per connection overall), ${mb(after)} after posting`,
    )
  }
  for (const [i, file] of logFiles.entries()) console.log(`Instance ${'AB'[i]}'s warnings and errors so far (${file}): ${logSummary(path.join(root, file))}`)
  console.log(`Bench process event-loop delay while posting and receiving (it also times the receipts): p50 ${ms(lag.percentile(50) / 1e6)}, p99 ${ms(lag.percentile(99) / 1e6)}, max ${ms(lag.max / 1e6)}`)
  console.log(loadLine())

  // Throughput, with the streams still open and posting stopped --------------------------------------
  if (pageSeconds > 0) {
    const targets = [
      { name: 'trivial route        GET /healthz', url: `${bases[0]}/healthz`, headers: {} },
      { name: 'trivial Remix route  GET /dev/ping', url: `${bases[0]}/dev/ping`, headers: {} },
      { name: 'messenger page       GET /messenger (signed in, 4 chats)', url: `${bases[0]}/messenger`, headers: webHeaders(0) },
    ]
    console.log('')
    console.log(`Throughput on instance A with the ${connections} streams open (no posting), autocannon 10 connections, ${pageSeconds} s each after a 3 s warm-up:`)
    const results: ClientResult[] = []
    for (const target of targets) {
      await runClient(target.url, 3, { headers: target.headers })
      const result = await runClient(target.url, pageSeconds, { headers: target.headers })
      results.push(result)
      console.log(`  ${target.name}: ${formatClientResult(result)}`)
    }
    const [health, ping, page] = results as [ClientResult, ClientResult, ClientResult]
    console.log(`  /messenger serves ${(page.rps / health.rps).toFixed(2)}× the requests/s of /healthz and ${(page.rps / ping.rps).toFixed(2)}× those of /dev/ping`)
    console.log(`  ${loadLine()}`)
  }
  absorb()
  const lateLost = [...expected.values()].filter((count) => count === 0).length
  const lateDuplicated = [...expected.values()].filter((count) => count > 1).length
  if (lateLost !== lost || lateDuplicated !== duplicated || unexpected > 0) {
    console.log(`At the end: lost ${lateLost}, duplicated ${lateDuplicated}, unexpected ${unexpected}`)
  }
} finally {
  stopping = true
  await Promise.all(streams.flatMap((stream) => stream.readers.map((reader) => reader.close())))
  for (const server of servers) await stopServer(server)
  await db.destroy()
  await pg.stop()
  rmSync(path.join(root, dataDir), { recursive: true, force: true })
}

/**
 * What PostgreSQL's sessions are doing, sampled every 250 ms until `stop`: waiting for the chat's
 * write lock (an advisory lock, decision 032), idle inside a transaction (the lock holder waiting
 * for its Node process), or running a statement.
 */
function sampleDatabase(db: DB) {
  const totals = { lockWaits: 0, idleInTransaction: 0, active: 0, samples: 0 }
  let running = true
  const done = (async () => {
    while (running) {
      const row = (
        await sql<{ lock_waits: number; idle_in_tx: number; active: number }>`SELECT
            count(*) FILTER (WHERE wait_event = 'advisory')::int AS lock_waits,
            count(*) FILTER (WHERE state = 'idle in transaction')::int AS idle_in_tx,
            count(*) FILTER (WHERE state = 'active' AND wait_event IS DISTINCT FROM 'advisory')::int AS active
          FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`.execute(db)
      ).rows[0]
      if (row) {
        totals.lockWaits += row.lock_waits
        totals.idleInTransaction += row.idle_in_tx
        totals.active += row.active
        totals.samples++
      }
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  })()
  return {
    async stop() {
      running = false
      await done
      const n = Math.max(1, totals.samples)
      return { lockWaits: totals.lockWaits / n, idleInTransaction: totals.idleInTransaction / n, active: totals.active / n, samples: totals.samples }
    },
  }
}

/** The log's warnings and errors, counted by message. */
function logSummary(file: string) {
  const counts = new Map<string, number>()
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string }
      if ((entry.level ?? 0) >= 40) counts.set(entry.msg ?? '?', (counts.get(entry.msg ?? '?') ?? 0) + 1)
    } catch {
      // not a log line
    }
  }
  return counts.size === 0 ? 'none' : [...counts].map(([message, count]) => `${count} × "${message}"`).join(', ')
}

/**
 * RSS of each process once it has run for a minute and stopped moving (under 2 MB in each of three
 * 2-second steps), or after 2 minutes: at start the profile-photo models load in a worker (RSS
 * passes 1 GB) and about 45 s later, idle, V8 gives back a few hundred MB; either would swamp
 * the streams' share.
 */
async function settledRss(pids: Array<number | undefined>, since: number) {
  let last = pids.map(rssOf)
  let still = 0
  const started = Date.now()
  while (Date.now() - started < 120_000 && (still < 3 || Date.now() - since < minimumUptimeMs)) {
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    const now = pids.map(rssOf)
    const moved = now.some((value, i) => Math.abs((value ?? 0) - (last[i] ?? 0)) > 2 * 1024 * 1024)
    still = moved ? 0 : still + 1
    last = now
  }
  console.log(`Memory settled ${((Date.now() - since) / 1000).toFixed(0)} s after the start: RSS ${last.map((value) => mb(value ?? 0)).join(' and ')}`)
  return last
}
