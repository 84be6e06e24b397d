import { describe, expect, it } from 'vitest'
import { ApiError } from './api.server.ts'
import { photoProblemFrom } from './photo-upload.server.ts'

/** Spec §8 "Media upload": each refusal of the API becomes its own message next to the photo field. */
describe('photoProblemFrom', () => {
  const refused = (status: number, code: string | null = null) => photoProblemFrom(new ApiError(status, 'refused', code))

  it('413, 415 and the three 422 codes each have their message', () => {
    expect(refused(413, 'too_large')).toEqual({ status: 413, message: 'photo:errors.tooLarge' })
    expect(refused(415, 'invalid_format')).toEqual({ status: 415, message: 'photo:errors.format' })
    expect(refused(422, 'no_face')).toEqual({ status: 422, message: 'photo:errors.noFace' })
    expect(refused(422, 'multiple_faces')).toEqual({ status: 422, message: 'photo:errors.multipleFaces' })
    expect(refused(422, 'inappropriate_content')).toEqual({ status: 422, message: 'photo:errors.content' })
  })

  it('another 422 is a refused photo; a failure of the service asks to try again later', () => {
    expect(refused(422, 'invalid_input')).toEqual({ status: 422, message: 'photo:errors.rejected' })
    expect(refused(500)).toEqual({ status: 503, message: 'photo:errors.unknown' })
    expect(refused(404, 'not_found')).toEqual({ status: 404, message: 'photo:errors.unknown' })
  })

  it('leaves a signed-out member and errors that are not the API’s to the error page', () => {
    expect(() => refused(401)).toThrow(ApiError)
    expect(() => photoProblemFrom(new TypeError('bug'))).toThrow(TypeError)
  })
})
