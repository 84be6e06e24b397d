import { createRoute } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { z } from 'zod'
import { oneOf } from '#contract/common.ts'
import {
  duplicateMediaBodySchema,
  mediaSchema,
  setAvatarBodySchema,
  uploadFormSchema,
  uploadTargetSchema,
} from '#contract/media.ts'
import { userSchema } from '#contract/users.ts'
import type { ApiEnv } from '../app.ts'
import { ApiProblem, problems } from '../http/errors.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, readJson, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller, validate } from '../http/request.ts'
import { MAX_UPLOAD_BYTES, tooLarge } from './images.ts'
import { ownUserJson } from '../users/service.ts'
import { multipartControlProblem } from '../http/control-characters.ts'
import { removeAvatar, setAvatar } from './avatar.ts'
import { photoChecker } from './photo-check.ts'
import { duplicateCover, readPhoto, uploadPhoto, type MediaDeps } from './service.ts'

function deps(c: Context<ApiEnv>): MediaDeps {
  const { db, media, photoChecker: checker } = c.var.services
  return { db, storage: media, photoChecker: checker ?? photoChecker }
}

/** Room for the multipart boundaries, part headers and the `target` field around the file. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024
export const MAX_UPLOAD_BODY_BYTES = MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES
/** `target` and `file`, with room for a client that sends a field or two more. */
export const MAX_UPLOAD_PARTS = 4

export function mediaRoutes(routes: ApiRoutes) {
  const tags = ['media']

  const uploadRoute = createRoute({
    method: 'post',
    path: '/v1/medias',
    tags,
    security: auth.required,
    summary:
      'Upload a photo (multipart: `target`, `file`). JPEG or PNG by content, at most 15 MB and 40 megapixels; ' +
      'it is re-encoded without metadata (covers 1200×600 with a 450×150 thumbnail). A profile photo (target ' +
      '`avatar`) must show exactly one face and appropriate content; it is cropped square on the face ' +
      '(400×400 with a 96×96 thumbnail). `data` holds one item.',
    request: { body: { required: true, content: { 'multipart/form-data': { schema: uploadFormSchema } } } },
    responses: {
      200: jsonContent('The stored photo', oneOf(mediaSchema)),
      ...errors(auth.required, {
        400: 'Not a multipart body (code invalid_body)',
        413: 'Larger than 15 MB or 40 megapixels (code too_large), or more than 4 parts (code payload_too_large)',
        415: 'Not a JPEG or PNG (code invalid_format)',
        422:
          'Missing or unknown target, or no file (code invalid_input); a profile photo with no face (no_face), ' +
          'several faces (multiple_faces) or content that is not allowed (inappropriate_content)',
        503:
          'The database is unavailable (code service_unavailable), or the profile-photo check could not run ' +
          '(code photo_check_unavailable); retry later',
      }),
    },
  })
  serve(routes, uploadRoute, async (c) => {
    const caller = requireCaller(c)
    const form = await readMultipart(c)
    // The body is read here as it streams (readMultipart); its `target` is checked with the contract.
    const { target } = validate(uploadTargetSchema, {
      target: form.get('target') ?? undefined,
    })
    const file = form.get('file')
    if (!file || typeof file === 'string') throw problems.invalid({ file: ['required'] })
    if (file.size > MAX_UPLOAD_BYTES) throw tooLarge()
    const media = await uploadPhoto(deps(c), caller, target, new Uint8Array(await file.arrayBuffer()))
    return c.json({ data: [media] })
  })

  const duplicateRoute = createRoute({
    method: 'post',
    path: '/v1/medias/duplicate',
    tags,
    security: auth.required,
    summary: "Copy an activity's cover photo for a duplicated activity; the copy belongs to the caller. `data` holds one item.",
    request: { body: jsonBody(duplicateMediaBodySchema) },
    responses: {
      200: jsonContent('The copy', oneOf(mediaSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        404: 'No such activity (or it was canceled), or it has no cover (code not_found)',
        422: 'No experience_id (code invalid_input)',
      }),
    },
  })
  serve(routes, duplicateRoute, async (c) => {
    const caller = requireCaller(c)
    const { experience_id: experienceId } = await readJson(c, duplicateRoute)
    return c.json({ data: [await duplicateCover(deps(c), caller, experienceId)] })
  })

  const setAvatarRoute = createRoute({
    method: 'put',
    path: '/v1/users/me/avatar',
    tags,
    security: auth.required,
    summary:
      "Put a profile photo on the signed-in member's profile: `file_name` is the `id` (or the `url`) of a photo " +
      'they uploaded with target `avatar`. The photo it replaces is deleted. `data` holds the member.',
    request: { body: jsonBody(setAvatarBodySchema) },
    responses: {
      200: jsonContent('The member, with the new photo', oneOf(userSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        404: 'No such photo of the member (code not_found)',
        422: 'No file_name, or a photo not uploaded as a profile photo (code invalid_input)',
      }),
    },
  })
  serve(routes, setAvatarRoute, async (c) => {
    const caller = requireCaller(c)
    const { file_name: fileName } = await readJson(c, setAvatarRoute)
    const user = await setAvatar(deps(c), caller, fileName)
    return c.json({ data: [await ownUserJson(c.var.services, user)] })
  })

  const removeAvatarRoute = createRoute({
    method: 'delete',
    path: '/v1/users/me/avatar',
    tags,
    security: auth.required,
    summary: "Take the signed-in member's profile photo down; its files are deleted. Nothing to remove is fine too.",
    responses: { 204: { description: 'No photo any more' }, ...errors(auth.required) },
  })
  serve(routes, removeAvatarRoute, async (c) => {
    await removeAvatar(deps(c), requireCaller(c))
    return c.body(null, 204)
  })

  // The photo files themselves, for local storage and private buckets (publicUrl points here).
  // Keys are random and unguessable; no token is needed, as for a CDN URL.
  const photo = { schema: z.string().meta({ format: 'binary' }) }
  const photoRoute = createRoute({
    method: 'get',
    path: '/media/{key}',
    tags,
    security: auth.optional,
    summary:
      'A stored photo by the key in a media `url` (the key holds slashes: `covers/2026/05/….jpg`); cached for a year, ' +
      'except a private one (ID verification), which only its owner and admins read.',
    request: { params: z.object({ key: z.string().meta({ description: 'The key, slashes included.' }) }) },
    responses: {
      200: { description: 'The photo’s bytes', content: { 'image/jpeg': photo, 'image/png': photo } },
      ...errors(auth.optional, { 404: 'No such photo, or a private one of someone else (code not_found)' }),
    },
  })
  serve(
    routes,
    photoRoute,
    async (c) => {
      let key: string
      try {
        key = decodeURIComponent(c.req.path.replace(/^.*?\/media\//, ''))
      } catch {
        throw problems.notFound()
      }
      const object = await readPhoto(deps(c), c.var.caller, key)
      return c.body(object.body as Uint8Array<ArrayBuffer>, 200, {
        'content-type': object.contentType,
        'content-length': String(object.body.byteLength),
        // A private photo (ID verification) is never kept by a shared cache.
        'cache-control': object.isPrivate ? 'private, no-store' : 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'",
      })
    },
    { honoPath: '/media/*' },
  )
}

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
