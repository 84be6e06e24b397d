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
import type { ApiEnv } from '../http/context.ts'
import { problems } from '../http/errors.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, readJson, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller, validate } from '../http/request.ts'
import { MAX_UPLOAD_BYTES, tooLarge } from './images.ts'
import { ownUserJson } from '../users/service.ts'
import { removeAvatar, setAvatar } from './avatar.ts'
import { readMultipart } from './multipart.ts'
import { photoChecker } from './photo-check.ts'
import { duplicateCover, readPhoto, uploadPhoto, type MediaDeps } from './service.ts'

function deps(c: Context<ApiEnv>): MediaDeps {
  const { db, media, photoChecker: checker } = c.var.services
  return { db, storage: media, photoChecker: checker ?? photoChecker }
}

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
