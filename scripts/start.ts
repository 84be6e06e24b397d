import path from 'node:path'
import { buildIfStale } from './build-freshness.ts'

/**
 * `npm start`: builds the web app when the build is missing or older than the sources, then
 * starts the server (embedded PostgreSQL, demo data outside production).
 */
const root = path.resolve(import.meta.dirname, '..')
const built = buildIfStale(root, 'Building the web app (first start or changed sources)…')
if (built !== 0) process.exit(built)
// The app's environment (demo data, the development outbox, the secrets it requires) is NODE_ENV as
// given, read once here; the built app then runs its libraries as they ship: React's production
// server renderer (the development one checks and warns at every render: slower, and not what
// members get) and Express without stack traces. `npm run dev` is the development mode.
const { ConfigError, getEnv } = (await import(path.join(root, 'api/env.ts'))) as typeof import('../api/env.ts')
try {
  getEnv()
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  console.error(error.message)
  process.exit(1)
}
process.env.NODE_ENV = 'production'
await import(path.join(root, 'server.ts')).then((server: { main: () => Promise<void> }) => server.main())
