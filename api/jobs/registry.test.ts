import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { RETRIED_FOR_A_DAY } from './job.ts'
import { jobs } from './registry.ts'

/**
 * Issue 30 §4: jobs were declared in five kinds of places, each defining, working and scheduling
 * its own queue, with payloads typed by casts. Each is now one `defineJob` and this list is the
 * only one the runtime starts: a job declared but left out of it would be sent to a queue that
 * does not exist, or never worked.
 */
const apiDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)))

/** The names of the jobs `defineJob` declares in the API's source (tests aside). */
function declaredJobNames() {
  const names: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(file)
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && file !== path.join(apiDir, 'jobs', 'job.ts')) {
        const text = readFileSync(file, 'utf8')
        for (const match of text.matchAll(/defineJob\(\{\s*name:\s*'([^']+)'/g)) names.push(match[1]!)
        // A declaration this pattern cannot read would slip through: there is none.
        expect(text.split('defineJob({').length - 1, path.relative(apiDir, file)).toBe([...text.matchAll(/defineJob\(\{\s*name:\s*'([^']+)'/g)].length)
      }
    }
  }
  walk(apiDir)
  return names.sort()
}

describe('the job registry', () => {
  it('lists every job declared in api/, once each', () => {
    const registered = jobs.map((job) => job.name)
    expect(new Set(registered).size).toBe(registered.length)
    expect([...registered].sort()).toEqual(declaredJobNames())
  })

  it('gives every job a payload schema and a handler; dead letters are registered jobs', () => {
    for (const job of jobs) {
      expect(typeof job.handler, job.name).toBe('function')
      expect(typeof job.payload.safeParse, job.name).toBe('function')
      if (job.deadLetter) expect(jobs.map((other) => other.name), job.name).toContain(job.deadLetter)
    }
  })

  it('retries every job, so one whose server was killed is taken up again; what members are owed is retried for a day (issue 29 §5)', () => {
    // A job left by a killed server fails at the end of its lease: with no retry left it would be lost.
    for (const job of jobs) expect(job.retryLimit ?? 5, job.name).toBeGreaterThanOrEqual(1)
    for (const name of ['notification.deliver', 'email.deliver']) expect(jobs.find((job) => job.name === name), name).toMatchObject(RETRIED_FOR_A_DAY)
  })

  it('takes, for every scheduled job, the empty payload that a tick sends', () => {
    const scheduled = jobs.filter((job) => job.schedule)
    expect(scheduled.map((job) => job.name).sort()).toEqual([
      'analytics.retention',
      'cleanup-expired-rows',
      'experience.remind-sweep',
      'fees.sweep',
      'impersonations.expire',
      'moderation.lift-ended-suspensions',
      'recommendations.weekly',
      'subscriptions.reconcile',
      'subscriptions.remind-renewals',
      'subscriptions.renew',
      'survey.ask-attendance',
    ])
    for (const job of scheduled) expect(job.payload.safeParse({}).success, job.name).toBe(true)
  })
})
