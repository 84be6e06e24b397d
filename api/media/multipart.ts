import type { Context } from 'hono'
import type { ApiEnv } from '../http/context.ts'
import { multipartControlProblem } from '../http/control-characters.ts'
import { ApiProblem } from '../http/errors.ts'
import { MAX_UPLOAD_BYTES, tooLarge } from './images.ts'

/** Room for the multipart boundaries, part headers and the `target` field around the file. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024
export const MAX_UPLOAD_BODY_BYTES = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES
/** `target` and `file`, with room for a client that sends a field or two more. */
export const MAX_UPLOAD_PARTS = 4

/**
 * QUALITY: "size limit checked while streaming". Refuses a declared Content-Length over the
 * limit without reading anything, and otherwise counts the bytes as they arrive and stops at
 * the first chunk past the limit, so at most the limit (plus one chunk) is ever held in memory.
 * The rest of the body is left unread: @hono/node-server drains an unconsumed request body for
 * a moment (at most 500 ms / 64 MB) and then closes the connection, after the 413 has been sent
 * (routes.test.ts checks this over real HTTP).
 */
export async function readMultipart(
  c: Context<ApiEnv>,
  limits: { maxBytes: number; maxParts: number; fields: string } = {
    maxBytes: MAX_UPLOAD_BODY_BYTES,
    maxParts: MAX_UPLOAD_PARTS,
    fields: 'target and file',
  },
): Promise<FormData> {
  const contentType = c.req.header('content-type') ?? ''
  if (!/^multipart\/form-data\s*;\s*boundary=/i.test(contentType)) {
    throw new ApiProblem(
      400,
      'invalid_body',
      `Send the photo as multipart/form-data with the fields ${limits.fields}.`,
    )
  }
  const declared = c.req.header('content-length')
  if (declared && Number(declared) > limits.maxBytes) throw tooLarge()

  const body = c.req.raw.body
  if (!body) throw new ApiProblem(400, 'invalid_body', 'The request has no body.')
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let received = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    received += value.byteLength
    if (received > limits.maxBytes) {
      reader.releaseLock()
      throw tooLarge()
    }
    chunks.push(value)
  }
  // Counted before parsing: a body of thousands of tiny parts would cost far more to parse
  // and hold than its size suggests.
  const bytes = Buffer.concat(chunks)
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)
  if (!boundary) throw new ApiProblem(400, 'invalid_body', 'The multipart body could not be read.')
  const delimiter = `--${boundary[1] ?? boundary[2]}`
  let delimiters = 0
  for (let at = bytes.indexOf(delimiter); at !== -1; at = bytes.indexOf(delimiter, at + delimiter.length)) {
    // One delimiter opens each part, and one more closes the body.
    if (++delimiters > limits.maxParts + 1) {
      throw new ApiProblem(413, 'payload_too_large', `Send the fields ${limits.fields} only.`)
    }
  }
  let form: FormData
  try {
    form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData()
  } catch {
    throw new ApiProblem(400, 'invalid_body', 'The multipart body could not be read.')
  }
  // The API refuses control characters in every field (decision 066); this body is read here only.
  const refused = multipartControlProblem(form)
  if (refused) throw refused
  return form
}
