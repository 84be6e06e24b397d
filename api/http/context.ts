import type { DB } from '../db/database.ts'
import type { Env } from '../env.ts'
import type { ReportError } from '../error-reporting.ts'
import type { JobQueue } from '../jobs/queue.ts'
import type { Logger } from '../logger.ts'
import type { PhotoChecker } from '../media/photo-check.ts'
import type { AfterCommit } from '../after-commit.ts'
import type { Mailer } from '../providers/email/mailer.ts'
import type { TokenVerifier } from '../providers/identity/token-verifier.ts'
import type { SmsSender } from '../providers/sms/sender.ts'
import type { Providers } from '../providers.ts'
import type { RealtimeHub } from '../realtime/hub.ts'
import type { ShellFacts } from '../users/service.ts'
import type { Impersonation } from '../impersonation/service.ts'
import type { RequestCaller } from '../policy/permissions.ts'
import type { Analytics } from '../analytics/types.ts'

/**
 * What every API request carries (Hono's `Env`): the services the runtime built and the caller
 * resolved once per request. Beside the HTTP layer, not in api/app.ts, so that the routes and
 * helpers that type their context with it do not import the app that imports them (decision 067).
 */
export interface ApiServices extends Providers, AfterCommit {
  env: Env
  db: DB
  logger: Logger
  /** Mail sent now (the email-change code) or queued (the notice to the old address). */
  mailer: Mailer
  /** Keys the HMAC of one-time codes (api/identity/codes.ts), as the identity provider's. */
  codeSecret: string
  verifyToken: TokenVerifier
  /** The profile-photo check's worker (api/media/photo-check.ts); the process's own when absent. */
  photoChecker?: PhotoChecker
  /** The instance's realtime hub (api/realtime/hub.ts); without it, `GET v1/chat/events` only polls. */
  realtime?: RealtimeHub
  /** The job queue (reminders queued with their activity); what follows a change is recorded with it (`AfterCommit`). */
  jobs?: Pick<JobQueue, 'send'>
  /** Text messages (api/providers/sms/sender.ts); the built-in outbox (or Twilio from env) when absent. */
  sms?: SmsSender
  /** First-party analytics, and the vendor when configured (decision 081); the built-in recorder on `db` when absent. */
  analytics?: Analytics
  /** Error reporting (api/error-reporting.ts): an unexpected error of a request, with its id (decision 083); logged only when absent. */
  reportError?: ReportError
}

export interface ApiEnv {
  Variables: {
    services: ApiServices
    requestId: string
    /** The authenticated member, resolved once per request; null for anonymous calls. */
    caller: RequestCaller | null
    /** Read with the caller when this is the shell's call (decision 055); null otherwise. */
    callerShell: ShellFacts | null
    /**
     * The call is made while a staff member views Circle 55 as a member (decision 078): `caller`
     * is then the member, and this names the staff member and the impersonation; undefined otherwise.
     */
    impersonation?: Impersonation
  }
}
