import type { NextFunction, Request, Response } from 'express'
import { photosAt } from '#contract/photo-forms.ts'
import type { Logger } from '../logger.ts'
import { MAX_UPLOAD_BYTES } from '../media/images.ts'
import { sendRefusal } from './refusal-page.ts'

/**
 * Request bodies are limited before anything parses them (QUALITY.md, docs/decisions/009 and
 * 062): forms are small, and only the forms that carry a photo (`contract/photo-forms.ts`, the
 * one list the routes read too) may be larger. The API has its own limits (api-body-limit.ts).
 */
export const FORM_BODY_LIMIT = 100 * 1024
/** Room for a photo form's text fields and the multipart framing around its photos. */
const PHOTO_FORM_TEXT_BYTES = 256 * 1024
/** A form of `photos` photos of up to 15 MB each (spec §9) and the text fields around them. */
export const photoFormBodyLimit = (photos: number) => photos * MAX_UPLOAD_BYTES + PHOTO_FORM_TEXT_BYTES
/** A form with one photo: the activity forms and the profile photo forms (two for identity verification). */
export const PHOTO_FORM_BODY_LIMIT = photoFormBodyLimit(1)
/**
 * A photo form whose body declares its length may be this large, past `photoFormBodyLimit`: its
 * route reads it as it streams, keeps at most 15 MB of each photo and drops the rest of a larger
 * one (`createFormUploadHandler`), so the page says next to the photo field that the photo is too
 * large and keeps everything else the member typed, with JavaScript or without (issue 29 §2).
 * Phones take JPEGs of up to about 25 MB (50 megapixels) and PNGs of 20 to 35 MB (12 megapixels).
 * Past this the form is refused here, with a page; it is as much as the host reads and drops of a
 * refused body anyway (DISCARD_BYTES). A chunked body keeps the tight limit, since it is read
 * ahead and held (`readAhead`); browsers always declare a form's length.
 */
export const OVERSIZED_PHOTO_FORM_LIMIT = 64 * 1024 * 1024

/**
 * A `.data` request is the Remix client submitting with JavaScript (single fetch), which reads
 * only turbo-stream: this is Remix's own answer when an action throws `data(null, { status: 413 })`
 * (`{ error: ErrorResponse(413) }`), so the page shows its error boundary for 413, translated.
 */
const singleFetchTooLarge = '[{"_1":2},"error",["ErrorResponse",-5,3,4],413,""]\n'

/** What may be left of a refused body is read and dropped for this long, then the connection closes. */
const DISCARD_MS = 5_000
const DISCARD_BYTES = 64 * 1024 * 1024

const isMultipart = (req: Request) => /^multipart\/form-data\s*;/i.test(req.get('content-type') ?? '')

/** How many photos the request's form carries: only a multipart form to a photo form's page has any. */
const photosIn = (req: Request) => (isMultipart(req) ? photosAt(req.path) : 0)

/**
 * The web's limit (everything the Express host serves other than the API, which limits its own
 * bodies): a declared Content-Length over the limit is refused at once, without reading. A
 * body without one (chunked) is read here, counting, before the route runs: the route then gets
 * it back intact, or the request is refused as soon as the count passes the limit, having held
 * no more than the limit. Either way a refused body is never handed to Remix, so no action ever
 * parses more than the limit (Node's parser itself stops a body at its Content-Length). A photo
 * form's declared body may be larger (OVERSIZED_PHOTO_FORM_LIMIT): its route keeps only 15 MB
 * of a photo and says the photo is too large.
 */
export function limitWebBodies(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const chunked = req.get('transfer-encoding') !== undefined
    const declared = req.get('content-length')
    if (!chunked && (declared === undefined || declared === '0')) return next()
    const photos = photosIn(req)
    const photo = photos > 0
    const limit = photo ? photoFormBodyLimit(photos) : FORM_BODY_LIMIT
    const refuse = () => {
      logger.warn(
        { requestId: res.locals.requestId as string, method: req.method, path: req.path, limit, contentLength: declared ?? null },
        'Request body over the limit refused',
      )
      // The rest is read and dropped, so the connection stays usable (keep-alive) and a browser
      // still uploading sees this answer; closing at once would cut its upload (EPIPE).
      discardBody(req)
      if (req.path.endsWith('.data')) {
        res.status(413).set({ 'content-type': 'text/x-script; charset=utf-8', 'x-remix-response': 'yes', 'cache-control': 'no-store' })
        res.send(singleFetchTooLarge)
      } else sendRefusal(req, res, 413, photo ? 'tooLargePhoto' : 'tooLarge').catch(next)
    }
    if (!chunked) return Number(declared) > (photo ? OVERSIZED_PHOTO_FORM_LIMIT : limit) ? refuse() : next()
    readAhead(req, limit).then((outcome) => {
      if (outcome === 'fits') next()
      else if (outcome === 'too-large') refuse()
      // 'gone': the client hung up; there is no one to answer.
    }, next)
  }
}

/**
 * Reads a chunked body in paused mode until it ends or passes `limit`. When it fits, it is
 * pushed back (`unshift`, before its 'end' event) for the route to read as if untouched: the
 * final read is sized so that it never asks past the end, which would emit 'end' too early.
 */
function readAhead(req: Request, limit: number): Promise<'fits' | 'too-large' | 'gone'> {
  if (req.complete && req.readableLength === 0) return Promise.resolve('fits')
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const finish = (outcome: 'fits' | 'too-large' | 'gone') => {
      req.off('readable', onReadable)
      req.off('error', onGone)
      req.off('close', onGone)
      if (outcome === 'fits' && size > 0) req.unshift(Buffer.concat(chunks, size))
      resolve(outcome)
    }
    const onGone = () => finish('gone')
    function onReadable() {
      while (req.readableLength > 0) {
        const chunk = req.read(req.readableLength) as Buffer
        size += chunk.byteLength
        if (size > limit) return finish('too-large')
        chunks.push(chunk)
      }
      if (req.complete) finish('fits')
    }
    req.on('readable', onReadable)
    req.on('error', onGone)
    req.on('close', onGone)
  })
}

/**
 * Reads and drops what the client is still sending after a refusal, so that it sees the answer
 * rather than a reset connection (browsers keep uploading until then); after DISCARD_MS or
 * DISCARD_BYTES the connection is closed. Nothing is kept: the bytes are counted and dropped.
 */
export function discardBody(req: Request) {
  if (req.complete || req.destroyed) return
  let discarded = 0
  const stop = () => {
    clearTimeout(timer)
    req.off('data', onData)
    req.off('end', stop)
    req.off('error', stop)
  }
  const close = () => {
    stop()
    req.socket.destroySoon()
  }
  const timer = setTimeout(close, DISCARD_MS)
  timer.unref()
  const onData = (chunk: Buffer) => {
    discarded += chunk.byteLength
    if (discarded > DISCARD_BYTES) close()
  }
  req.on('data', onData)
  req.on('end', stop)
  req.on('error', stop)
  req.resume()
}
