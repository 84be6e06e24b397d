import { Hono, type HonoRequest } from 'hono'
import { blockRoutes } from './blocks/routes.ts'
import { isDatabaseUnavailable } from './db/database.ts'
import type { User } from './db/schema.ts'
import { chatRoutes } from './chat/routes.ts'
import { experienceRoutes } from './experiences/routes.ts'
import { limitApiBodies } from './http/api-body-limit.ts'
import { refuseControlCharacters } from './http/control-characters.ts'
import { ApiProblem, problems, retryAfterSeconds, unavailable } from './http/errors.ts'
import type { ApiEnv, ApiServices } from './http/context.ts'
import { createApiRoutes } from './http/openapi.ts'
import type { TokenVerifier } from './providers/identity/token-verifier.ts'
import { mediaRoutes } from './media/routes.ts'
import { paymentRoutes } from './payments/routes.ts'
import { feeRoutes } from './fees/routes.ts'
import { staffRoutes } from './staff/routes.ts'
import { impersonationRoutes } from './impersonation/routes.ts'
import { flagRoutes } from './flags/routes.ts'
import { analyticsRoutes } from './analytics/routes.ts'
import { dashboardRoutes } from './dashboards/routes.ts'
import { auditImpersonatedCall, impersonationFor } from './impersonation/service.ts'
import { documentedCall, impersonationRefused, refusedWhileImpersonating } from './policy/impersonation.ts'
import { impersonationHeader } from '#contract/staff.ts'
import { subscriptionRoutes } from './subscriptions/routes.ts'
import { medicareRoutes } from './medicare/routes.ts'
import { PaymentsVendorError } from './providers/payments/provider.ts'
import { notificationRoutes } from './notifications/routes.ts'
import { placeRoutes } from './places/routes.ts'
import { isSuspended } from './policy/permissions.ts'
import { profileRoutes } from './profiles/routes.ts'
import { memberRoutes } from './members/routes.ts'
import { reportRoutes } from './reports/routes.ts'
import { supportRoutes } from './support/routes.ts'
import { surveyRoutes } from './surveys/routes.ts'
import { popupRoutes } from './popups/routes.ts'
import { bannerRoutes } from './banners/routes.ts'
import { moderationRoutes } from './moderation/routes.ts'
import { notificationSettingsRoutes } from './notifications/settings-routes.ts'
import { pushRoutes } from './notifications/push-routes.ts'
import { liftEndedSuspension } from './moderation/service.ts'
import { systemRoutes } from './system/routes.ts'
import { findShellCallerBySubject, findUserBySubject, provisionUser, type ShellFacts } from './users/service.ts'
import { accountRoutes } from './users/account-routes.ts'
import { smsRoutes } from './sms/routes.ts'
import { userRoutes } from './users/routes.ts'
import { verificationRoutes } from './verification/routes.ts'
import { referralRoutes } from './referrals/routes.ts'
import { auditRoutes } from './audit/routes.ts'

/**
 * The product API of spec §7 as a fetch handler: mounted under `/api` in the web server,
 * called in-process by the web app, or served alone by `api/server.ts`.
 */
export function createApiApp(services: ApiServices) {
  const app = new Hono<ApiEnv>().basePath('/api')

  const callerOf = sharedWhileRunning((authorization: string, shell: boolean) => resolveCaller(services, authorization, shell))
  app.use(async (c, next) => {
    c.set('services', services)
    c.set('requestId', c.req.header('x-request-id') ?? crypto.randomUUID())
    const authorization = c.req.header('authorization')
    const resolved = authorization ? await callerOf(authorization, isShellCall(c.req)) : null
    c.set('caller', resolved?.user ?? null)
    c.set('callerShell', resolved?.shell ?? null)
    const impersonating = c.req.header(impersonationHeader)
    if (resolved && impersonating) {
      // Answered as the member within the policy's limits; every change recorded with both ids (decision 078).
      const impersonation = await impersonationFor(services, resolved.user, impersonating)
      const path = c.req.path.replace(/^\/api/, '')
      // Every request under an impersonation, reads and refusals too, is logged with both ids.
      const logged = { requestId: c.var.requestId, impersonationId: impersonation.row.id, actorId: impersonation.actor.id, subjectId: impersonation.subject.id, mode: impersonation.mode, method: c.req.method, path }
      if (refusedWhileImpersonating(impersonation.mode, c.req.method, documentedCall(c))) {
        services.logger.info({ ...logged, status: 403 }, 'Impersonated request')
        // A change attempted and refused is on the record too: who tried what, as whom.
        await auditImpersonatedCall(services.db, impersonation, { method: c.req.method, path, status: 403 }, c.var.requestId)
        throw impersonationRefused()
      }
      c.set('impersonation', impersonation)
      c.set('caller', { ...impersonation.subject, impersonator_id: impersonation.actor.id })
      c.set('callerShell', null)
      await next()
      services.logger.info({ ...logged, status: c.res.status }, 'Impersonated request')
      // The impersonation's own calls (acting, stop) are audited by their service.
      if (!['GET', 'HEAD', 'OPTIONS'].includes(c.req.method) && !path.startsWith('/v1/impersonation')) await auditImpersonatedCall(services.db, impersonation, { method: c.req.method, path, status: c.res.status }, c.var.requestId)
      c.header('cache-control', 'no-store')
      return
    }
    await next()
    c.header('cache-control', c.res.headers.get('cache-control') ?? 'no-store')
  })
  app.use(limitApiBodies())
  // NUL and the other control characters, refused once for every route (decision 066).
  app.use(refuseControlCharacters())

  // Every route is defined with its contract schemas and documented (api/http/openapi.ts).
  const routes = createApiRoutes()
  systemRoutes(routes)
  userRoutes(routes)
  accountRoutes(routes)
  smsRoutes(routes)
  profileRoutes(routes)
  experienceRoutes(routes)
  placeRoutes(routes)
  mediaRoutes(routes)
  reportRoutes(routes)
  verificationRoutes(routes)
  notificationRoutes(routes) // before memberRoutes: `GET /users/notifications` is not `GET /users/{id}`
  memberRoutes(routes)
  blockRoutes(routes)
  chatRoutes(routes)
  supportRoutes(routes)
  moderationRoutes(routes)
  notificationSettingsRoutes(routes)
  pushRoutes(routes)
  surveyRoutes(routes)
  popupRoutes(routes)
  bannerRoutes(routes)
  paymentRoutes(routes)
  feeRoutes(routes)
  staffRoutes(routes)
  impersonationRoutes(routes)
  flagRoutes(routes)
  analyticsRoutes(routes)
  dashboardRoutes(routes)
  subscriptionRoutes(routes)
  medicareRoutes(routes)
  referralRoutes(routes)
  auditRoutes(routes)
  app.route('/', routes)

  app.notFound((c) => c.json(problems.notFound().toJSON(), 404))
  app.onError((error, c) => {
    if (error instanceof ApiProblem) {
      // A body refused unread may still be arriving: the client must not reuse this connection.
      if (error.status === 413) c.header('connection', 'close')
      if (error.retryAfterSeconds !== undefined) c.header('retry-after', String(error.retryAfterSeconds))
      return c.json(error.toJSON(), error.status as 400)
    }
    // Reported, not only logged (decision 083): with the request id, never the body or the query.
    const report = { requestId: c.var.requestId, method: c.req.method, path: c.req.path }
    if (services.reportError) services.reportError(error, report)
    else services.logger.error({ err: error, ...report }, 'API request failed')
    if (isDatabaseUnavailable(error) || error instanceof PaymentsVendorError) {
      // Retry-After tells clients (the web app's reads among them) not to retry at once: this
      // answer already waited out the database's timeouts.
      c.header('retry-after', retryAfterSeconds)
      return c.json(unavailable, 503)
    }
    return c.json({ error: { code: 'internal', message: 'An unknown error occurred. Please try again later.' } }, 500)
  })
  return app
}

export type ApiApp = ReturnType<typeof createApiApp>

// Their home is api/http/context.ts (decision 067); the test harness still names them from here.
export type { ApiEnv, ApiServices }


/**
 * Calls that arrive together with the same token (a page's shell and its own data, asked side by
 * side by the web app) share one lookup of their caller while it runs; nothing is kept after it
 * answers, so a suspension or a sign-out applies to the next call as before (decision 053).
 */
function sharedWhileRunning<T, O>(lookup: (key: string, option: O) => Promise<T>) {
  const running = new Map<string, Promise<T>>()
  return (key: string, option: O) => {
    const pending = running.get(key)
    if (pending) return pending
    const started = lookup(key, option)
    running.set(key, started)
    const forget = () => running.delete(key)
    started.then(forget, forget)
    return started
  }
}

/**
 * Every signed-in page's shell asks `GET v1/users/me?include=badges` (decision 052): its caller
 * lookup reads the header's facts in the same statement (decision 055).
 */
function isShellCall(request: HonoRequest) {
  return request.method === 'GET' && request.path === '/api/v1/users/me' && request.query('include') === 'badges'
}

/**
 * The caller of a call with `authorization`, and, for the shell's call, their `ShellFacts` (null
 * for a member just provisioned: the route reads them itself then).
 */
async function resolveCaller(services: ApiServices, authorization: string, shell: boolean): Promise<{ user: User; shell: ShellFacts | null }> {
  const match = /^Bearer ([\w.~+/-]+=*)$/i.exec(authorization)
  if (!match?.[1]) throw problems.unauthorized()
  let claims: Awaited<ReturnType<TokenVerifier>>
  try {
    claims = await services.verifyToken(match[1])
  } catch {
    throw problems.unauthorized()
  }
  const found = shell ? await findShellCallerBySubject(services.db, claims.sub) : undefined
  let user = found ? found.user : await findUserBySubject(services.db, claims.sub)
  if (!user && services.env.auth === 'auth0') user = await provisionUser(services.db, claims.sub, claims)
  if (!user || user.state === 'deleted') throw problems.unauthorized()
  user = (await liftEndedSuspension(services.db, services.chatMirror, user)).user
  if (isSuspended(user)) throw problems.suspended()
  return { user, shell: found?.shell ?? null }
}
