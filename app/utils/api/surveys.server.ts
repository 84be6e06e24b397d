import {
  surveyAnswerSchema,
  surveyResultsSchema,
  type SurveyAnswer,
  type SurveyInput,
  type SurveyResults,
} from '#contract/surveys.ts'
import type { ApiTransport } from '../api.server.ts'

/** The post-activity survey (spec §7 `v1/users/me/surveys`; decision 046; its popup is `popups.server.ts`): the only code that knows its paths. */
export function surveysClient(api: ApiTransport) {
  return {
    answer: (input: SurveyInput): Promise<SurveyAnswer> =>
      api.json('POST', 'v1/users/me/surveys', surveyAnswerSchema, { body: input }),
    /** The member's own answers for one activity (null fields until answered). */
    mine: (experienceId: string): Promise<SurveyAnswer> =>
      api.json('GET', `v1/users/me/surveys/${encodeURIComponent(experienceId)}`, surveyAnswerSchema),
    /** Ratings and comments of an activity, for its host. */
    results: (experienceId: string): Promise<SurveyResults> =>
      api.json(
        'GET',
        `v1/experiences/${encodeURIComponent(experienceId)}/survey-results`,
        surveyResultsSchema,
      ),
  }
}
