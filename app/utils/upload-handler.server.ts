import {
  data,
  unstable_createMemoryUploadHandler as createMemoryUploadHandler,
  MaxPartSizeExceededError,
  type UploadHandler,
} from '@remix-run/node'

/** More fields than any of our forms has (the activity form sends about 20). */
export const MAX_FORM_FIELDS = 30
/** Per text field: the longest one (a 5,000-character description) is at most 20 KB. */
export const MAX_FIELD_BYTES = 64 * 1024

/**
 * Remix's memory upload handler with limits on the parts as well as on their size (the host
 * already limits the whole body, see docs/decisions/009): files over `maxFileBytes` fail with
 * MaxPartSizeExceededError as before (the form says the photo is too large); more files or
 * fields than a form of ours sends, or a text field over MAX_FIELD_BYTES, answer 413 before
 * they are kept. One handler per request: it counts the parts of that request.
 */
export function createFormUploadHandler(options: { maxFileBytes: number; maxFiles: number }): UploadHandler {
  const files = createMemoryUploadHandler({ maxPartSize: options.maxFileBytes })
  const fields = createMemoryUploadHandler({ maxPartSize: MAX_FIELD_BYTES })
  let fileCount = 0
  let fieldCount = 0
  return async (part) => {
    if (typeof part.filename === 'string') {
      if (++fileCount > options.maxFiles) throw tooLarge()
      return files(part)
    }
    if (++fieldCount > MAX_FORM_FIELDS) throw tooLarge()
    try {
      return await fields(part)
    } catch (error) {
      if (error instanceof MaxPartSizeExceededError) throw tooLarge()
      throw error
    }
  }
}

const tooLarge = () => data(null, { status: 413 })
