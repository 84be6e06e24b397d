import { mediaSchema, type Media } from '#contract/media.ts'
import { userSchema, type User } from '#contract/users.ts'
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
    /**
     * Puts a photo uploaded with target `avatar` on the member's profile (spec §7
     * `PUT v1/users/me/avatar`, body `file_name`); answers the member.
     */
    setAvatar: (mediaId: string): Promise<User> =>
      api.one('PUT', 'v1/users/me/avatar', userSchema, { body: { file_name: mediaId } }),
    /** Takes the member's profile photo down. */
    removeAvatar: () => api.empty('DELETE', 'v1/users/me/avatar'),
    /** A copy of an activity's cover, for a duplicated activity. */
    duplicateCover: (experienceId: string): Promise<Media> =>
      api.one('POST', 'v1/medias/duplicate', mediaSchema, { body: { experience_id: experienceId } }),
  }
}
