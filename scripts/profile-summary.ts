import { readFileSync } from 'node:fs'

/**
 * Summarises a V8 .cpuprofile: self time by function and by file (top 25 each).
 * Usage: node scripts/profile-summary.ts <file.cpuprofile>
 */
interface Node {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
const file = process.argv[2]
if (!file) throw new Error('usage: node scripts/profile-summary.ts <file.cpuprofile>')
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] }
const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const selfTime = new Map<number, number>()
profile.samples.forEach((id, index) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)))
const total = [...selfTime.values()].reduce((a, b) => a + b, 0)
const byFunction = new Map<string, number>()
const byFile = new Map<string, number>()
for (const [id, time] of selfTime) {
  const frame = byId.get(id)?.callFrame
  if (!frame) continue
  const where = frame.url.replace(/^file:\/\/\/.*?node_modules\//, '').replace(/^file:\/\/\/work\/[^/]+\//, '') || '(native)'
  const key = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`
  byFunction.set(key, (byFunction.get(key) ?? 0) + time)
  const pkg = where.startsWith('@') ? where.split('/').slice(0, 2).join('/') : where.split('/')[0]!
  byFile.set(pkg, (byFile.get(pkg) ?? 0) + time)
}
const print = (title: string, entries: Map<string, number>) => {
  console.log(`\n${title}`)
  for (const [key, time] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`${((time / total) * 100).toFixed(1).padStart(5)}%  ${key}`)
  }
}
print('Self time by package / top folder', byFile)
print('Self time by function', byFunction)
