import { rmSync } from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import { createDatabase, migrateToLatest } from '../api/db/database.ts'
import { startEmbeddedPostgres } from '../api/db/embedded.ts'
import { ensureBuild, formatClientResult, freePort, root, runClient, serverEnv, startServer, stopServer, throwawaySecrets, type ClientResult } from './bench-helpers.ts'

/**
 * `npm run bench`: 100,000 activities and 50,000 members in a fresh embedded PostgreSQL, then
 * autocannon on loopback against the production build — server pinned to core 0, load to core 1 —
 * for the explore page (date + 10-mile filter, HTML), the same API query, and a trivial Remix
 * route measured in the same run. Prints requests/s and p50/p95/p99 (ms).
 */
const duration = Number(process.env.BENCH_SECONDS ?? 20)
const connections = 10
const dataDir = '.data/bench-pg'

ensureBuild()

rmSync(path.join(root, dataDir), { recursive: true, force: true })
const pg = await startEmbeddedPostgres({ dataDir })
// Generating the data runs statements over 100,000 rows: no request-sized limit for them.
const { db } = createDatabase(pg.url, { statementTimeoutMs: 0 })
await migrateToLatest(db)
const started = Date.now()
await generate()
console.log(`Generated 50,000 members and 100,000 activities in ${((Date.now() - started) / 1000).toFixed(1)} s`)

const port = await freePort()
const base = `http://localhost:${port}`
// BENCH_PROFILE=1 writes a V8 CPU profile of the server to .data/bench-profile/ (open it in
// Chrome DevTools, or summarise it with scripts/profile-summary.ts).
const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=.data/bench-profile'] : []
const server = await startServer({
  env: serverEnv({ port, publicUrl: base, databaseUrl: pg.url, secrets: await throwawaySecrets() }),
  core: 0,
  nodeArgs: profile,
})
try {
  const places = (await (await fetch(`${base}/api/v1/places?query=Chicago`)).json()) as { data: { id: string; latitude: number; longitude: number }[] }
  const chicago = places.data[0]
  if (!chicago) throw new Error('The places search found no Chicago: is the gazetteer loaded?')
  const now = new Date()
  const week = new Date(now.getTime() + 7 * 24 * 3600 * 1000)
  const apiQuery = new URLSearchParams({
    'start_date[gte]': now.toISOString(),
    'start_date[lte]': week.toISOString(),
    'distance[lte]': '10',
    latitude: String(chicago.latitude),
    longitude: String(chicago.longitude),
    per_page: '12',
  })
  const targets = [
    { name: 'trivial Remix route  GET /dev/ping', url: `${base}/dev/ping` },
    { name: 'explore page         GET /activities?date=this-week&distance=10', url: `${base}/activities?date=this-week&distance=10&place=${encodeURIComponent(chicago.id)}` },
    { name: 'API                  GET /api/v1/experiences (same filters)', url: `${base}/api/v1/experiences?${apiQuery.toString()}` },
  ]
  const results: Record<string, ClientResult> = {}
  // BENCH_ONLY=explore (a word of a target's name) measures that target alone, for profiling.
  const only = process.env.BENCH_ONLY
  for (const target of targets.filter((t) => !only || t.name.includes(only))) {
    // Warm up, then measure.
    await runClient(target.url, 3, { connections })
    const result = await runClient(target.url, duration, { connections })
    results[target.name] = result
    console.log(`${target.name}: ${formatClientResult(result)}`)
  }
  const trivial = results[targets[0]!.name]
  const page = results[targets[1]!.name]
  const api = results[targets[2]!.name]
  if (trivial && page && api) console.log(`Explore page throughput is ${(page.rps / trivial.rps).toFixed(2)}× the trivial route's (goal ≥ 0.5); page p95 ${page.p95.toFixed(1)} ms (goal ≤ 100), API p95 ${api.p95.toFixed(1)} ms (goal ≤ 25).`)
} finally {
  await stopServer(server)
  await db.destroy()
  await pg.stop()
  rmSync(path.join(root, dataDir), { recursive: true, force: true })
}

async function generate() {
  // Members spread over 60 metro areas; activities within ~15 miles of them over ±60 days.
  await sql`
    CREATE TEMP TABLE metros AS
      SELECT row_number() OVER () AS n, * FROM (VALUES
        ('Chicago', 'IL', 41.8781, -87.6298, 'America/Chicago'), ('New York', 'NY', 40.7128, -74.006, 'America/New_York'),
        ('Los Angeles', 'CA', 34.0522, -118.2437, 'America/Los_Angeles'), ('Houston', 'TX', 29.7604, -95.3698, 'America/Chicago'),
        ('Phoenix', 'AZ', 33.4484, -112.074, 'America/Phoenix'), ('Philadelphia', 'PA', 39.9526, -75.1652, 'America/New_York'),
        ('San Antonio', 'TX', 29.4241, -98.4936, 'America/Chicago'), ('San Diego', 'CA', 32.7157, -117.1611, 'America/Los_Angeles'),
        ('Dallas', 'TX', 32.7767, -96.797, 'America/Chicago'), ('Austin', 'TX', 30.2672, -97.7431, 'America/Chicago'),
        ('Jacksonville', 'FL', 30.3322, -81.6557, 'America/New_York'), ('Columbus', 'OH', 39.9612, -82.9988, 'America/New_York'),
        ('Charlotte', 'NC', 35.2271, -80.8431, 'America/New_York'), ('Indianapolis', 'IN', 39.7684, -86.1581, 'America/Indiana/Indianapolis'),
        ('Seattle', 'WA', 47.6062, -122.3321, 'America/Los_Angeles'), ('Denver', 'CO', 39.7392, -104.9903, 'America/Denver'),
        ('Boston', 'MA', 42.3601, -71.0589, 'America/New_York'), ('Nashville', 'TN', 36.1627, -86.7816, 'America/Chicago'),
        ('Portland', 'OR', 45.5152, -122.6784, 'America/Los_Angeles'), ('Las Vegas', 'NV', 36.1699, -115.1398, 'America/Los_Angeles'),
        ('Detroit', 'MI', 42.3314, -83.0458, 'America/Detroit'), ('Memphis', 'TN', 35.1495, -90.049, 'America/Chicago'),
        ('Baltimore', 'MD', 39.2904, -76.6122, 'America/New_York'), ('Milwaukee', 'WI', 43.0389, -87.9065, 'America/Chicago'),
        ('Albuquerque', 'NM', 35.0844, -106.6504, 'America/Denver'), ('Tucson', 'AZ', 32.2226, -110.9747, 'America/Phoenix'),
        ('Sacramento', 'CA', 38.5816, -121.4944, 'America/Los_Angeles'), ('Atlanta', 'GA', 33.749, -84.388, 'America/New_York'),
        ('Miami', 'FL', 25.7617, -80.1918, 'America/New_York'), ('Minneapolis', 'MN', 44.9778, -93.265, 'America/Chicago')
      ) AS m(city, region, lat, lng, tz)
  `.execute(db)
  await sql`
    INSERT INTO users (id, auth_subject, slug, email, first_name, last_name, dob, state, lat, long, city, region, onboarded_at)
    SELECT gen_random_uuid(), NULL, 'bench-' || g, 'bench' || g || '@bench.test', 'Member', 'Number' || g,
           date '1950-01-01' + (g % 5000), 'active', m.lat + (random() - 0.5) * 0.3, m.lng + (random() - 0.5) * 0.3, m.city, m.region, now()
    FROM generate_series(1, 50000) g JOIN metros m ON m.n = 1 + g % 30
  `.execute(db)
  await sql`
    INSERT INTO experiences (slug, host_id, title, description, max_attendees, attendees_count, start_at, end_at, timezone,
                             venue_type, latitude, longitude, formatted_address, place_id, city, region)
    SELECT 'bench-activity-' || g, u.id, 'Activity ' || g, 'A benchmark activity.', CASE WHEN g % 4 = 0 THEN NULL ELSE 4 + g % 16 END, g % 5,
           date_trunc('hour', now()) + ((g % 2880) - 1440) * interval '1 hour' + (g % 12) * interval '5 minutes',
           date_trunc('hour', now()) + ((g % 2880) - 1440) * interval '1 hour' + interval '2 hours', m.tz,
           CASE WHEN g % 5 = 0 THEN 'online'::venue_type ELSE 'in_person'::venue_type END,
           CASE WHEN g % 5 = 0 THEN NULL ELSE m.lat + (random() - 0.5) * 0.4 END,
           CASE WHEN g % 5 = 0 THEN NULL ELSE m.lng + (random() - 0.5) * 0.4 END,
           CASE WHEN g % 5 = 0 THEN NULL ELSE g || ' Main St, ' || m.city || ', ' || m.region END,
           NULL, m.city, m.region
    FROM generate_series(1, 100000) g
    JOIN metros m ON m.n = 1 + g % 30
    JOIN LATERAL (SELECT id FROM users WHERE slug = 'bench-' || (1 + g % 50000)) u ON true
  `.execute(db)
  await sql`ANALYZE`.execute(db)
}
