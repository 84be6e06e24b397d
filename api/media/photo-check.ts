import { Worker } from 'node:worker_threads'
import type { Sharp } from 'sharp'

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

export function createPhotoChecker(): PhotoChecker {
  let worker: Worker | null = null
  let nextId = 1
  const pending = new Map<number, { resolve: (findings: PhotoFindings) => void; reject: (error: Error) => void }>()

  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error)
    pending.clear()
  }

  function start() {
    const started = new Worker(new URL('./photo-worker.ts', import.meta.url))
    started.unref()
    started.on('message', (reply: WorkerReply) => {
      if ('ready' in reply) {
        if (!reply.ready) failAll(new Error(`The photo check could not load its models: ${reply.error}`))
        return
      }
      const waiting = pending.get(reply.id)
      if (!waiting) return
      pending.delete(reply.id)
      if (pending.size === 0) started.unref()
      if ('findings' in reply) waiting.resolve(reply.findings)
      else waiting.reject(new Error(`The photo check failed: ${reply.error}`))
    })
    started.on('error', (error: Error) => {
      if (worker === started) worker = null
      failAll(error)
    })
    started.on('exit', () => {
      if (worker === started) worker = null
      failAll(new Error('The photo check stopped'))
    })
    return started
  }

  return {
    async inspect(image) {
      const { data, info } = await image
        .resize(CHECK_SIZE, CHECK_SIZE, { fit: 'inside', withoutEnlargement: true })
        .removeAlpha()
        .toColourspace('srgb')
        .raw()
        .toBuffer({ resolveWithObject: true })
      worker ??= start()
      const id = nextId++
      const pixels = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)
      const running = worker
      return new Promise<PhotoFindings>((resolve, reject) => {
        pending.set(id, { resolve, reject })
        // Kept alive while a check is under way (a script awaiting one must not exit).
        running.ref()
        running.postMessage({ id, width: info.width, height: info.height, pixels } satisfies WorkerRequest, [pixels])
      })
    },
    warmUp() {
      worker ??= start()
    },
    async stop() {
      const running = worker
      worker = null
      if (running) await running.terminate()
    },
  }
}

/** The process's checker (the worker and its models exist once per process). */
export const photoChecker: PhotoChecker = createPhotoChecker()
