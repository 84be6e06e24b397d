import { sql } from 'kysely'
import type { EmailChange, EmailChangeConfirm, EmailChangeStarted, PendingEmailChange } from '#contract/account.ts'
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import type { Env } from '../env.ts'
import { ApiProblem, problems } from '../http/errors.ts'
import { forgiveHit, type Limit, requireWithinLimit } from '../http/security.ts'
import { accountLimits } from '../identity/accounts.ts'
import { codeTtlMs, composeAccountEmail, createCodes, maxCodeAttempts } from '../identity/codes.ts'
import { requirePermission } from '../policy/permissions.ts'
import type { Mailer } from '../providers/email/mailer.ts'

/**
 * Changing the sign-in email address (issue 13 §4, decision 028): a 6-digit code goes to the new
 * address and the address changes only when the member types it back; the old address is then
 * told. With the built-in identity provider the sign-in address is `users.email`, so the member
 * signs in with the new address from then on, and no longer with the old one. With Auth0 the
 * address lives at Auth0: the change is refused (409) rather than made only here.
 */

export interface EmailChangeDeps {
  env: Pick<Env, 'auth'>
  db: DB
  mailer: Mailer
  codeSecret: string
}

const fifteenMinutes = 15 * 60
/**
 * Per account (the member), on top of the per-address limit shared with the identity
 * provider's codes (`accountLimits.codeSend`, keyed on the new address) and the per-code
 * attempts (5).
 */
export const emailChangeLimits = {
  send: { name: 'email-change-send', max: 5, windowSeconds: fifteenMinutes },
  check: { name: 'email-change-check', max: 10, windowSeconds: fifteenMinutes },
} satisfies Record<string, Limit>

const notSent = () => new ApiProblem(503, 'email_not_sent', 'The email could not be sent. Please try again later.')

function requireBuiltinIdentity(env: EmailChangeDeps['env']) {
  if (env.auth === 'auth0') {
    throw problems.conflict('email_change_unavailable', 'Your sign-in email is kept by the sign-in service (Auth0) and cannot be changed here yet.')
  }
}

/** The member's pending change: the latest code sent for them that is still unused. */
function pendingChange(db: DB, userId: string) {
  return db
    .selectFrom('login_codes')
    .select(['id', 'email'])
    .where('purpose', '=', 'change_email')
    .where('consumed_at', 'is', null)
    .where(sql<string>`payload->>'user_id'`, '=', userId)
    .orderBy('created_at', 'desc')
}

/**
 * `POST v1/users/me/email-change`: sends a code to the new address. An address that already
 * belongs to another account is not revealed (scammers target our members): the answer is the
 * same, no code is sent, and that account's owner is told someone tried (decision 028).
 */
export async function startEmailChange(deps: EmailChangeDeps, caller: User, input: EmailChange): Promise<EmailChangeStarted> {
  requirePermission(caller, 'update:user', { id: caller.id })
  requireBuiltinIdentity(deps.env)
  const { db, mailer } = deps
  const email = input.email
  if (caller.email && caller.email.toLowerCase() === email.toLowerCase()) throw problems.invalid({ email: ['same_email'] })
  await requireWithinLimit(db, emailChangeLimits.send, caller.id, problems.tooManyAttempts)
  await requireWithinLimit(db, accountLimits.codeSend, email.toLowerCase(), problems.tooManyAttempts)
  const started = { email, expires_in_minutes: codeTtlMs / 60_000 }

  const owner = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'locale'])
    .where('email', '=', email)
    .where('state', '<>', 'deleted')
    .executeTakeFirst()
  if (owner) {
    const { sent } = await mailer.sendNow(composeAccountEmail(email, owner.locale ?? 'en', 'emailChangeTaken', { name: owner.first_name ?? '' }))
    if (!sent) throw notSent()
    return started
  }
  // A new request replaces the member's earlier one, whatever address it was for.
  await db
    .updateTable('login_codes')
    .set({ consumed_at: new Date() })
    .where('id', 'in', pendingChange(db, caller.id).clearSelect().select('id'))
    .execute()
  const code = await createCodes(deps).issue(email, 'change_email', { user_id: caller.id })
  const { sent } = await mailer.sendNow(composeAccountEmail(email, caller.locale ?? 'en', 'emailChangeCode', { code, name: caller.first_name ?? '' }))
  if (!sent) throw notSent()
  return started
}

/** `GET v1/users/me/email-change`: the change waiting for its code, or 404 when there is none (or it expired). */
export async function getPendingEmailChange(db: DB, caller: User): Promise<PendingEmailChange> {
  requirePermission(caller, 'update:user', { id: caller.id })
  const pending = await pendingChange(db, caller.id)
    .select('expires_at')
    .where('expires_at', '>', new Date())
    .where('attempts', '<', maxCodeAttempts)
    .executeTakeFirst()
  if (!pending) throw problems.notFound('No email change is waiting for its code.')
  return { email: pending.email, expires_at: pending.expires_at.toISOString() }
}

/**
 * `POST v1/users/me/email-change/confirm`: the code sent to the new address, checked and
 * consumed in one statement (api/identity/codes.ts); then the address changes, codes sent to
 * the old one stop working, and the old address is told. The member's sessions stay.
 */
export async function confirmEmailChange(deps: EmailChangeDeps, caller: User, input: EmailChangeConfirm): Promise<User> {
  requirePermission(caller, 'update:user', { id: caller.id })
  requireBuiltinIdentity(deps.env)
  const { db, mailer } = deps
  await requireWithinLimit(db, emailChangeLimits.check, caller.id, problems.tooManyAttempts)
  const pending = await pendingChange(db, caller.id).executeTakeFirst()
  if (!pending) throw problems.invalid({ code: ['code_expired'] })
  const result = await createCodes(deps).consume(pending.email, input.code, 'change_email')
  if ('error' in result) throw problems.invalid({ code: [result.error === 'expired' ? 'code_expired' : 'code_invalid'] })
  if (result.payload?.user_id !== caller.id) throw problems.invalid({ code: ['code_invalid'] })
  // A try that succeeded does not count against the member.
  await forgiveHit(db, emailChangeLimits.check, caller.id)

  const oldEmail = caller.email
  try {
    return await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('users')
        .set({ email: pending.email, updated_at: new Date() })
        .where('id', '=', caller.id)
        .returningAll()
        .executeTakeFirstOrThrow()
      if (oldEmail) {
        // Codes sent to the old address (sign-in, password reset) stop working with it.
        await trx.deleteFrom('login_codes').where('email', '=', oldEmail).execute()
        // Members are targeted by scammers: the old address hears of the change at once.
        await mailer.send(composeAccountEmail(oldEmail, caller.locale ?? 'en', 'emailChanged', { name: caller.first_name ?? '' }), { transaction: trx })
      }
      await trx
        .insertInto('audit_log')
        .values({ actor_id: caller.id, action: 'user.email_change', target_type: 'user', target_id: caller.id })
        .execute()
      return updated
    })
  } catch (error) {
    // Someone took the address between the code and now (users.email is unique).
    if ((error as { code?: string }).code === '23505') throw problems.conflict('email_taken', 'This email address now belongs to another account.')
    throw error
  }
}
