import { readFile } from 'node:fs/promises'
import { availableParallelism, loadavg } from 'node:os'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import sharp from 'sharp'
import { processImage } from '../api/media/images.ts'
import { createPhotoChecker } from '../api/media/photo-check.ts'
import { profilePhotoInspector } from '../api/media/profile-photo.ts'

/**
 * `npm run bench:photo [-- N]`: the profile-photo check (decision 024) on a 12-megapixel photo,
 * through the path POST v1/medias takes (processImage with the face and content check in the
 * worker thread), N times (default 20). Prints p50/p95 of a whole check, the process memory with
 * the models loaded, and the main thread's event-loop delay while the checks run (it stays free
 * because the models run in the worker). Goal: p95 under 1.5 s on a 2-core machine.
 */
const runs = Number(process.argv[2] ?? 20)
const root = path.resolve(import.meta.dirname, '..')

const onePerson = await readFile(path.join(root, 'tests/fixtures/photos/one-face.jpg'))
// 4000×3000: the one-face photo enlarged onto a phone camera's 12 megapixels.
const photo = await sharp(onePerson)
  .resize(2250, 3000, { fit: 'fill' })
  .extend({ left: 875, right: 875, background: '#6b7b8c' })
  .jpeg({ quality: 90 })
  .toBuffer()
const meta = await sharp(photo).metadata()
console.log(`Photo: ${meta.width}×${meta.height} (${((meta.width ?? 0) * (meta.height ?? 0) / 1e6).toFixed(1)} MP), ${(photo.byteLength / 1e6).toFixed(1)} MB JPEG`)

const checker = createPhotoChecker()
const inspect = profilePhotoInspector(checker)
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`

const started = performance.now()
await processImage(photo, 'avatar', { inspect })
console.log(`First check (loads the models in the worker): ${Math.round(performance.now() - started)} ms`)

// The main thread's delay with nothing to do, for comparison (other work on the machine shows here too).
const idle = monitorEventLoopDelay({ resolution: 10 })
idle.enable()
await new Promise((resolve) => setTimeout(resolve, 3_000))
idle.disable()

const lag = monitorEventLoopDelay({ resolution: 10 })
lag.enable()
// A trivial timer on the main thread, as a request would be, while the checks run.
let ticks = 0
const timer = setInterval(() => ticks++, 5)
const times: number[] = []
for (let i = 0; i < runs; i++) {
  const t0 = performance.now()
  const result = await processImage(photo, 'avatar', { inspect })
  times.push(performance.now() - t0)
  if (result.main.width !== 400 || result.thumbnail.width !== 96) throw new Error('Unexpected crop')
}
clearInterval(timer)
lag.disable()

times.sort((a, b) => a - b)
const at = (share: number) => Math.round(times[Math.min(times.length - 1, Math.ceil(share * times.length) - 1)] ?? 0)
const memory = process.memoryUsage()
const total = times.reduce((sum, t) => sum + t, 0)
console.log(`Checks: ${runs}, p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${Math.round(times.at(-1) ?? 0)} ms`)
console.log(`Memory with the models loaded: RSS ${mb(memory.rss)}, heap used ${mb(memory.heapUsed)} (main thread), external ${mb(memory.external)}`)
const ms = (nanoseconds: number) => `${(nanoseconds / 1e6).toFixed(1)} ms`
const delays = (histogram: typeof lag) => `p50 ${ms(histogram.percentile(50))}, p99 ${ms(histogram.percentile(99))}, max ${ms(histogram.max)}`
console.log(`Main thread idle (3 s, no checks): event-loop delay ${delays(idle)}`)
console.log(`Main thread while checking: event-loop delay ${delays(lag)}; a 5 ms timer fired ${ticks} times in ${Math.round(total)} ms`)
console.log(`Load average (1 min) on ${availableParallelism()} cores: ${loadavg()[0]?.toFixed(1)}`)
await checker.stop()
