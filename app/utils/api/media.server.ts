import { mediaSchema, type Media } from '#contract/media.ts'
import type { ApiTransport } from '../api.server.ts'

/** Photos (spec §7 medias): the only code that knows their paths. */
export function mediaClient(api: ApiTransport) {
  return {
    /** Uploads a photo for `target` (for example `experience_cover`). */
    upload: (target: Media['target'], file: File): Promise<Media> => {
      const form = new FormData()
      form.set('target', target)
      form.set('file', file)
      return api.one('POST', 'v1/medias', mediaSchema, { formData: form })
    },
    /** A copy of an activity's cover, for a duplicated activity. */
    duplicateCover: (experienceId: string): Promise<Media> =>
      api.one('POST', 'v1/medias/duplicate', mediaSchema, { body: { experience_id: experienceId } }),
  }
}
