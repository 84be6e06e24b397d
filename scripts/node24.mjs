/* global process, console */
// Runs one of the project's TypeScript entry points on Node 24, whatever Node started it:
//
//   node scripts/node24.mjs scripts/start.ts [arguments]
//
// Plain JavaScript on purpose: an older Node (Debian ships 20) cannot even read a .ts file and
// would stop with ERR_UNKNOWN_FILE_EXTENSION. On Node 24 the entry point runs in this process;
// on any other version, scripts/ensure-node.sh finds or fetches Node 24 (into .tools/, from the
// npm registry, as .ci/run does) and the entry point runs on it, or this says in one line what to do.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const required = 24
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const [entry, ...args] = process.argv.slice(2)
if (!entry) {
  console.error('Usage: node scripts/node24.mjs <entry point .ts> [arguments]')
  process.exit(2)
}
const entryPath = path.resolve(root, entry)

if (Number(process.versions.node.split('.')[0]) === required) {
  // The entry point sees the arguments as if Node had started it directly.
  process.argv = [process.argv[0], entryPath, ...args]
  await import(pathToFileURL(entryPath).href)
} else {
  const bin = await findNode24()
  if (!bin) {
    console.error(`Circle 55 needs Node ${required} (this is Node ${process.versions.node}) and could not fetch it: install Node ${required} (see .nvmrc), or run "bash scripts/ensure-node.sh" to see why.`)
    process.exit(1)
  }
  const child = spawn(path.join(bin, 'node'), [entryPath, ...args], {
    cwd: process.cwd(),
    stdio: 'inherit',
    env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
  })
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}

/**
 * The folder of Node 24's binary (scripts/ensure-node.sh finds or fetches it), or '' when it
 * cannot be had. Only its "installing" line is shown while it works (a fetch takes a while); npm's
 * own output and the script's reasons stay out of the way, so a failure is the one line above.
 */
function findNode24() {
  return new Promise((resolve) => {
    const ensure = spawn('bash', [path.join(root, 'scripts/ensure-node.sh')], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    ensure.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk))
    ensure.stderr.setEncoding('utf8').on('data', (chunk) => {
      err += chunk
      const lines = err.split('\n')
      err = lines.pop() ?? ''
      for (const line of lines) if (/^ensure-node: .*installing Node/.test(line)) console.error(line)
    })
    ensure.on('error', () => resolve(''))
    ensure.on('close', (code) => resolve(code === 0 ? (out.trim().split('\n').pop() ?? '') : ''))
  })
}
