/**
 * End-to-end run: build when the build is missing or older than its sources (never with
 * --no-build), start the server on a free port with a fresh embedded PostgreSQL folder, wait for
 * /healthz, run Playwright, then stop and clean up.
 * Extra arguments after the options are passed to `playwright test`.
 *
 * For the two-instance test (issue 14 §2, decision 035) a second server starts on the first
 * one's PostgreSQL, as a second instance behind a load balancer would (same PUBLIC_URL, its own
 * port), and Playwright gets its address as BASE_URL_2. It starts when the whole suite runs or
 * when the arguments name messenger-live; E2E_SECOND_INSTANCE=1 or 0 decides otherwise.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildIfStale } from './build-freshness.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const skipBuild = args.includes('--no-build')
const playwrightArgs = args.filter((arg) => arg !== '--no-build')
const specArgs = playwrightArgs.filter((arg) => !arg.startsWith('-'))
const secondInstance =
  process.env.E2E_SECOND_INSTANCE === '1' ||
  (process.env.E2E_SECOND_INSTANCE !== '0' && (specArgs.length === 0 || specArgs.some((arg) => arg.includes('messenger-live'))))

function run(command: string, commandArgs: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd: root, env, stdio: 'inherit' })
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
    child.on('error', () => resolve(1))
  })
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, 'localhost', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

async function waitForHealth(url: string, server: ChildProcess, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`Server exited early with code ${server.exitCode}`)
    try {
      const response = await fetch(`${url}/healthz`)
      if (response.ok) return
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`Server did not become healthy within ${timeoutMs / 1000} s`)
}

function stopServer(server: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (server.exitCode !== null || server.signalCode !== null) return resolve()
    const timer = setTimeout(() => {
      server.kill('SIGKILL')
    }, 15_000)
    server.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    server.kill('SIGTERM')
  })
}

/**
 * The browsers are Debian's Chromium and its headless shell (playwright.config.ts), installed here
 * when missing (as root), never downloaded by Playwright. Without the headless shell every spec
 * runs in the full browser, slower.
 */
async function ensureChromium(): Promise<boolean> {
  const packages = ['chromium', 'chromium-headless-shell'].filter((name) => !existsSync(`/usr/bin/${name}`))
  if (packages.length === 0) return true
  if (process.getuid?.() !== 0) {
    console.error(`[e2e] Missing: ${packages.join(', ')}. Install with: sudo apt-get install -y ${packages.join(' ')}`)
    return existsSync('/usr/bin/chromium')
  }
  console.log(`[e2e] Installing Debian's ${packages.join(' and ')}…`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  if ((await run('apt-get', ['install', '-y', '--no-install-recommends', ...packages], env)) !== 0) {
    await run('apt-get', ['update'], env)
    await run('apt-get', ['install', '-y', '--no-install-recommends', ...packages], env)
  }
  return existsSync('/usr/bin/chromium')
}

/**
 * The first server's embedded PostgreSQL, from its `postmaster.pid` (PostgreSQL writes the port
 * on the fourth line); the user and password are the ones api/db/embedded.ts sets.
 */
function embeddedDatabaseUrl(dataDir: string) {
  const pidFile = path.join(dataDir, 'postmaster.pid')
  if (!existsSync(pidFile)) throw new Error(`No ${pidFile}: cannot start a second instance on the first one's database (set E2E_SECOND_INSTANCE=0)`)
  const port = Number(readFileSync(pidFile, 'utf8').split('\n')[3])
  return `postgres://postgres:circle55-local@127.0.0.1:${port}/postgres`
}

async function main() {
  if (!(await ensureChromium())) return 1
  if (!skipBuild) {
    const code = buildIfStale(root, '[e2e] Building…')
    if (code !== 0) return code
  } else if (!existsSync(path.join(root, 'build/server/index.js'))) {
    console.error('[e2e] --no-build given but build/ is missing; run `npx remix vite:build` first.')
    return 1
  }

  const port = Number(process.env.E2E_PORT) || (await freePort())
  const baseUrl = `http://localhost:${port}`
  const dataDir = path.join(root, '.data', `e2e-pg-${Date.now()}`)
  mkdirSync(path.dirname(dataDir), { recursive: true })
  const seed = existsSync(path.join(root, 'api/db/seed.ts')) ? 'true' : 'false'

  console.log(`[e2e] Starting server at ${baseUrl} (data in ${path.relative(root, dataDir)})`)
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    // The app's environment (demo data, the development outbox); scripts/start.ts runs the built
    // app's libraries in production mode whatever it is, as members get them.
    NODE_ENV: 'development',
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    EMBEDDED_PG_DIR: dataDir,
    SEED_DEMO_DATA: seed,
    // The suite gives each browser context its own X-Forwarded-For, so the per-IP sign-in
    // rate limit (20 posts / 5 min) applies per simulated visitor, as in production.
    TRUST_PROXY: '1',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  }
  // `npm start`'s own entry point (the build is fresh, so it goes straight to the server).
  // E2E_SERVER_PROFILE=<folder>: a V8 CPU profile of the server, written when it stops (scripts/profile-summary.ts reads it).
  const profile = process.env.E2E_SERVER_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.E2E_SERVER_PROFILE}`] : []
  const server = spawn(process.execPath, [...profile, 'scripts/start.ts'], { cwd: root, env: serverEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  let second: ChildProcess | null = null
  // The server's log is shown as it comes; errors, and warnings that mean a member was let down
  // (a session ended because its token could not be renewed), fail the run even if every
  // test passed.
  const serverProblems: string[] = []
  const watch = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) => {
    let buffered = ''
    stream.on('data', (chunk: Buffer) => {
      out.write(chunk)
      buffered += chunk.toString('utf8')
      const lines = buffered.split('\n')
      buffered = lines.pop() ?? ''
      for (const line of lines) {
        if (/"level":(5\d|60)/.test(line) || /Token refresh failed/.test(line)) serverProblems.push(line)
      }
    })
  }
  watch(server.stdout, process.stdout)
  watch(server.stderr, process.stderr)
  const extraEnv: Record<string, string> = {}

  let exitCode = 1
  let interrupted = false
  const onSignal = () => {
    interrupted = true
  }
  process.once('SIGINT', onSignal)
  try {
    await waitForHealth(baseUrl, server)
    if (secondInstance) {
      const databaseUrl = embeddedDatabaseUrl(dataDir)
      const port2 = await freePort()
      const url2 = `http://localhost:${port2}`
      console.log(`[e2e] Starting a second instance at ${url2} on the same PostgreSQL`)
      // The first server owns the embedded database; the second reaches it by its address.
      const shared: NodeJS.ProcessEnv = { ...serverEnv }
      delete shared.EMBEDDED_PG_DIR
      const started = spawn(process.execPath, ['scripts/start.ts'], {
        cwd: root,
        // The same public address (as behind a load balancer), so the sessions and tokens of one are good on the other.
        env: { ...shared, PORT: String(port2), DATABASE_URL: databaseUrl, SEED_DEMO_DATA: 'false' },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      second = started
      watch(started.stdout, process.stdout)
      watch(started.stderr, process.stderr)
      await waitForHealth(url2, started)
      extraEnv.BASE_URL_2 = url2
    }
    // Specs that queue work for the server's own workers (push.spec.ts) reach its database here.
    extraEnv.E2E_DATABASE_URL = embeddedDatabaseUrl(dataDir)
    console.log('[e2e] Server is healthy; running Playwright')
    exitCode = await run('npx', ['playwright', 'test', ...playwrightArgs], {
      ...process.env,
      ...extraEnv,
      BASE_URL: baseUrl,
      E2E_DEMO_SEED: seed,
    })
  } catch (error) {
    console.error('[e2e]', error instanceof Error ? error.message : error)
    exitCode = 1
  } finally {
    // The second instance first: the first one owns the database.
    if (second) await stopServer(second)
    await stopServer(server)
    rmSync(dataDir, { recursive: true, force: true })
  }
  if (serverProblems.length > 0) {
    console.error(`[e2e] The server logged ${serverProblems.length} problem(s) during the run:`)
    for (const line of serverProblems.slice(0, 20)) console.error(`  ${line}`)
    if (exitCode === 0) exitCode = 1
  }
  return interrupted ? 130 : exitCode
}

process.exit(await main())
