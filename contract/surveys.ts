import { z } from 'zod'
import { memberText, memberTextCodes } from './input-validation.ts'
import { maxSurveyFeedbackLength } from './limits.ts'

/**
 * The post-activity survey (spec §2, §3 "Popup" and "Surveys", §7 `v1/users/me/popups` and
 * `v1/users/me/surveys`, §9 star rating default 5; issue 15 §6; decision 046).
 */

/** The star rating's default (spec §9). */
export const defaultRating = 5
export const ratings = [1, 2, 3, 4, 5] as const

const experienceId = z.uuid({ error: 'experience_id_invalid' })

/** "Did you go?": yes or no. */
export const attendanceSurveySchema = z.object({
  type: z.literal('EXPERIENCE_ATTENDANCE_SURVEY'),
  experience_id: experienceId,
  attended: z.boolean({ error: 'attended_required' }),
})

/** "How was it?": 1 to 5 stars (default 5) and optional words for the host. */
export const postExperienceSurveySchema = z.object({
  type: z.literal('POST_EXPERIENCE_SURVEY'),
  experience_id: experienceId,
  rating: z
    .number({ error: 'rating_invalid' })
    .int('rating_invalid')
    .min(1, 'rating_invalid')
    .max(5, 'rating_invalid')
    .default(defaultRating),
  feedback: memberText(z.string({ error: 'feedback_invalid' }).trim(), memberTextCodes, {
    multiline: true,
  })
    .max(maxSurveyFeedbackLength, 'feedback_too_long')
    .optional(),
})

export const surveyInputSchema = z
  .discriminatedUnion('type', [attendanceSurveySchema, postExperienceSurveySchema], {
    error: 'type_invalid',
  })
  .meta({ id: 'SurveyInput' })
export type SurveyInput = z.input<typeof surveyInputSchema>

/** The member's answers for one activity, as stored. */
export const surveyAnswerSchema = z
  .object({
    experience_id: z.uuid(),
    attended: z.boolean().nullable(),
    rating: z.number().int().nullable(),
    feedback: z.string().nullable(),
  })
  .meta({ id: 'SurveyAnswer' })
export type SurveyAnswer = z.infer<typeof surveyAnswerSchema>

/** `GET v1/experiences/{id}/survey-results`: what the host sees; comments never name their writer. */
export const surveyResultsSchema = z
  .object({
    average_rating: z
      .number()
      .nullable()
      .meta({ description: 'Rounded to one decimal; null before the first rating.' }),
    rating_count: z.number().int(),
    comments: z.array(
      z.object({ rating: z.number().int(), feedback: z.string(), created_at: z.string() }),
    ),
  })
  .meta({ id: 'SurveyResults' })
export type SurveyResults = z.infer<typeof surveyResultsSchema>
