import type { Selectable } from 'kysely'
import type { DB } from '../db/database.ts'
import type { MediaTable, User } from '../db/schema.ts'
import { getReadableExperience } from '../experiences/service.ts'
import { problems } from '../http/errors.ts'
import { isUuid } from '../http/params.ts'
import { can, requirePermission, type Caller } from '../policy/permissions.ts'
import { isValidMediaKey, newMediaKeys, type MediaStorage, type MediaTarget } from '../providers/storage/storage.ts'
import { processImage } from './images.ts'
import type { PhotoChecker } from './photo-check.ts'
import { profilePhotoInspector } from './profile-photo.ts'
import type { RequestCaller } from '../policy/permissions.ts'

type Media = Selectable<MediaTable>

export interface MediaDeps {
  db: DB
  storage: MediaStorage
  /** The profile-photo check (faces, content); avatars only. */
  photoChecker: PhotoChecker
}

export function serializeMedia(storage: MediaStorage, media: Media) {
  return {
    id: media.id,
    target: media.target,
    url: storage.publicUrl(media.storage_key),
    thumbnail_url: media.thumbnail_key ? storage.publicUrl(media.thumbnail_key) : null,
    width: media.width,
    height: media.height,
  }
}

/** A photo's row, its owner the caller; uploaded while a staff member acted as them, it names that staff member too (decision 078). */
async function insertMedia(db: DB, caller: RequestCaller, values: Omit<Media, 'id' | 'owner_id' | 'created_at' | 'impersonator_id'>): Promise<Media> {
  return db
    .insertInto('media')
    .values({ ...values, owner_id: caller.id, impersonator_id: caller.impersonator_id ?? null })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/**
 * Checks, re-encodes and stores an uploaded photo (processImage goes by the bytes, not the
 * declared type). A profile photo must show exactly one face and appropriate content, and is
 * cropped square on the face (422 otherwise; decision 024).
 */
export async function uploadPhoto({ db, storage, photoChecker }: MediaDeps, caller: User, target: MediaTarget, bytes: Uint8Array) {
  requirePermission(caller, 'create:media')
  const image = await processImage(
    bytes,
    target,
    target === 'avatar' ? { inspect: profilePhotoInspector(photoChecker) } : {},
  )
  const keys = newMediaKeys(target, image.main.contentType)
  await storage.put(keys.key, image.main.bytes, image.main.contentType)
  await storage.put(keys.thumbnailKey, image.thumbnail.bytes, image.thumbnail.contentType)
  const media = await insertMedia(db, caller, {
    target,
    storage_key: keys.key,
    thumbnail_key: keys.thumbnailKey,
    mime_type: image.main.contentType,
    width: image.main.width,
    height: image.main.height,
    bytes: image.main.bytes.byteLength,
  })
  return serializeMedia(storage, media)
}

/**
 * Copies an activity's cover for a duplicated activity; the copy belongs to the caller. Whoever
 * may read the activity may copy its cover: a cancelled one only its host, its attendees and
 * admins (the experiences rule, decision 012).
 */
export async function duplicateCover({ db, storage }: MediaDeps, caller: User, experienceId: string) {
  requirePermission(caller, 'create:media')
  if (!isUuid(experienceId)) throw problems.notFound('Activity not found')
  const experience = await getReadableExperience(db, experienceId, caller)
  const cover = experience.cover_media_id
    ? await db.selectFrom('media').selectAll().where('id', '=', experience.cover_media_id).executeTakeFirst()
    : undefined
  if (!cover) throw problems.notFound('This activity has no cover photo')

  const keys = newMediaKeys(cover.target, cover.mime_type)
  await storage.copy(cover.storage_key, keys.key)
  if (cover.thumbnail_key) await storage.copy(cover.thumbnail_key, keys.thumbnailKey)
  const media = await insertMedia(db, caller, {
    target: cover.target,
    storage_key: keys.key,
    thumbnail_key: cover.thumbnail_key ? keys.thumbnailKey : null,
    mime_type: cover.mime_type,
    width: cover.width,
    height: cover.height,
    bytes: cover.bytes,
  })
  return serializeMedia(storage, media)
}

/**
 * Folders whose photos are private: ID verification photos are for their owner and admins
 * (`read:media:private`). Chat photos join when chat exists (readable by the channel's members).
 * Every other photo is public behind its unguessable key, like a CDN URL.
 */
const PRIVATE_FOLDERS = ['verification/']

/**
 * A stored photo by key, or 404. A private photo is answered only to who may read it (anyone
 * else gets the same 404 as for a missing key, so its existence is not revealed).
 */
export async function readPhoto({ db, storage }: MediaDeps, caller: Caller, key: string) {
  if (!isValidMediaKey(key)) throw problems.notFound()
  const isPrivate = PRIVATE_FOLDERS.some((folder) => key.startsWith(folder))
  if (isPrivate) {
    const media = await db
      .selectFrom('media')
      .select(['owner_id', 'target'])
      .where((eb) => eb.or([eb('storage_key', '=', key), eb('thumbnail_key', '=', key)]))
      .executeTakeFirst()
    if (!media || !can(caller, 'read:media:private', media)) throw problems.notFound()
  }
  const object = await storage.get(key)
  if (!object) throw problems.notFound()
  return { ...object, isPrivate }
}
