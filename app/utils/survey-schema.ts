import { z } from 'zod'
import { memberText } from '#contract/input-validation.ts'
import { maxSurveyFeedbackLength } from '#contract/limits.ts'
import { defaultRating } from '#contract/surveys.ts'
import { memberTextMessages } from './form-messages.ts'

const e = (key: string) => `survey:errors.${key}`

/**
 * "Did you go to …?" (the banner, decision 046): yes, no, or "not now". A hidden field would do for
 * most forms, but here each answer is its own button, named `intent`.
 */
export const attendanceIntents = ['attended', 'not-attended', 'dismiss'] as const

/** "How was it?": the rating form, shared by the browser (conform) and the action. Messages are translation keys. */
export const ratingFormSchema = z.object({
  rating: z.coerce
    .number({ error: e('rating_invalid') })
    .int(e('rating_invalid'))
    .min(1, e('rating_invalid'))
    .max(5, e('rating_invalid'))
    .default(defaultRating),
  feedback: memberText(z.string().trim(), memberTextMessages, { multiline: true })
    .max(maxSurveyFeedbackLength, e('feedback_too_long'))
    .optional(),
})
