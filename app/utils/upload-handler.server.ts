import {
  data,
  unstable_createMemoryUploadHandler as createMemoryUploadHandler,
  MaxPartSizeExceededError,
  type UploadHandler,
} from '@remix-run/node'
import { maxPhotoBytes } from '#contract/limits.ts'
import { photosAt } from '#contract/photo-forms.ts'

/** More fields than any of our forms has (the activity form sends about 20). */
export const MAX_FORM_FIELDS = 30
/** Per text field: the longest one (a 5,000-character description) is at most 20 KB. */
export const MAX_FIELD_BYTES = 64 * 1024

/**
 * Remix's memory upload handler with limits on the parts as well as on their size (the host
 * already limits the whole body, see docs/decisions/009): files over `maxFileBytes` fail with
 * MaxPartSizeExceededError, or, given `onFileTooLarge`, are read to their end, left out and
 * reported, so that the rest of the form is still read (the member's text is kept and the form
 * says the photo is too large); more files or fields than a form of ours sends, or a text field
 * over MAX_FIELD_BYTES, answer 413 before they are kept. One handler per request: it counts the
 * parts of that request.
 */
export function createFormUploadHandler(options: { maxFileBytes: number; maxFiles: number; onFileTooLarge?: (field: string) => void }): UploadHandler {
  const files = createMemoryUploadHandler({ maxPartSize: options.maxFileBytes })
  const fields = createMemoryUploadHandler({ maxPartSize: MAX_FIELD_BYTES })
  let fileCount = 0
  let fieldCount = 0
  return async (part) => {
    if (typeof part.filename === 'string') {
      if (++fileCount > options.maxFiles) throw tooLarge()
      if (options.onFileTooLarge) return fileUnlessTooLarge(part, options.maxFileBytes, options.onFileTooLarge)
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

/**
 * The upload handler of a photo form's action: as many photos of up to 15 MB (spec §9) as
 * `contract/photo-forms.ts` lists for the page the form posts to (the list the host's body limit
 * reads too), a larger one left out and reported to `onFileTooLarge`. A page not in the list
 * takes no file: one sent to it answers 413.
 */
export function photoFormUploadHandler(request: Request, onFileTooLarge: (field: string) => void): UploadHandler {
  // Remix hands the action its page's URL, also for a submission with JavaScript (`.data` removed).
  const maxFiles = photosAt(new URL(request.url).pathname)
  return createFormUploadHandler({ maxFileBytes: maxPhotoBytes, maxFiles, onFileTooLarge })
}

const tooLarge = () => data(null, { status: 413 })

async function fileUnlessTooLarge(part: Parameters<UploadHandler>[0], maxBytes: number, onTooLarge: (field: string) => void) {
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of part.data) {
    size += chunk.byteLength
    // Past the limit the rest is read and dropped: the body as a whole is limited by the host.
    if (size <= maxBytes) chunks.push(chunk)
  }
  if (size > maxBytes) {
    onTooLarge(part.name)
    return undefined
  }
  return new File([Buffer.concat(chunks)], part.filename ?? '', { type: part.contentType })
}
