import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/**
 * Whether the web app's build (build/) is missing or older than anything it is made from: the app,
 * the contract it shares with the API, the public files, the build's configuration and the
 * installed packages. `npm start` and the end-to-end run build only then.
 */
export function buildIsStale(root: string): boolean {
  const built = path.join(root, 'build/server/index.js')
  if (!existsSync(built)) return true
  const sources = ['app', 'contract', 'public', 'vite.config.ts', 'tsconfig.json', 'package-lock.json']
  const newestSource = Math.max(...sources.map((source) => newest(path.join(root, source))))
  return statSync(built).mtimeMs < newestSource
}

function newest(file: string): number {
  if (!existsSync(file)) return 0
  const stat = statSync(file)
  if (!stat.isDirectory()) return stat.mtimeMs
  let latest = stat.mtimeMs
  for (const entry of readdirSync(file)) latest = Math.max(latest, newest(path.join(file, entry)))
  return latest
}

/** Builds the web app when `buildIsStale` (`npm start`, the end-to-end run); the build's exit code, 0 when it was fresh. */
export function buildIfStale(root: string, note: string): number {
  if (!buildIsStale(root)) return 0
  console.log(note)
  return spawnSync('npx', ['remix', 'vite:build'], { cwd: root, stdio: 'inherit' }).status ?? 1
}
