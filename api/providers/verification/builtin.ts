import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { newMediaKeys, type MediaStorage } from '../storage/storage.ts'
import type { PhotoVault } from './provider.ts'

/**
 * The built-in check's photos, encrypted at rest with AES-256-GCM (decision 025): a fresh 96-bit
 * nonce per file, the storage key as associated data (a file copied under another key does not
 * decrypt), stored as `version (1) · nonce (12) · tag (16) · ciphertext` in the media storage
 * (local disk or S3) under `verification/…/<uuid>.bin`. The storage only ever holds ciphertext;
 * the key comes from VERIFICATION_ENCRYPTION_KEY or the secrets table (api/secrets.ts).
 */
const VERSION = 1
const NONCE_BYTES = 12
const TAG_BYTES = 16
const HEADER_BYTES = 1 + NONCE_BYTES + TAG_BYTES

export function encryptPhoto(key: Buffer, storageKey: string, plain: Uint8Array): Uint8Array {
  const nonce = randomBytes(NONCE_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, nonce)
  cipher.setAAD(Buffer.from(storageKey))
  const body = Buffer.concat([cipher.update(plain), cipher.final()])
  return Buffer.concat([Buffer.from([VERSION]), nonce, cipher.getAuthTag(), body])
}

/** The plain bytes, or null when the file is not ours, was altered, or was sealed under another key. */
export function decryptPhoto(key: Buffer, storageKey: string, sealed: Uint8Array): Uint8Array | null {
  if (sealed.byteLength < HEADER_BYTES || sealed[0] !== VERSION) return null
  const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength)
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(1, 1 + NONCE_BYTES))
    decipher.setAAD(Buffer.from(storageKey))
    decipher.setAuthTag(bytes.subarray(1 + NONCE_BYTES, HEADER_BYTES))
    return new Uint8Array(Buffer.concat([decipher.update(bytes.subarray(HEADER_BYTES)), decipher.final()]))
  } catch {
    return null
  }
}

/** `loadKey` is asked once, on first use (it may read the secrets table). */
export function createPhotoVault(storage: MediaStorage, loadKey: () => Promise<Buffer>): PhotoVault {
  let key: Promise<Buffer> | undefined
  const keyOnce = () => {
    key ??= loadKey().catch((error: unknown) => {
      key = undefined
      throw error
    })
    return key
  }
  return {
    async put(bytes) {
      const storageKey = newMediaKeys('verification', 'application/octet-stream').key
      await storage.put(storageKey, encryptPhoto(await keyOnce(), storageKey, bytes), 'application/octet-stream')
      return storageKey
    },
    async get(storageKey) {
      const object = await storage.get(storageKey)
      return object ? decryptPhoto(await keyOnce(), storageKey, object.body) : null
    },
    delete: (storageKey) => storage.delete(storageKey),
  }
}
