import { format } from 'node:util'

/**
 * STYLE: a test that makes the code under test call `console.error` fails, unless the test
 * declared it with `allowConsoleError()`. Calls are collected (so code that swallows a throw
 * cannot hide them) and reported after the test.
 */
interface GuardState {
  original: typeof console.error
  calls: string[]
  allowed: (string | RegExp)[]
}

const key = Symbol.for('circle55.consoleGuard')
const holder = globalThis as typeof globalThis & { [key]?: GuardState }

function state(): GuardState {
  if (!holder[key]) {
    const guard: GuardState = { original: console.error, calls: [], allowed: [] }
    console.error = (...args: unknown[]) => {
      const message = format(...args)
      const expected = guard.allowed.some((pattern) =>
        typeof pattern === 'string' ? message.includes(pattern) : pattern.test(message),
      )
      if (!expected) guard.calls.push(message)
    }
    holder[key] = guard
  }
  return holder[key]
}

export function installConsoleGuard() {
  state()
}

/** Lets the current test log errors matching `pattern` (any error when omitted). */
export function allowConsoleError(pattern: string | RegExp = /[\s\S]*/) {
  state().allowed.push(pattern)
}

/** Throws when unexpected `console.error` calls were collected since the last check. */
export function checkConsoleErrors(where: string) {
  const guard = state()
  const calls = guard.calls.splice(0)
  guard.allowed = []
  if (calls.length === 0) return
  throw new Error(
    `Unexpected console.error ${where} (call allowConsoleError() from #tests/setup/console-guard.ts if it is expected):\n` +
      calls.map((message) => `  - ${message.split('\n').join('\n    ')}`).join('\n'),
  )
}
