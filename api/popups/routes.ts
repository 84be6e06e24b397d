import { createRoute } from '@hono/zod-openapi'
import { dismissPopupSchema, popupListSchema, popupsFreshSeconds, popupsKeptSeconds } from '#contract/popups.ts'
import { auth, errors, jsonBody, jsonBodyErrors, jsonContent, readJson, serve, type ApiRoutes } from '../http/openapi.ts'
import { requireCaller } from '../http/request.ts'
import { dismissPopup, listPopups } from './service.ts'

/** Popups (spec §7 `v1/users/me/popups`, §9; decision 046, 084): "Did you go?" and banners where the member lives. */
export function popupRoutes(routes: ApiRoutes) {
  const tags = ['popups']

  const listRoute = createRoute({
    method: 'get',
    path: '/v1/users/me/popups',
    tags,
    security: auth.required,
    summary:
      'The caller’s open popups: `EXPERIENCE_ATTENDANCE` for each activity they attended that ended in the last 14 days and that they have neither answered nor dismissed (most recent first), then `BANNER` for the banners showing where they live that they have not put away. A client may keep the answer 5 minutes and use it for 10 (spec §9; `Cache-Control: private`).',
    responses: {
      200: jsonContent('Open popups', popupListSchema),
      ...errors(auth.required),
    },
  })
  serve(routes, listRoute, async (c) => {
    const caller = requireCaller(c)
    const data = await listPopups(c.var.services, caller)
    c.header('Cache-Control', `private, max-age=${popupsFreshSeconds}, stale-while-revalidate=${popupsKeptSeconds - popupsFreshSeconds}`)
    return c.json({ data })
  })

  const dismissRoute = createRoute({
    method: 'put',
    path: '/v1/users/me/popups',
    tags,
    security: auth.required,
    summary:
      'Puts a popup away; answers 204. `EXPERIENCE_ATTENDANCE` ("not now") for good; `BANNER` until the banner changes or, when it says so, for its `dismiss_days`. Idempotent.',
    request: { body: jsonBody(dismissPopupSchema) },
    responses: {
      204: { description: 'Dismissed' },
      ...errors(auth.required, {
        ...jsonBodyErrors,
        403: 'The caller did not attend this activity (code forbidden)',
        404: 'No such activity (or a canceled one), or no such banner (code not_found)',
        409: 'The activity has not ended yet (code experience_not_ended)',
        422: 'type_invalid, experience_id_invalid, banner_id_invalid',
      }),
    },
  })
  serve(routes, dismissRoute, async (c) => {
    const caller = requireCaller(c)
    await dismissPopup(c.var.services, caller, await readJson(c, dismissRoute))
    return c.body(null, 204)
  })
}
