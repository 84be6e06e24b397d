/**
 * `npm test`: type check and lint (side by side: each uses one core; the end-to-end run's build
 * follows the type check on its core while lint goes on), unit/integration tests, then the
 * end-to-end suite, in that order. Stops at the first failing stage with its exit code.
 * Every tool runs on the Node running this script, from the project's own node_modules.
 *
 *   npm test                      # everything
 *   npm test -- --skip=e2e        # skip steps by id: typecheck, lint, unit, e2e (comma-separated)
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const bin = (file: string) => path.join(root, 'node_modules', file)

interface Step {
  id: 'typecheck' | 'lint' | 'build' | 'unit' | 'e2e'
  name: string
  args: string[]
  /** When set and the file is missing, the step is skipped with this note. */
  requires?: { file: string; note: string }
  /** A step made for another (the build for the end-to-end run): not skipped by name, but left out with it. */
  for?: Step['id']
}

const steps: Step[] = [
  { id: 'typecheck', name: 'typecheck (tsc)', args: [bin('typescript/bin/tsc'), '-p', '.'] },
  {
    id: 'lint',
    name: 'lint (eslint)',
    args: [bin('eslint/bin/eslint.js'), '.', '--max-warnings=0'],
  },
  // The end-to-end run's build (it builds only when the build is stale), made while lint still runs.
  { id: 'build', name: 'build for the end-to-end run', args: ['scripts/build-if-stale.ts'], for: 'e2e' },
  { id: 'unit', name: 'unit and integration (vitest)', args: [bin('vitest/vitest.mjs'), 'run'] },
  {
    id: 'e2e',
    name: 'end-to-end (scripts/e2e.ts)',
    args: ['scripts/e2e.ts'],
    requires: { file: 'scripts/e2e.ts', note: 'scripts/e2e.ts does not exist yet' },
  },
]

const skip = new Set<string>()
for (const arg of process.argv.slice(2)) {
  const match = /^--skip=(.+)$/.exec(arg)
  if (!match?.[1]) {
    console.error(
      `Unknown argument ${arg}. Usage: node scripts/test.ts [--skip=typecheck,lint,unit,e2e]`,
    )
    process.exit(2)
  }
  for (const id of match[1].split(',')) {
    if (!steps.some((step) => step.id === id && !step.for)) {
      console.error(`Unknown step "${id}"; steps are ${steps.filter((step) => !step.for).map((step) => step.id).join(', ')}`)
      process.exit(2)
    }
    skip.add(id)
  }
}

const running = new Set<ReturnType<typeof spawn>>()
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of running) child.kill(signal)
    process.exit(130)
  })
}

/**
 * Runs one tool. `collect`: its output is kept and returned instead of shown as it comes, so two
 * steps side by side do not interleave their lines.
 */
function run(args: string[], collect = false) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: collect ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: process.env })
    running.add(child)
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('error', (error) => {
      running.delete(child)
      console.error(error)
      resolve({ code: 1, output })
    })
    child.on('exit', (code, signal) => {
      running.delete(child)
      resolve({ code: code ?? (signal ? 1 : 0), output })
    })
  })
}

function seconds(ms: number) {
  return `${(ms / 1000).toFixed(1)}s`
}

const started = Date.now()
const results: string[] = []
let failed: { name: string; code: number } | undefined

/**
 * The stages, in order. A stage's lanes run side by side (tsc and eslint: one core each), the
 * steps of a lane one after another: the build takes the type check's core when it is done.
 */
const stages: Step['id'][][][] = [[['typecheck', 'build'], ['lint']], [['unit']], [['e2e']]]

/** Whether the file `step` requires is missing. */
const missing = (step: Step) => !!step.requires && !existsSync(path.join(root, step.requires.file))

/** Whether `step` runs; a step skipped by name or missing its file says so. */
function chosen(step: Step): boolean {
  if (step.for) return !skip.has(step.for) && !missing(steps.find((other) => other.id === step.for)!)
  if (skip.has(step.id)) {
    console.log(`\n▶ ${step.name}: skipped (--skip=${step.id})`)
    results.push(`${step.name}: skipped`)
    return false
  }
  if (missing(step)) {
    console.log(`\n▶ ${step.name}: skipped (${step.requires!.note})`)
    results.push(`${step.name}: skipped`)
    return false
  }
  return true
}

for (const stage of stages) {
  const lanes = stage.map((lane) => lane.map((id) => steps.find((step) => step.id === id)!).filter(chosen)).filter((lane) => lane.length > 0)
  const together = lanes.length > 1
  if (together) console.log(`\n▶ ${lanes.map((lane) => lane.map((step) => step.name).join(', then ')).join(' and ')}, side by side`)
  const outcomes = await Promise.all(
    lanes.map(async (lane) => {
      const done: { step: Step; code: number; took: string }[] = []
      for (const step of lane) {
        if (!together) console.log(`\n▶ ${step.name}`)
        const stepStarted = Date.now()
        const { code, output } = await run(step.args, together)
        const took = seconds(Date.now() - stepStarted)
        if (together) console.log(`\n▶ ${step.name}${output.trim() ? `\n${output.trimEnd()}` : ''}`)
        console.log(code === 0 ? `✔ ${step.name} passed in ${took}` : `✖ ${step.name} failed (exit code ${code}) after ${took}`)
        done.push({ step, code, took })
        if (code !== 0) break
      }
      return done
    }),
  )
  for (const { step, code, took } of outcomes.flat()) {
    results.push(code === 0 ? `${step.name}: passed in ${took}` : `${step.name}: FAILED in ${took}`)
    if (code !== 0 && !failed) failed = { name: step.name, code }
  }
  if (failed) break
}

console.log(`\nSummary:\n  ${results.join('\n  ')}`)
const total = seconds(Date.now() - started)
if (failed) {
  console.log(`\nnpm test: FAILED at "${failed.name}" after ${total}`)
  process.exit(failed.code)
}
console.log(`\nnpm test: all steps passed in ${total}`)
