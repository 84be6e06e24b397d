import { randomBytes } from 'node:crypto'
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { MEDIA_URL_PREFIX, assertKey, contentTypeForKey, isValidMediaKey, type MediaStorage } from './storage.ts'

/** Files under `dir`; the content type follows from the key's extension. */
export function createLocalStorage(dir = '.data/media'): MediaStorage {
  const root = path.resolve(dir)

  function fileFor(key: string) {
    assertKey(key)
    const file = path.resolve(root, key)
    // Belt and braces: the key pattern already rules out `..` and absolute paths.
    if (!file.startsWith(root + path.sep))
      throw new Error(`Invalid media key: ${JSON.stringify(key)}`)
    return file
  }

  /** Writes through a hidden temporary file and a rename, so readers never see half a file. */
  async function atomically(file: string, write: (temporary: string) => Promise<void>) {
    await mkdir(path.dirname(file), { recursive: true })
    const temporary = path.join(
      path.dirname(file),
      `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`,
    )
    try {
      await write(temporary)
      await rename(temporary, file)
    } catch (error) {
      await rm(temporary, { force: true })
      throw error
    }
  }

  return {
    async put(key, bytes) {
      const file = fileFor(key)
      await atomically(file, (temporary) => writeFile(temporary, bytes))
    },
    async get(key) {
      if (!isValidMediaKey(key)) return null
      try {
        const body = await readFile(fileFor(key))
        return {
          body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
          contentType: contentTypeForKey(key),
        }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null
        throw error
      }
    },
    async copy(fromKey, toKey) {
      const from = fileFor(fromKey)
      const to = fileFor(toKey)
      await atomically(to, (temporary) => copyFile(from, temporary))
    },
    async delete(key) {
      await rm(fileFor(key), { force: true })
    },
    publicUrl(key) {
      return `${MEDIA_URL_PREFIX}/${key}`
    },
  }
}
