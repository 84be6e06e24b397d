import { Worker } from 'node:worker_threads'
import type { Sharp } from 'sharp'
import { ApiProblem } from '../http/errors.ts'

/**
 * The profile-photo check off the main thread (decision 024): one long-lived worker thread
 * (photo-worker.ts) holds the face detector and the content classifier, loaded once per
 * process; requests queue in it. Started by `warmUp` (the API runtime, at start) or the first
 * check, ended by `stop` (the API runtime's close; tests call it too). An idle worker is unref'd, so a forgotten one never keeps a process
 * (or vitest) alive.
 */

/** A face the detector found, in the pixels of the checked (downscaled) image. */
export interface FoundFace {
  score: number
  x: number
  y: number
  width: number
  height: number
}

export interface PhotoFindings {
  /** The size of the image the models saw. */
  width: number
  height: number
  faces: FoundFace[]
  /** The classifier's scores by class: Drawing, Hentai, Neutral, Porn, Sexy (they add up to 1). */
  content: Record<string, number>
}

export interface WorkerRequest {
  id: number
  width: number
  height: number
  /** RGB, 3 bytes a pixel, row by row (transferred, not copied). */
  pixels: ArrayBuffer
}

export type WorkerReply =
  | { ready: true }
  | { ready: false; error: string }
  | { id: number; findings: PhotoFindings }
  | { id: number; error: string }

export interface PhotoChecker {
  /** What the models find in an upright image (a sharp pipeline, not yet resized). */
  inspect(image: Sharp): Promise<PhotoFindings>
  /** Starts the worker (it loads the models in the background), so the first photo does not wait for them. */
  warmUp(): void
  /** Ends the worker; a later `inspect` starts a new one. */
  stop(): Promise<void>
}

/** Longest side of the image the models see: plenty for a face that fills a profile photo. */
export const CHECK_SIZE = 800

/**
 * How long one check may take, waiting for the models included (a few seconds at start, more on
 * a loaded machine). Past it the worker is taken as stuck: it is ended, and the next check starts
 * a new one.
 */
export const CHECK_TIMEOUT_MS = 60_000

/**
 * The check could not run (its models did not load, its worker failed or hung): 503, so the
 * member is asked to try again rather than told the photo is wrong. What happened is the `cause`.
 */
export function checkUnavailable(cause: unknown) {
  const problem = new ApiProblem(503, 'photo_check_unavailable', 'The photo could not be checked just now. Please try again in a few minutes.')
  return Object.assign(problem, { cause })
}

interface Waiting {
  resolve: (findings: PhotoFindings) => void
  reject: (error: ApiProblem) => void
  timer: NodeJS.Timeout
}

interface Running {
  thread: Worker
  pending: Map<number, Waiting>
  /** Forgets request `id` (its timer too) and returns its callbacks, or null when already settled. */
  settle: (id: number) => Waiting | null
}

export function createPhotoChecker(): PhotoChecker {
  let current: Running | null = null
  let nextId = 1

  function start(): Running {
    const thread = new Worker(new URL('./photo-worker.ts', import.meta.url))
    thread.unref()
    // Each worker answers only its own requests (a stopped one's exit fails nothing newer).
    const pending = new Map<number, Waiting>()
    const settle = (id: number) => {
      const waiting = pending.get(id)
      if (!waiting) return null
      pending.delete(id)
      clearTimeout(waiting.timer)
      if (pending.size === 0) thread.unref()
      return waiting
    }
    const failAll = (cause: unknown) => {
      for (const id of [...pending.keys()]) settle(id)?.reject(checkUnavailable(cause))
    }
    thread.on('message', (reply: WorkerReply) => {
      if ('ready' in reply) {
        if (!reply.ready) failAll(new Error(`The photo check could not load its models: ${reply.error}`))
        return
      }
      const waiting = settle(reply.id)
      if (!waiting) return
      if ('findings' in reply) waiting.resolve(reply.findings)
      else waiting.reject(checkUnavailable(new Error(`The photo check failed: ${reply.error}`)))
    })
    const forget = () => {
      if (current?.thread === thread) current = null
    }
    thread.on('error', (error: Error) => {
      forget()
      failAll(error)
    })
    thread.on('exit', () => {
      forget()
      failAll(new Error('The photo check stopped'))
    })
    return { thread, pending, settle }
  }

  const ensure = () => (current ??= start())

  return {
    async inspect(image) {
      const { data, info } = await image
        .resize(CHECK_SIZE, CHECK_SIZE, { fit: 'inside', withoutEnlargement: true })
        .removeAlpha()
        .toColourspace('srgb')
        // 8 bits a channel whatever the source (a 16-bit PNG would give 16).
        .raw({ depth: 'uchar' })
        .toBuffer({ resolveWithObject: true })
      const { thread, pending, settle } = ensure()
      const id = nextId++
      const pixels = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)
      return new Promise<PhotoFindings>((resolve, reject) => {
        const timer = setTimeout(() => {
          settle(id)?.reject(checkUnavailable(new Error('The photo check took too long')))
          if (current?.thread === thread) current = null
          void thread.terminate()
        }, CHECK_TIMEOUT_MS)
        timer.unref()
        pending.set(id, { resolve, reject, timer })
        // Kept alive while a check is under way (a script awaiting one must not exit).
        thread.ref()
        thread.postMessage({ id, width: info.width, height: info.height, pixels } satisfies WorkerRequest, [pixels])
      })
    },
    warmUp() {
      ensure()
    },
    async stop() {
      const stopping = current?.thread
      current = null
      if (stopping) await stopping.terminate()
    },
  }
}

/** The process's checker (the worker and its models exist once per process). */
export const photoChecker: PhotoChecker = createPhotoChecker()
