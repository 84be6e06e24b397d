import type { Submission } from '@conform-to/react'
import { unstable_parseMultipartFormData as parseMultipartFormData, type AppLoadContext } from '@remix-run/node'
import type { ProfilePhotoProblemCode } from '#contract/media.ts'
import type { User } from '#contract/users.ts'
import { ApiError } from './api.server.ts'
import { getApi } from './auth.server.ts'
import { photoFormUploadHandler } from './upload-handler.server.ts'

/**
 * Profile photos for route actions (decision 024): read the form's photo with the upload
 * handler, send it to the API (`POST v1/medias` with target `avatar`, then
 * `PUT v1/users/me/avatar`), and turn the API's refusals (spec §8: 413, 415, 422 no face,
 * several faces, content) into translated messages for the photo field (namespace `photo`).
 */

export interface ReceivedPhotoForm {
  formData: FormData
  /** Why the photo could not be read as the page sends it, if it could not. */
  problem: 'photo_too_large' | 'not_multipart' | null
}

/** The form as the page sends it (multipart); a photo over 15 MB is left out and said so. */
export async function readPhotoForm(request: Request): Promise<ReceivedPhotoForm> {
  const contentType = request.headers.get('Content-Type') ?? ''
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    const urlencoded = /^application\/x-www-form-urlencoded/i.test(contentType)
    const formData = urlencoded ? await request.formData().catch(() => new FormData()) : new FormData()
    return { formData, problem: 'not_multipart' }
  }
  let tooLarge = false
  const handler = photoFormUploadHandler(request, () => void (tooLarge = true))
  const formData = await parseMultipartFormData(request, handler)
  return { formData, problem: tooLarge ? 'photo_too_large' : null }
}

/** A refusal for the photo field: the status to answer with and the message's key. */
export interface PhotoProblem {
  status: number
  message: string
}

const problemMessages: Record<ProfilePhotoProblemCode, string> = {
  no_face: 'photo:errors.noFace',
  multiple_faces: 'photo:errors.multipleFaces',
  inappropriate_content: 'photo:errors.content',
}

/**
 * The field message for a failed upload (spec §8 "Media upload"): 413 too large, 415 not a JPEG
 * or PNG, 422 by its code (no face, several faces, content not allowed, or refused otherwise);
 * any other status is a failure to check the photo just now (the member may try again).
 */
export function photoProblemFrom(error: unknown): PhotoProblem {
  if (!(error instanceof ApiError)) throw error
  if (error.status === 413) return { status: 413, message: 'photo:errors.tooLarge' }
  if (error.status === 415) return { status: 415, message: 'photo:errors.format' }
  if (error.status === 422) {
    const known = error.code && error.code in problemMessages ? problemMessages[error.code as ProfilePhotoProblemCode] : null
    return { status: 422, message: known ?? 'photo:errors.rejected' }
  }
  if (error.status === 401) throw error
  return { status: error.status >= 500 ? 503 : error.status, message: 'photo:errors.unknown' }
}

/**
 * Uploads `file` as the member's profile photo and puts it on their profile: the member as
 * changed, or the problem to show next to the field.
 */
export async function saveProfilePhoto(
  request: Request,
  context: AppLoadContext,
  file: File,
): Promise<{ user: User; problem: null } | { user: null; problem: PhotoProblem }> {
  const { media } = getApi(request, context)
  try {
    const uploaded = await media.upload('avatar', file)
    return { user: await media.setAvatar(uploaded.id), problem: null }
  } catch (error) {
    return { user: null, problem: photoProblemFrom(error) }
  }
}

/** Why a photo form was refused: the status, and the field's message (none: the schema's own). */
export interface PhotoFormRefusal {
  status: number
  errors?: { fieldErrors: { photo: string[] } }
}

/**
 * A photo form as its route received it (`readPhotoForm`, then its schema): the photo saved on
 * the member's profile (null), or why not — the form could not be read, the schema refused it, or
 * the API did (no face, several faces, content…).
 */
export async function savePhotoForm(
  request: Request,
  context: AppLoadContext,
  received: ReceivedPhotoForm,
  submission: Submission<{ photo: File }>,
): Promise<PhotoFormRefusal | null> {
  const refuse = (message: string, status: number) => ({ status, errors: { fieldErrors: { photo: [message] } } })
  if (received.problem === 'not_multipart') return refuse('photo:errors.notMultipart', 415)
  if (received.problem === 'photo_too_large') return refuse('photo:errors.tooLarge', 413)
  if (submission.status !== 'success') return { status: 400 }
  const { problem } = await saveProfilePhoto(request, context, submission.value.photo)
  return problem ? refuse(problem.message, problem.status) : null
}
