import type { z } from 'zod'

/**
 * One way to declare a background job (decision 068): its name, the schema of its payload, its
 * queue's retry options, its schedule, and its handler, in one `defineJob({...})` beside the code
 * it runs. Every job is listed once in `api/jobs/registry.ts`; the runtime defines, works and
 * schedules that list (`queue.start`), and nothing else does.
 *
 * The payload is typed by the schema both ways: `queue.send(job.name, payload)` only takes what
 * the schema takes (the name carries the type), and the worker parses each job with the schema
 * when it claims it, so the handler gets what the schema gives, never a cast. A job whose stored
 * payload does not parse (a row written by an older release, or by hand) fails for good, with
 * the schema's complaint as its output, and the worker goes on with the next one.
 */

declare const payloadType: unique symbol

/** A job's name, carrying the type of the payload it is sent with (a plain string is refused). */
export type JobName<Payload> = string & { readonly [payloadType]: Payload }

export interface QueueOptions {
  /** Attempts after the first (default 5). */
  retryLimit?: number
  /** The first retry's delay (default 10 s); each later one waits longer. */
  retryDelaySeconds?: number
  /** The longest wait between two attempts. */
  retryDelayMaxSeconds?: number
  /** How long one attempt may run before it counts as failed (default 15 minutes). */
  timeoutSeconds?: number
  /** The job (registered too) that receives a copy of each job that failed for good. */
  deadLetter?: string
}

/**
 * Retries for more than a day: about 15 s after the first failure, then doubling (pg-boss adds
 * 1–2 s, 2–4 s, 4–8 s, …) to at most an hour apart; 36 retries wait at least 25 hours in all. For
 * work a member is owed after an outage of a few hours (an email, a notification's delivery).
 */
export const RETRIED_FOR_A_DAY = { retryLimit: 36, retryDelaySeconds: 15, retryDelayMaxSeconds: 60 * 60 } as const satisfies QueueOptions

export interface JobSchedule {
  /** A cron expression, in UTC: pg-boss sends one job per tick across all instances. */
  cron: string
  /** Also send one when an instance starts, so a fresh start does not wait for the first tick. */
  atStart?: boolean
}

export interface JobSpec<Schema extends z.ZodType, Services> extends QueueOptions {
  /** Unique across the registry; the queue's name in pg-boss (so never renamed lightly). */
  name: string
  /** What the job carries; stored as JSON, parsed again when the job is claimed. */
  payload: Schema
  /** Sent on a schedule (the payload is then `{}`). */
  schedule?: JobSchedule
  /** Jobs of this kind worked at once per instance (1 unless told). */
  concurrency?: number
  /**
   * Whether this instance works the queue (default: always), e.g. only with a mail server. The
   * queue is defined either way, so a job sent to it waits rather than being refused.
   */
  runsWhen?: (services: Services) => boolean
  /**
   * Does the work. A thrown error, or an attempt longer than `timeoutSeconds`, fails the attempt
   * and the queue retries it. `services` are what the runtime hands every job; each job names
   * the part it needs, and the registry's type asks the runtime for all of them.
   */
  handler: (payload: z.output<Schema>, services: Services) => Promise<void>
}

export interface Job<Schema extends z.ZodType = z.ZodType, Services = unknown> extends Omit<JobSpec<Schema, Services>, 'name'> {
  name: JobName<z.input<Schema>>
}

/** Any job, whatever its payload and services: what lists of jobs hold. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list holds jobs of every payload and service type
export type AnyJob = Job<any, any>

export function defineJob<Schema extends z.ZodType, Services = unknown>(spec: JobSpec<Schema, Services>): Job<Schema, Services> {
  // The one place a name becomes a typed name: the type comes from this job's own schema.
  return { ...spec, name: spec.name as JobName<z.input<Schema>> }
}

/** The payload a job is sent with. */
export type PayloadOf<J> = J extends { payload: infer Schema extends z.ZodType } ? z.input<Schema> : never

type ServicesOf<J> = J extends { handler: (payload: never, services: infer Services) => unknown } ? Services : never
type Intersection<U> = (U extends unknown ? (all: U) => void : never) extends (all: infer I) => void ? I : never

/** What the handlers of `Jobs` need, together: the runtime must hand over all of it. */
export type JobServices<Jobs extends readonly AnyJob[]> = Intersection<ServicesOf<Jobs[number]>>

/** A job's payload as its worker sees it: parsed by its schema, or why it could not be. */
export function parsePayload<Schema extends z.ZodType>(job: Job<Schema, unknown>, data: unknown): { ok: true; payload: z.output<Schema> } | { ok: false; error: string } {
  const parsed = job.payload.safeParse(data ?? {})
  if (parsed.success) return { ok: true, payload: parsed.data }
  const issues = parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(payload)'}: ${issue.message}`)
  return { ok: false, error: `The payload of ${job.name} is not valid: ${issues.join('; ')}` }
}
