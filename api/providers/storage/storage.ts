import { randomUUID } from 'node:crypto'
import type { MediaTable } from '../../db/schema.ts'

/**
 * Where uploaded photos live (ARCHITECTURE §4): files under `.data/media` by default (local.ts),
 * an S3-compatible bucket (AWS S3, R2, MinIO…; s3.ts) when configured (api/providers.ts
 * chooses). Keys are made on the server (`covers/2026/11/<uuid>.jpg`), never from a client's
 * file name.
 */
export interface StoredObject {
  body: Uint8Array
  contentType: string
}

export interface MediaStorage {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>
  /** The object, or null when there is none under `key`. */
  get(key: string): Promise<StoredObject | null>
  copy(fromKey: string, toKey: string): Promise<void>
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>
  /** Where browsers fetch the object: absolute for a public bucket, `/api/media/<key>` otherwise. */
  publicUrl(key: string): string
}

export type MediaTarget = MediaTable['target']

/** Served by `GET /api/media/*` (the API's basePath is /api). */
export const MEDIA_URL_PREFIX = '/api/media'

const FOLDERS: Record<MediaTarget, string> = {
  avatar: 'avatars',
  experience_cover: 'covers',
  verification: 'verification',
  message: 'messages',
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
}

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
}

/**
 * A fresh random key and its thumbnail's: `covers/2026/11/<uuid>.jpg` and
 * `covers/2026/11/<uuid>-thumb.jpg`.
 */
export function newMediaKeys(target: MediaTarget, contentType: string, now = new Date()) {
  const extension = EXTENSIONS[contentType] ?? 'bin'
  const month = String(now.getUTCMonth() + 1).padStart(2, '0')
  const base = `${FOLDERS[target]}/${now.getUTCFullYear()}/${month}/${randomUUID()}`
  return { key: `${base}.${extension}`, thumbnailKey: `${base}-thumb.${extension}` }
}

/**
 * Keys are slash-separated segments of letters, digits, `-`, `_` and `.`, none starting with a
 * dot: no `..`, no absolute paths, no hidden (temporary) files, no backslashes or NULs.
 */
const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*(\/[A-Za-z0-9][A-Za-z0-9_.-]*)*$/

export function isValidMediaKey(key: string) {
  return key.length <= 512 && KEY_PATTERN.test(key)
}

export function assertKey(key: string) {
  if (!isValidMediaKey(key)) throw new Error(`Invalid media key: ${JSON.stringify(key)}`)
}

export function contentTypeForKey(key: string) {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase()
  return CONTENT_TYPES[extension] ?? 'application/octet-stream'
}
