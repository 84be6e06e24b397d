/**
 * End-to-end run: build (unless --no-build), start the server on a free port with a fresh
 * embedded PostgreSQL folder, wait for /healthz, run Playwright, then stop and clean up.
 * Extra arguments after the options are passed to `playwright test`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const skipBuild = args.includes('--no-build')
const playwrightArgs = args.filter((arg) => arg !== '--no-build')

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

/** The browser is Debian's Chromium; installed here when missing (as root), never downloaded by Playwright. */
async function ensureChromium(): Promise<boolean> {
  if (existsSync('/usr/bin/chromium')) return true
  if (process.getuid?.() !== 0) {
    console.error('[e2e] /usr/bin/chromium is missing. Install it with: sudo apt-get install -y chromium')
    return false
  }
  console.log('[e2e] Installing Debian\'s chromium…')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  if ((await run('apt-get', ['update'], env)) !== 0) return false
  return (await run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], env)) === 0 && existsSync('/usr/bin/chromium')
}

async function main() {
  if (!(await ensureChromium())) return 1
  if (!skipBuild) {
    console.log('[e2e] Building…')
    const code = await run('npx', ['remix', 'vite:build'])
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
  // `npm start`'s own entry point (the build is fresh, so it goes straight to the server).
  const server = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      EMBEDDED_PG_DIR: dataDir,
      SEED_DEMO_DATA: seed,
      // The suite gives each browser context its own X-Forwarded-For, so the per-IP sign-in
      // rate limit (20 posts / 5 min) applies per simulated visitor, as in production.
      TRUST_PROXY: '1',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
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

  let exitCode = 1
  let interrupted = false
  const onSignal = () => {
    interrupted = true
  }
  process.once('SIGINT', onSignal)
  try {
    await waitForHealth(baseUrl, server)
    console.log('[e2e] Server is healthy; running Playwright')
    exitCode = await run('npx', ['playwright', 'test', ...playwrightArgs], {
      ...process.env,
      BASE_URL: baseUrl,
      E2E_DEMO_SEED: seed,
    })
  } catch (error) {
    console.error('[e2e]', error instanceof Error ? error.message : error)
    exitCode = 1
  } finally {
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
