import type { User } from '../db/schema.ts'
import type { DB } from '../db/database.ts'
import { ApiProblem, problems } from '../http/errors.ts'
import { isUuid } from '../http/params.ts'
import { requirePermission } from '../policy/permissions.ts'
import type { MediaStorage } from '../providers/storage/storage.ts'
import type { MediaDeps } from './service.ts'

/**
 * A member's profile photo (spec §7 `PUT v1/users/me/avatar` with `file_name`): a photo the member
 * uploaded with target `avatar` (POST v1/medias checked it: one face, appropriate content, cropped
 * square on the face). Replacing or removing it deletes the old photo's row and files.
 */

/** The photo a member shows (their media id), or null: none, or a suspended or banned member's. */
export function shownAvatarId(user: Pick<User, 'avatar_media_id' | 'banned' | 'is_suspended'>) {
  return user.banned || user.is_suspended ? null : user.avatar_media_id
}

/**
 * The URL of the member's shown photo from its storage key, read by the caller (null: no photo):
 * the storage's public URL, as every photo the API answers (decision 067).
 */
export function avatarUrlOf(storageKey: string | null, storage: MediaStorage) {
  return storageKey ? storage.publicUrl(storageKey) : null
}

async function deleteFiles(storage: MediaStorage, media: { storage_key: string; thumbnail_key: string | null } | undefined) {
  if (!media) return
  await storage.delete(media.storage_key)
  if (media.thumbnail_key) await storage.delete(media.thumbnail_key)
}

/**
 * Puts the caller's uploaded avatar photo `fileName` (its media id, or its key as in its URL) on
 * their profile. Another member's photo, or none, is 404; a photo uploaded for something else
 * (an activity cover, which was not checked for a face) is 422.
 */
export async function setAvatar({ db, storage }: MediaDeps, caller: User, fileName: string): Promise<User> {
  requirePermission(caller, 'update:user', caller)
  // The key in the photo's `url` as the API answered it: the storage's public URL (a public
  // bucket's, S3_PUBLIC_URL) or `/api/media/<key>`.
  const publicPrefix = storage.publicUrl('')
  const key = fileName.startsWith(publicPrefix) ? fileName.slice(publicPrefix.length) : fileName.replace(/^.*\/api\/media\//, '')
  const media = await db
    .selectFrom('media')
    .selectAll()
    .where(isUuid(key) ? 'id' : 'storage_key', '=', key)
    .where('owner_id', '=', caller.id)
    .executeTakeFirst()
  if (!media) throw problems.notFound('Photo not found')
  if (media.target !== 'avatar') {
    throw new ApiProblem(422, 'invalid_input', 'This photo was not uploaded as a profile photo.', {
      file_name: ['not_avatar'],
    })
  }
  const { user, previous } = await replaceAvatar(db, caller, media.id)
  await deleteFiles(storage, previous)
  return user
}

/** Takes the caller's profile photo down; its files are deleted. */
export async function removeAvatar({ db, storage }: MediaDeps, caller: User): Promise<User> {
  requirePermission(caller, 'update:user', caller)
  const { user, previous } = await replaceAvatar(db, caller, null)
  await deleteFiles(storage, previous)
  return user
}

async function replaceAvatar(db: DB, caller: User, mediaId: string | null) {
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('users')
      .select('avatar_media_id')
      .where('id', '=', caller.id)
      .forUpdate()
      .executeTakeFirstOrThrow()
    const user = await trx
      .updateTable('users')
      .set({ avatar_media_id: mediaId, updated_at: new Date() })
      .where('id', '=', caller.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    const previous =
      before.avatar_media_id && before.avatar_media_id !== mediaId
        ? await trx
            .deleteFrom('media')
            .where('id', '=', before.avatar_media_id)
            .returning(['storage_key', 'thumbnail_key'])
            .executeTakeFirst()
        : undefined
    return { user, previous }
  })
}
