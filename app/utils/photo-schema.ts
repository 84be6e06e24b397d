import { z } from 'zod'
import { maxPhotoBytes } from '#contract/limits.ts'

/**
 * Spec §5 "Profile photo: exactly one face, appropriate content, .jpg, .jpeg or .png, under 15MB".
 * The form's schema (with JavaScript, conform checks it before sending; the server checks it
 * again, and the API checks the photo itself: its content, its faces). Errors are keys in the
 * `photo` namespace; `required` is what a form without a photo says.
 */
export function photoFormSchema(required = 'photo:errors.required') {
  return z.object({
    photo: z
      // An empty file input arrives as nothing (conform drops empty files).
      .instanceof(File, { message: required })
      .refine((file) => file.size > 0, required)
      .refine((file) => file.size <= maxPhotoBytes, 'photo:errors.tooLarge')
      // The declared type, when there is one; the API goes by the bytes.
      .refine((file) => ['', 'image/jpeg', 'image/png'].includes(file.type), 'photo:errors.format'),
  })
}

/** Onboarding's photo form: a missing photo points to "Skip for now". */
export const profilePhotoSchema = photoFormSchema()
