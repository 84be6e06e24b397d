import { execFile, execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { availableParallelism, loadavg } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { createCookie } from '@remix-run/node'
import { SignJWT, exportJWK, generateKeyPair } from 'jose'
import type { DB } from '../api/db/database.ts'
import { createSessionStore } from '../api/web-sessions.ts'
import { sessionCookieName, sessionMaxAgeSeconds, type SessionData } from '../app/utils/session.server.ts'

/**
 * What the benchmark scripts share (`npm run bench`, `bench:chat`, `bench:notify`): the production build,
 * a server process on loopback with throwaway secrets, free ports, CPU pinning, the autocannon
 * client (scripts/bench-client.ts) and the machine's load.
 */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export function hasTaskset() {
  return spawnSync('taskset', ['-c', '0', 'true']).status === 0
}

/** The command pinned to one core with `taskset` when there is one (same pid: taskset execs). */
export function pin(core: number | undefined, command: string, args: string[]): [string, string[]] {
  return core !== undefined && hasTaskset() ? ['taskset', ['-c', String(core), command, ...args]] : [command, args]
}

export async function freePort() {
  return new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** Builds the web app when there is no build yet, or always with `--build`. */
export function ensureBuild() {
  if (!existsSync(path.join(root, 'build/server/index.js')) || process.argv.includes('--build')) {
    execFileSync('npx', ['remix', 'vite:build'], { cwd: root, stdio: 'inherit' })
  }
}

/** The built-in identity provider's signing key, made for one run: its JWKS (OIDC_JWKS) and the key. */
export async function throwawayJwks() {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const kid = 'bench'
  return { json: JSON.stringify({ keys: [{ ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' }] }), privateKey, kid }
}

export type ThrowawayJwks = Awaited<ReturnType<typeof throwawayJwks>>

export interface ServerSecrets {
  sessionSecret: string
  jwks: ThrowawayJwks
}

export async function throwawaySecrets(): Promise<ServerSecrets> {
  return { sessionSecret: randomBytes(32).toString('hex'), jwks: await throwawayJwks() }
}

/**
 * A production server's environment (React's production build, no dev routes) with throwaway
 * secrets; instances given the same secrets and PUBLIC_URL accept each other's tokens and sessions.
 */
export function serverEnv(options: { port: number; publicUrl: string; databaseUrl: string; secrets: ServerSecrets; extra?: Record<string, string> }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(options.port),
    PUBLIC_URL: options.publicUrl,
    DATABASE_URL: options.databaseUrl,
    SEED_DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    SESSION_SECRET: options.secrets.sessionSecret,
    OIDC_CLIENT_SECRET: randomBytes(32).toString('hex'),
    OIDC_COOKIE_KEYS: `${randomBytes(16).toString('hex')},${randomBytes(16).toString('hex')}`,
    OIDC_JWKS: options.secrets.jwks.json,
    SMTP_URL: 'smtp://127.0.0.1:9',
    PAYMENTS: 'off',
    RATE_LIMIT_PER_MINUTE: '100000000',
    ...options.extra,
  }
}

/**
 * Starts `server.ts` (pinned to `core` when given) and waits until its /healthz answers. Its
 * output goes to ours, or to the file `logFile`.
 */
export async function startServer(options: { env: NodeJS.ProcessEnv; core?: number; nodeArgs?: string[]; timeoutMs?: number; logFile?: string }) {
  const [command, args] = pin(options.core, process.execPath, [...(options.nodeArgs ?? []), 'server.ts'])
  let log: number | undefined
  if (options.logFile) {
    mkdirSync(path.dirname(options.logFile), { recursive: true })
    log = openSync(options.logFile, 'w')
  }
  const child = spawn(command, args, { cwd: root, env: options.env, stdio: ['ignore', log ?? 'inherit', log ?? 'inherit'] })
  if (log !== undefined) closeSync(log)
  const base = `http://localhost:${options.env.PORT}`
  const started = Date.now()
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server on ${base} exited with code ${child.exitCode}`)
    const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false)
    if (ok) break
    if (Date.now() - started > (options.timeoutMs ?? 60_000)) throw new Error(`The server on ${base} did not answer /healthz in time`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return child
}

export async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

/** A process's resident memory (bytes), from /proc (Linux); null elsewhere. */
export function rssOf(pid: number | undefined): number | null {
  if (pid === undefined) return null
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) * 1024 : null
  } catch {
    return null
  }
}

/** A number from a flag, else the environment variable `env`, else `fallback`; never negative. */
export function numberOption(flag: string | undefined, env: string, fallback: number) {
  const value = Number(flag ?? process.env[env] ?? fallback)
  if (!Number.isFinite(value) || value < 0) throw new Error(`${env} (or its flag) must be a number ≥ 0`)
  return value
}

/**
 * A signed-in browser's `cookie` header for `userId`: a web session holding `accessToken` (as the
 * built-in provider signs it, `accessTokenFor`), so pages load as that member's.
 */
export async function signedInCookie(db: DB, sessionSecret: string, options: { userId: string; accessToken: string }) {
  const cookie = createCookie(sessionCookieName(true), { secrets: [sessionSecret], path: '/', httpOnly: true, secure: true, sameSite: 'lax' })
  const { userId, accessToken } = options
  const data: SessionData = { userId, subject: userId, accessToken, accessTokenRenewAt: Date.now() + 3 * 3600_000, refreshToken: null, idToken: null }
  const sessionId = await createSessionStore(db).create({ ...data }, userId, new Date(Date.now() + sessionMaxAgeSeconds * 1000))
  return (await cookie.serialize(sessionId)).split(';')[0]!
}

/** An access token as the built-in identity provider signs it for `subject`, valid `lifetime`. */
export async function accessTokenFor(jwks: ThrowawayJwks, options: { publicUrl: string; subject: string; lifetime?: string }) {
  return new SignJWT({ scope: 'openid profile email' })
    .setProtectedHeader({ alg: 'RS256', kid: jwks.kid, typ: 'at+jwt' })
    .setIssuer(`${options.publicUrl}/oidc`)
    .setAudience(`${options.publicUrl}/api/`)
    .setSubject(options.subject)
    .setIssuedAt()
    .setExpirationTime(options.lifetime ?? '2h')
    .sign(jwks.privateKey)
}

export interface ClientResult {
  rps: number
  p50: number
  p95: number
  p99: number
  non2xx: number
}

/**
 * One autocannon run (scripts/bench-client.ts) in its own process, pinned to `core` (default 1).
 * Asynchronous, so the calling process goes on reading its own sockets meanwhile.
 */
export async function runClient(url: string, seconds: number, options: { connections?: number; headers?: Record<string, string>; core?: number } = {}) {
  const [cmd, cmdArgs] = pin(options.core ?? 1, process.execPath, [
    'scripts/bench-client.ts',
    url,
    String(seconds),
    String(options.connections ?? 10),
    JSON.stringify(options.headers ?? {}),
  ])
  const { stdout } = await promisify(execFile)(cmd, cmdArgs, { cwd: root, encoding: 'utf8' })
  return JSON.parse(stdout.trim().split('\n').pop()!) as ClientResult
}

/** The value at percentile `p` of values sorted in ascending order (NaN when there are none). */
export function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
}

/** The middle value; for an even count, the mean of the two middle ones (NaN when there are none). */
export function median(values: number[]) {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

export function formatClientResult(result: ClientResult) {
  return `${result.rps.toFixed(1)} req/s, p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms${result.non2xx ? `, ${result.non2xx} non-2xx` : ''}`
}

/** The load average (1, 5 min) and the cores, to print beside the figures. */
export function loadLine() {
  const [one = 0, five = 0] = loadavg()
  return `Load average ${one.toFixed(2)} (1 min), ${five.toFixed(2)} (5 min) on ${availableParallelism()} cores`
}
