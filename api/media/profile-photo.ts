import type { Sharp } from 'sharp'
import { ApiProblem } from '../http/errors.ts'
import type { Region, Size } from './images.ts'
import type { FoundFace, PhotoChecker, PhotoFindings } from './photo-check.ts'

/**
 * Spec §5 "Profile photo: exactly one face, appropriate content" and §8's 422 messages (they
 * must contain "no face", "face(s)" and "content"). Thresholds and crop: decision 024.
 */
export const profilePhotoProblems = {
  noFace: () =>
    new ApiProblem(
      422,
      'no_face',
      'We could not find a face in this photo (no face found). Please choose a clear photo of your face.',
    ),
  multipleFaces: () =>
    new ApiProblem(
      422,
      'multiple_faces',
      'More than one face(s) found in this photo. Please choose a photo of just you.',
    ),
  inappropriate: () =>
    new ApiProblem(422, 'inappropriate_content', "This photo's content is not allowed. Please choose another photo."),
}

/**
 * A face counts when it is at least this share of the largest face's width: someone far behind
 * the member (a passer-by, a face on a poster) does not make it a group photo.
 */
export const COUNTED_FACE_SHARE = 0.4
/** The classifier's Porn and Hentai scores together at or above this refuse the photo. */
export const INAPPROPRIATE_SCORE = 0.7
/** The square's side is this many times the face's larger side (head and shoulders). */
export const CROP_FACE_RATIO = 2.5

/** The one face the photo is of, or the 422 that says why not. */
export function judgeProfilePhoto(findings: PhotoFindings): FoundFace {
  const explicit = (findings.content.Porn ?? 0) + (findings.content.Hentai ?? 0)
  if (explicit >= INAPPROPRIATE_SCORE) throw profilePhotoProblems.inappropriate()
  const largest = Math.max(0, ...findings.faces.map((face) => face.width))
  const counted = findings.faces.filter((face) => face.width >= largest * COUNTED_FACE_SHARE)
  const [face, ...others] = counted
  if (!face) throw profilePhotoProblems.noFace()
  if (others.length > 0) throw profilePhotoProblems.multipleFaces()
  return face
}

/**
 * The largest square of about CROP_FACE_RATIO face sizes centred on the face (moved, not shrunk,
 * to stay inside the photo), in the pixels of the full upright image of `size`.
 */
export function squareAroundFace(face: FoundFace, findings: Pick<PhotoFindings, 'width'>, size: Size): Region {
  const scale = size.width / findings.width
  const centreX = (face.x + face.width / 2) * scale
  const centreY = (face.y + face.height / 2) * scale
  const side = Math.max(1, Math.round(Math.min(size.width, size.height, Math.max(face.width, face.height) * scale * CROP_FACE_RATIO)))
  const clamp = (value: number, max: number) => Math.min(Math.max(0, Math.round(value)), max)
  return {
    left: clamp(centreX - side / 2, size.width - side),
    top: clamp(centreY - side / 2, size.height - side),
    width: side,
    height: side,
  }
}

/** processImage's `inspect` for avatars: refuses with 422 or returns the square to keep. */
export function profilePhotoInspector(checker: PhotoChecker) {
  return async (upright: Sharp, size: Size): Promise<Region> => {
    const findings = await checker.inspect(upright)
    return squareAroundFace(judgeProfilePhoto(findings), findings, size)
  }
}
