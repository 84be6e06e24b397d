import { z } from 'zod'
import { mediaTargets } from './enums.ts'
import { maxPhotoBytes } from './limits.ts'

/** Photos (spec §3 "Media", §7 `v1/medias`): what the API accepts and answers. */

/** A stored photo. */
export const mediaSchema = z
  .object({
    id: z.string(),
    target: z.enum(mediaTargets),
    url: z.string(),
    thumbnail_url: z.string().nullable(),
    width: z.number().int(),
    height: z.number().int(),
  })
  .meta({ id: 'Media' })
export type Media = z.infer<typeof mediaSchema>

/**
 * `POST v1/medias` (multipart/form-data): what the photo is for and the file. The API reads the
 * body itself as it streams (the size is limited while it arrives), then checks `target` with
 * `uploadTargetSchema`.
 */
export const uploadFormSchema = z.object({
  target: z.enum(mediaTargets),
  file: z.any().meta({
    type: 'string',
    format: 'binary',
    description: `A JPEG or PNG photo, at most ${maxPhotoBytes / 1024 / 1024} MB and 40 megapixels.`,
  }),
})
export const uploadTargetSchema = uploadFormSchema.pick({ target: true })

/** `POST v1/medias/duplicate`: copy an activity's cover photo. */
export const duplicateMediaBodySchema = z.object({ experience_id: z.string().min(1) })

/**
 * `PUT v1/users/me/avatar` (spec §7 "body file_name"): the member's profile photo, by the `id`
 * (or the key in the `url`) of a photo they uploaded with target `avatar`.
 */
export const setAvatarBodySchema = z.object({ file_name: z.string().trim().min(1).max(600) })
export type SetAvatarBody = z.infer<typeof setAvatarBodySchema>

/** The 422 codes of a refused profile photo (spec §8: "no face", "face(s)", "content"). */
export const profilePhotoProblemCodes = ['no_face', 'multiple_faces', 'inappropriate_content'] as const
export type ProfilePhotoProblemCode = (typeof profilePhotoProblemCodes)[number]
