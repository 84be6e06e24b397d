import { createRoute } from '@hono/zod-openapi'
import { oneOf } from '#contract/common.ts'
import {
  attributionResultSchema,
  attributionSchema,
  inviteFriendResultSchema,
  inviteFriendSchema,
  referralBannerSchema,
  referralSettingsSchema,
  referralSummarySchema,
} from '#contract/referrals.ts'
import type { Context } from 'hono'
import type { ApiEnv } from '../http/context.ts'
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
import { inviteFriend } from './invite-friend.ts'
import {
  recordAttribution,
  recordClick,
  referralBanner,
  referralSummary,
  updateReferralSettings,
} from './service.ts'

/** What the services need from the request's runtime. */
function deps(c: Context<ApiEnv>) {
  const { db, notify, mailer, codeSecret, env } = c.var.services
  return { db, notify, mailer, secret: codeSecret, publicUrl: env.PUBLIC_URL }
}

/** Referrals (issue 33 §1, decision 087): invite links, the referral banner, sign-up attribution, "Invite a friend". */
export function referralRoutes(routes: ApiRoutes) {
  const tags = ['referrals']
  const publicUrl = (c: Context<ApiEnv>) => c.var.services.env.PUBLIC_URL
  // The `referrals` feature flag (decision 087), evaluated for the caller.
  const referralsOff = 'Referrals are off for the caller (the `referrals` flag; code not_found)'

  const summaryRoute = createRoute({
    method: 'get',
    path: '/v1/users/me/referrals',
    tags,
    security: auth.required,
    summary:
      'The caller’s invite link (made on first ask), whether the referral banner names them, how often it was opened, how many joined with it and how many of those came to a first activity (what counts).',
    responses: {
      200: jsonContent('The caller’s invite link and how it went', oneOf(referralSummarySchema)),
      ...errors(auth.required, { 404: referralsOff }),
    },
  })
  serve(routes, summaryRoute, async (c) =>
    c.json({ data: [await referralSummary(c.var.services.db, requireCaller(c), publicUrl(c))] }),
  )

  const settingsRoute = createRoute({
    method: 'put',
    path: '/v1/users/me/referrals',
    tags,
    security: auth.required,
    summary:
      'Whether the referral banner shows the caller’s first name to the people they invite (nothing else of them is ever shown). Answers the summary.',
    request: { body: jsonBody(referralSettingsSchema) },
    responses: {
      200: jsonContent('The caller’s invite link and how it went', oneOf(referralSummarySchema)),
      ...errors(auth.required, { ...jsonBodyErrors, 404: referralsOff, 422: 'show_first_name_invalid' }),
    },
  })
  serve(routes, settingsRoute, async (c) => {
    const caller = requireCaller(c)
    const body = await readJson(c, settingsRoute)
    return c.json({
      data: [await updateReferralSettings(c.var.services.db, caller, body, publicUrl(c))],
    })
  })

  const bannerRoute = createRoute({
    method: 'get',
    path: '/v1/referrals/{code}',
    tags,
    security: auth.optional,
    summary:
      'What the referral banner may say of whoever shared this invite code: their first name if they allowed it, else null (“a friend”). Nothing else of them.',
    request: { params: pathParams('code') },
    responses: {
      200: jsonContent('The banner’s words', oneOf(referralBannerSchema)),
      ...errors(auth.optional, {
        404: 'No such code, its member is no longer here, or referrals are off for them (code not_found)',
      }),
    },
  })
  serve(routes, bannerRoute, async (c) =>
    c.json({ data: [await referralBanner(c.var.services.db, c.var.caller, c.req.param('code'))] }),
  )

  const clickRoute = createRoute({
    method: 'post',
    path: '/v1/referrals/{code}/clicks',
    tags,
    security: auth.optional,
    summary:
      'Counts one opening of the invite link (the web’s `/i/{code}`). Nobody is told: opening it again spams no one.',
    request: { params: pathParams('code') },
    responses: {
      204: { description: 'Counted' },
      ...errors(auth.optional, {
        404: 'No such code, its member is no longer here, or referrals are off for them: not counted (code not_found)',
      }),
    },
  })
  serve(routes, clickRoute, async (c) => {
    await recordClick(c.var.services.db, c.var.caller, c.req.param('code'))
    return c.body(null, 204)
  })

  const attributionRoute = createRoute({
    method: 'post',
    path: '/v1/users/me/attribution',
    tags,
    security: auth.required,
    summary:
      'Sent at each sign-in: the browser’s device id and the internet address are kept as keyed hashes (to tell a referrer’s own second account). Within a day of the account being made, once: the campaign it came from (`utm_*`, cleaned) and the invite it followed (not when referrals are off for its member). `sign_up` says whether this was that once.',
    request: { body: jsonBody(attributionSchema) },
    responses: {
      200: jsonContent('Whether the sign-up was recorded now', oneOf(attributionResultSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        422: 'referral_code_invalid, experience_id_invalid, or a value over 100 characters',
      }),
    },
  })
  serve(routes, attributionRoute, async (c) => {
    const caller = requireCaller(c)
    const body = await readJson(c, attributionRoute)
    return c.json({ data: [await recordAttribution(deps(c), caller, body)] })
  })

  const inviteRoute = createRoute({
    method: 'post',
    path: '/v1/experiences/{id}/invite-friend',
    tags,
    security: auth.required,
    summary:
      'Invite a friend to the activity (its host and whoever holds a seat; at most 20 addresses a day). A member at that address gets an invitation to the activity; anyone else an email inviting them to join Circle 55 and come, in the inviter’s language. Once per address, activity and inviter. The answer is the same whether or not the address belongs to a member (decision 066).',
    request: { params: pathParams('id'), body: jsonBody(inviteFriendSchema) },
    responses: {
      200: jsonContent('The address invited', oneOf(inviteFriendResultSchema)),
      ...errors(auth.required, {
        ...jsonBodyErrors,
        403: 'Neither the host nor holding a seat (code forbidden)',
        404: 'No such activity, or referrals are off for the caller (code not_found)',
        409: 'experience_past; experience_canceled',
        422: 'email_required, email_invalid',
        429: 'More addresses than a member may invite in a day (code too_many_invitations)',
      }),
    },
  })
  serve(routes, inviteRoute, async (c) => {
    const caller = requireCaller(c)
    const body = await readJson(c, inviteRoute)
    return c.json({ data: [await inviteFriend(deps(c), caller, c.req.param('id'), body.email)] })
  })
}
