import { createRequire } from 'node:module'
import path from 'node:path'
import { parentPort } from 'node:worker_threads'
import type { PhotoFindings, WorkerReply, WorkerRequest } from './photo-check.ts'

/**
 * The profile-photo check's thread (decision 024). It loads two models once, both shipped inside
 * npm packages and read from disk (nothing is fetched at run time), on TensorFlow.js with its
 * WebAssembly backend (the .wasm files of @tensorflow/tfjs-backend-wasm, no native build):
 *
 * - faces: @vladmandic/face-api's SSD MobileNet v1 detector (its `model/` folder);
 * - content: nsfwjs's MobileNet v2 classifier (bundled in the package as JS modules).
 *
 * It takes already decoded, upright, downscaled RGB pixels (photo-check.ts makes them with
 * sharp) and answers the faces found and the content scores, one request at a time.
 */

/** The parts of the libraries used here (their own typings pull in browser and tfjs-node types). */
interface Tensor3D {
  dispose(): void
}
interface Tf {
  tensor3d(values: Uint8Array, shape: [number, number, number], dtype: 'int32'): Tensor3D
  setBackend(name: string): Promise<boolean>
  ready(): Promise<void>
  getBackend(): string
  engine(): { startScope(): void; endScope(): void }
}
interface FaceApi {
  nets: { ssdMobilenetv1: { loadFromDisk(dir: string): Promise<void> } }
  SsdMobilenetv1Options: new (options: { minConfidence: number; maxResults: number }) => unknown
  detectAllFaces(
    input: Tensor3D,
    options: unknown,
  ): Promise<{ score: number; box: { x: number; y: number; width: number; height: number } }[]>
}
interface Classifier {
  classify(input: Tensor3D, topk: number): Promise<{ className: string; probability: number }[]>
}

const require = createRequire(import.meta.url)

/** Faces scored below this are not counted (the detector's own default is 0.5). */
export const MIN_FACE_SCORE = 0.5

async function loadModels() {
  const tf = require('@tensorflow/tfjs') as Tf
  const wasm = require('@tensorflow/tfjs-backend-wasm') as {
    setWasmPaths(prefix: string, usePlatformFetch?: boolean): void
  }
  // The .wasm files from the package on disk, not from a CDN.
  wasm.setWasmPaths(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/wasm-out/tfjs-backend-wasm.wasm')) + '/')
  if (!(await tf.setBackend('wasm'))) throw new Error('The TensorFlow.js WebAssembly backend did not start')
  await tf.ready()

  const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as FaceApi
  const faceModels = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model')
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(faceModels)

  const nsfw = require('nsfwjs/core') as {
    load(name: string, options: { modelDefinitions: unknown[] }): Promise<Classifier>
  }
  const { MobileNetV2Model } = require('nsfwjs/models/mobilenet_v2') as { MobileNetV2Model: unknown }
  // nsfwjs says which model it uses on the console; this thread has nothing to tell.
  const info = console.info
  console.info = () => undefined
  const classifier = await nsfw.load('MobileNetV2', { modelDefinitions: [MobileNetV2Model] })
  console.info = info
  const faceOptions = new faceapi.SsdMobilenetv1Options({ minConfidence: MIN_FACE_SCORE, maxResults: 20 })
  return { tf, faceapi, classifier, faceOptions }
}

const models = loadModels()

async function check(request: WorkerRequest): Promise<PhotoFindings> {
  const { tf, faceapi, classifier, faceOptions } = await models
  const pixels = new Uint8Array(request.pixels)
  tf.engine().startScope()
  try {
    const image = tf.tensor3d(pixels, [request.height, request.width, 3], 'int32')
    const detections = await faceapi.detectAllFaces(image, faceOptions)
    const classes = await classifier.classify(image, 5)
    return {
      width: request.width,
      height: request.height,
      faces: detections.map(({ score, box }) => ({
        score,
        x: box.x,
        y: box.y,
        width: box.width,
        height: box.height,
      })),
      content: Object.fromEntries(classes.map((c) => [c.className, c.probability])),
    }
  } finally {
    tf.engine().endScope()
  }
}

const port = parentPort
if (!port) throw new Error('photo-worker.ts runs as a worker thread (photo-check.ts starts it)')

// One request at a time, in order: the backend is single-threaded anyway.
let queue: Promise<void> = models.then(
  () => port.postMessage({ ready: true } satisfies WorkerReply),
  (error: unknown) => port.postMessage({ ready: false, error: String(error) } satisfies WorkerReply),
)
port.on('message', (request: WorkerRequest) => {
  queue = queue.then(async () => {
    try {
      port.postMessage({ id: request.id, findings: await check(request) } satisfies WorkerReply)
    } catch (error) {
      port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies WorkerReply)
    }
  })
})
