import { z } from 'zod'
import { defineJob } from '#api/jobs/job.ts'
import { startJobQueue } from '#api/jobs/queue.ts'
import { createLogger } from '#api/logger.ts'

/**
 * An instance of the product that works one queue and then dies (api/jobs/queue.test.ts): run as
 * `node tests/job-worker-process.ts <database url> <queue>`, it starts a job of that name with
 * a handler that never finishes, prints `ready` once working and `started` when it holds a job.
 * The test then kills it with SIGKILL: no shutdown code runs, as when a server crashes.
 */
const [url, name] = process.argv.slice(2)
if (!url || !name) throw new Error('usage: node tests/job-worker-process.ts <database url> <queue>')
const queue = await startJobQueue({ url, logger: createLogger({ LOG_LEVEL: 'silent', NODE_ENV: 'test' }), pollingIntervalSeconds: 0.5 })
const hanging = defineJob({
  name,
  payload: z.object({ n: z.number() }),
  async handler() {
    process.stdout.write('started\n')
    await new Promise(() => undefined)
  },
})
await queue.start([hanging], {})
process.stdout.write('ready\n')
