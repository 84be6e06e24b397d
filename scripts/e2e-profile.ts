/**
 * Where the end-to-end suite's time goes. Run the suite with a JSON report and the helpers' profile:
 *
 *   E2E_PROFILE=/tmp/e2e-profile.jsonl PLAYWRIGHT_JSON_OUTPUT_NAME=/tmp/e2e.json \
 *     npm run test:e2e -- --reporter=list,json
 *   node scripts/e2e-profile.ts /tmp/e2e.json /tmp/e2e-profile.jsonl
 *
 * Prints the time per spec file (summed over its tests), the slowest tests, and the time spent in
 * each profiled helper (sign-in, sign-up, accessibility scans…) summed over every worker.
 */
import { existsSync, readFileSync } from 'node:fs'

interface Result {
  duration: number
  status: string
}
interface Spec {
  title: string
  file: string
  tests: { results: Result[] }[]
}
interface Suite {
  title: string
  file: string
  specs?: Spec[]
  suites?: Suite[]
}
interface Report {
  suites: Suite[]
  stats: { duration: number; expected: number; skipped: number; unexpected: number; flaky: number }
}

const [reportFile, profileFile] = process.argv.slice(2)
if (!reportFile) {
  console.error('Usage: node scripts/e2e-profile.ts <playwright JSON report> [E2E_PROFILE file]')
  process.exit(2)
}

const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report
const tests: { file: string; title: string; ms: number }[] = []
function collect(suite: Suite, titles: string[]) {
  for (const spec of suite.specs ?? []) {
    const ms = spec.tests.flatMap((test) => test.results).reduce((sum, result) => sum + result.duration, 0)
    tests.push({ file: spec.file, title: [...titles, spec.title].join(' › '), ms })
  }
  for (const child of suite.suites ?? []) collect(child, [...titles, child.title])
}
for (const suite of report.suites) collect(suite, [])

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const total = tests.reduce((sum, test) => sum + test.ms, 0)
const { stats } = report
console.log(
  `Wall time ${seconds(stats.duration)}; ${tests.length} tests (${stats.expected} passed, ${stats.unexpected} failed, ${stats.skipped} skipped) took ${seconds(total)} of test time.\n`,
)

const byFile = new Map<string, { ms: number; count: number }>()
for (const test of tests) {
  const entry = byFile.get(test.file) ?? { ms: 0, count: 0 }
  entry.ms += test.ms
  entry.count++
  byFile.set(test.file, entry)
}
console.log('Per spec file (test time, tests):')
for (const [file, { ms, count }] of [...byFile].sort((a, b) => b[1].ms - a[1].ms))
  console.log(`  ${seconds(ms).padStart(9)}  ${String(count).padStart(3)}  ${file}`)

console.log('\nSlowest tests:')
for (const test of [...tests].sort((a, b) => b.ms - a.ms).slice(0, 15))
  console.log(`  ${seconds(test.ms).padStart(9)}  ${test.file} › ${test.title}`)

if (profileFile && existsSync(profileFile)) {
  const helpers = new Map<string, { calls: number; ms: number }>()
  for (const line of readFileSync(profileFile, 'utf8').split('\n').filter(Boolean)) {
    for (const [name, { calls, ms }] of Object.entries(JSON.parse(line) as Record<string, { calls: number; ms: number }>)) {
      const entry = helpers.get(name) ?? { calls: 0, ms: 0 }
      entry.calls += calls
      entry.ms += ms
      helpers.set(name, entry)
    }
  }
  console.log('\nHelpers (summed over workers; nested helpers count in both):')
  for (const [name, { calls, ms }] of [...helpers].sort((a, b) => b[1].ms - a[1].ms))
    console.log(`  ${seconds(ms).padStart(9)}  ${String(calls).padStart(4)} calls  ${(ms / calls / 1000).toFixed(2)} s each  ${name}`)
}
