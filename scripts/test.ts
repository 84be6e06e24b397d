/**
 * `npm test`: type check, lint, unit/integration tests, then the end-to-end suite, in that
 * order. Stops at the first failing step with its exit code. Every tool runs on the Node
 * running this script, from the project's own node_modules.
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
  id: 'typecheck' | 'lint' | 'unit' | 'e2e'
  name: string
  args: string[]
  /** When set and the file is missing, the step is skipped with this note. */
  requires?: { file: string; note: string }
}

const steps: Step[] = [
  { id: 'typecheck', name: 'typecheck (tsc)', args: [bin('typescript/bin/tsc'), '-p', '.'] },
  {
    id: 'lint',
    name: 'lint (eslint)',
    args: [bin('eslint/bin/eslint.js'), '.', '--max-warnings=0'],
  },
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
    if (!steps.some((step) => step.id === id)) {
      console.error(`Unknown step "${id}"; steps are ${steps.map((step) => step.id).join(', ')}`)
      process.exit(2)
    }
    skip.add(id)
  }
}

let current: ReturnType<typeof spawn> | undefined
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    current?.kill(signal)
    process.exit(130)
  })
}

function run(args: string[]) {
  return new Promise<number>((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: process.env })
    current = child
    child.on('error', (error) => {
      console.error(error)
      resolve(1)
    })
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

function seconds(ms: number) {
  return `${(ms / 1000).toFixed(1)}s`
}

const started = Date.now()
const results: string[] = []
let failed: { name: string; code: number } | undefined

for (const step of steps) {
  if (skip.has(step.id)) {
    console.log(`\n▶ ${step.name}: skipped (--skip=${step.id})`)
    results.push(`${step.name}: skipped`)
    continue
  }
  if (step.requires && !existsSync(path.join(root, step.requires.file))) {
    console.log(`\n▶ ${step.name}: skipped (${step.requires.note})`)
    results.push(`${step.name}: skipped`)
    continue
  }
  console.log(`\n▶ ${step.name}`)
  const stepStarted = Date.now()
  const code = await run(step.args)
  const took = seconds(Date.now() - stepStarted)
  if (code !== 0) {
    console.log(`✖ ${step.name} failed (exit code ${code}) after ${took}`)
    results.push(`${step.name}: FAILED in ${took}`)
    failed = { name: step.name, code }
    break
  }
  console.log(`✔ ${step.name} passed in ${took}`)
  results.push(`${step.name}: passed in ${took}`)
}

console.log(`\nSummary:\n  ${results.join('\n  ')}`)
const total = seconds(Date.now() - started)
if (failed) {
  console.log(`\nnpm test: FAILED at "${failed.name}" after ${total}`)
  process.exit(failed.code)
}
console.log(`\nnpm test: all steps passed in ${total}`)
