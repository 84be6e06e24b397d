import { z } from 'zod'
import { oneOf, type ApiTransport } from '../api.server.ts'

// The stored photo (spec §7 medias), as much of it as the web reads.
const mediaSchema = z.object({ id: z.string() })

/** Photos (spec §7 medias): the only code that knows their paths. */
export function mediaClient(api: ApiTransport) {
  return {
    /** Uploads a photo for `target` (for example `experience_cover`). */
    upload: (target: string, file: File) => {
      const form = new FormData()
      form.set('target', target)
      form.set('file', file)
      return api.json('POST', 'v1/medias', oneOf(mediaSchema), { formData: form })
    },
    /** A copy of an activity's cover, for a duplicated activity. */
    duplicateCover: (experienceId: string) =>
      api.json('POST', 'v1/medias/duplicate', oneOf(mediaSchema), { body: { experience_id: experienceId } }),
  }
}
