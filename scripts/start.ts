import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/**
 * `npm start`: builds the web app when the build is missing or older than the sources, then
 * starts the server (embedded PostgreSQL, demo data outside production).
 */
const root = path.resolve(import.meta.dirname, '..')
const buildFile = path.join(root, 'build/server/index.js')

function newest(dir: string): number {
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs)
  }
  return latest
}

const stale =
  !existsSync(buildFile) ||
  statSync(buildFile).mtimeMs <
    Math.max(newest(path.join(root, 'app')), newest(path.join(root, 'public/locales')), statSync(path.join(root, 'vite.config.ts')).mtimeMs)
if (stale) {
  console.log('Building the web app (first start or changed sources)…')
  const result = spawnSync('npx', ['remix', 'vite:build'], { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}
await import(path.join(root, 'server.ts')).then((server: { main: () => Promise<void> }) => server.main())
