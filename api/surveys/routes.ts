import { createRoute } from '@hono/zod-openapi'
import {
  surveyAnswerSchema,
  surveyInputSchema,
  surveyResultsSchema,
} from '#contract/surveys.ts'
import {
  auth,
  errors,
  jsonBody,
  jsonBodyErrors,
  jsonContent,
  pathParams,
  readJson,
  serve,
  type ApiRoutes,
} from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { answerSurvey, ownSurveyAnswer, surveyResults } from './service.ts'

/** The post-activity survey (spec §7 `v1/users/me/surveys`; decision 046); its popup is in `api/popups/`. */
export function surveyRoutes(routes: ApiRoutes) {
  const tags = ['surveys']
  const notAttendee = 'The caller did not attend this activity (code forbidden)'
  const noActivity = 'No such activity, or a canceled one (code not_found)'
  const notEnded = 'The activity has not ended yet (code experience_not_ended)'

  const surveyRoute = createRoute({
    method: 'post',
    path: '/v1/users/me/surveys',
    tags,
    security: auth.required,
    summary:
      'Answers the post-activity survey: `EXPERIENCE_ATTENDANCE_SURVEY` (attended) or `POST_EXPERIENCE_SURVEY` (rating 1–5, default 5; optional feedback, which also records that the member went). Answering again replaces the earlier answer.',
    request: { body: jsonBody(surveyInputSchema) },
    responses: {
      200: jsonContent('The caller’s answers for this activity', surveyAnswerSchema),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        403: notAttendee,
        404: noActivity,
        409: notEnded,
        422: 'type_invalid, experience_id_invalid, attended_required, rating_invalid, feedback_too_long, invalid_characters, direction_characters',
      }),
    },
  })
  serve(routes, surveyRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await answerSurvey(c.var.services.db, caller, await readJson(c, surveyRoute)))
  })

  const ownAnswerRoute = createRoute({
    method: 'get',
    path: '/v1/users/me/surveys/{experience_id}',
    tags,
    security: auth.required,
    summary:
      'The caller’s own answers for one activity (what `POST v1/users/me/surveys` recorded): `attended`, `rating` and `feedback`, each null until answered.',
    request: { params: pathParams('experience_id') },
    responses: {
      200: jsonContent('The caller’s answers for this activity', surveyAnswerSchema),
      ...errors(auth.required, { 403: notAttendee, 404: noActivity }),
    },
  })
  serve(routes, ownAnswerRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await ownSurveyAnswer(c.var.services.db, caller, c.req.param('experience_id')))
  })

  const resultsRoute = createRoute({
    method: 'get',
    path: '/v1/experiences/{id}/survey-results',
    tags,
    security: auth.required,
    summary:
      'The activity’s average rating, number of ratings and comments (without names), for its host and admins.',
    request: { params: pathParams('id') },
    responses: {
      200: jsonContent('Ratings and comments', surveyResultsSchema),
      ...errors(auth.required, {
        403: 'Not the host or an admin (code forbidden)',
        404: 'No such activity (code not_found)',
      }),
    },
  })
  serve(routes, resultsRoute, async (c) => {
    const caller = requireCaller(c)
    return c.json(await surveyResults(c.var.services.db, caller, c.req.param('id')))
  })
}
