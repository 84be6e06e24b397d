import { displayName } from '#contract/display-name.ts'
import type { DB, Trx } from '../db/database.ts'
import type { ImpersonationsTable, User } from '../db/schema.ts'
import { ApiProblem, problems } from '../http/errors.ts'
import { isUuid } from '../http/params.ts'
import type { Notify } from '../notifications/service.ts'
import { impersonationRefused, type ImpersonationMode } from '../policy/impersonation.ts'
import { can, isSuspended, requirePermission, type Caller } from '../policy/permissions.ts'
import { isOn } from '../flags/service.ts'
import type { Selectable } from 'kysely'

/**
 * Viewing Circle 55 as a member (issue 32 §2, decision 078). A staff member with
 * `impersonate:user` starts it from the member's admin page with a reason, having signed in
 * within 15 minutes; never as another team member, themself, a suspended, banned or deleted
 * member, or while already viewing as someone. It lasts 30 minutes, never extended. Each call
 * made under it carries its id (the web's `X-Impersonation` header); the API then answers as the
 * member, within what the policy allows (`api/policy/impersonation.ts`), and records both ids for
 * every change. When it ends (stopped, run out, or the staff member lost the permission) the
 * member is told, in the app and by email, that the team looked at their account, and why.
 */
export const IMPERSONATION_MINUTES = 30
export const FRESH_SIGN_IN_MINUTES = 15
const MINUTE = 60_000

type Row = Selectable<ImpersonationsTable>

/** An impersonation in force for this request: its row, the staff member, and the member. */
export interface Impersonation {
  row: Row
  actor: User
  subject: User
  mode: ImpersonationMode
}

export const modeOf = (row: Pick<Row, 'acting_since'>): ImpersonationMode => (row.acting_since ? 'acting' : 'viewing')

/** `POST v1/admin/users/{id}/impersonation`: starts viewing as the member, audited before it begins. */
export async function startImpersonation(deps: { db: DB; notify: Notify }, caller: User, subjectId: string, reason: string, requestId: string | null) {
  requirePermission(caller, 'impersonate:user')
  if (!isUuid(subjectId)) throw problems.notFound('No such member')
  // The kill switch (decision 079): with the flag off, nobody starts.
  if (!(await isOn(deps.db, caller, 'impersonation', true))) throw problems.conflict('impersonation_off', 'Viewing Circle 55 as a member is turned off.')
  const now = new Date()
  if (!caller.last_sign_in_at || caller.last_sign_in_at.getTime() < now.getTime() - FRESH_SIGN_IN_MINUTES * MINUTE) {
    throw new ApiProblem(403, 'fresh_sign_in_required', 'Sign in again to view Circle 55 as a member.')
  }
  return deps.db.transaction().execute(async (trx) => {
    await endExpired(trx, deps.notify, now, caller.id)
    const subject = await trx.selectFrom('users').selectAll().where('id', '=', subjectId).where('state', '!=', 'deleted').executeTakeFirst()
    if (!subject) throw problems.notFound('No such member')
    if (subject.id === caller.id) throw problems.conflict('impersonation_not_allowed', 'You cannot view Circle 55 as yourself.')
    if (subject.staff_role) throw problems.conflict('impersonation_not_allowed', 'Team members cannot be viewed as.')
    if (isSuspended(subject)) throw problems.conflict('impersonation_not_allowed', 'A suspended or banned member cannot be viewed as.')
    const open = await trx.selectFrom('impersonations').select('id').where('actor_id', '=', caller.id).where('ended_at', 'is', null).executeTakeFirst()
    if (open) throw problems.conflict('already_impersonating', 'Stop viewing as the other member first.')
    // The record comes first (Discourse's order): a start that fails afterwards is still on file.
    await audit(trx, { actor: caller.id, impersonator: null, action: 'impersonation.start', subject: subject.id, data: { reason }, requestId })
    const row = await trx
      .insertInto('impersonations')
      .values({ actor_id: caller.id, subject_id: subject.id, reason, started_at: now, expires_at: new Date(now.getTime() + IMPERSONATION_MINUTES * MINUTE) })
      .returningAll()
      .executeTakeFirstOrThrow()
    return row
  })
}

/**
 * The impersonation a call names (`X-Impersonation`), for its caller (the staff member): in force,
 * or 403 `impersonation_ended` (ended, run out, or the caller may no longer impersonate, which ends it).
 */
export async function impersonationFor(deps: { db: DB; notify: Notify }, caller: User, id: string): Promise<Impersonation> {
  const row = isUuid(id) ? await deps.db.selectFrom('impersonations').selectAll().where('id', '=', id).where('actor_id', '=', caller.id).executeTakeFirst() : undefined
  if (!row || row.ended_at) throw ended()
  const now = new Date()
  if (row.expires_at <= now || !can(caller, 'impersonate:user') || !(await isOn(deps.db, caller, 'impersonation', true))) {
    await deps.db.transaction().execute((trx) => endOne(trx, deps.notify, row.id, row.expires_at <= now ? 'expired' : 'revoked', now, null))
    throw ended()
  }
  const subject = await deps.db.selectFrom('users').selectAll().where('id', '=', row.subject_id).executeTakeFirst()
  if (!subject || subject.state === 'deleted' || isSuspended(subject)) {
    await deps.db.transaction().execute((trx) => endOne(trx, deps.notify, row.id, 'revoked', now, null))
    throw ended()
  }
  return { row, actor: caller, subject, mode: modeOf(row) }
}

const ended = () => new ApiProblem(403, 'impersonation_ended', 'Viewing Circle 55 as this member has ended.')

/** `POST v1/impersonation/acting`: support switches to acting on the member's behalf, for a stated reason (audited). */
export async function startActing(db: DB, impersonation: Impersonation, reason: string, requestId: string | null) {
  requirePermission(impersonation.actor, 'act:as:user')
  if (impersonation.mode === 'acting') return impersonation.row
  return db.transaction().execute(async (trx) => {
    await audit(trx, { actor: impersonation.actor.id, impersonator: null, action: 'impersonation.acting', subject: impersonation.subject.id, data: { reason }, requestId })
    return trx.updateTable('impersonations').set({ acting_since: new Date(), acting_reason: reason }).where('id', '=', impersonation.row.id).returningAll().executeTakeFirstOrThrow()
  })
}

/** `DELETE v1/impersonation`: stops viewing as the member; they are told. */
export async function stopImpersonation(deps: { db: DB; notify: Notify }, impersonation: Impersonation, requestId: string | null) {
  await deps.db.transaction().execute((trx) => endOne(trx, deps.notify, impersonation.row.id, 'stopped', new Date(), requestId))
}

/** The impersonations whose 30 minutes ran out (the caller's own first, before a new start; or all, by the job): ended, and each member told. */
export async function endExpired(trx: Trx, notify: Notify, now = new Date(), actorId?: string) {
  let query = trx.selectFrom('impersonations').select('id').where('ended_at', 'is', null).where('expires_at', '<=', now)
  if (actorId) query = query.where('actor_id', '=', actorId)
  const due = await query.execute()
  for (const { id } of due) await endOne(trx, notify, id, 'expired', now, null)
  return due.length
}

/** Ends one impersonation once (its row locked), audited, and tells the member who looked, when, and why. */
async function endOne(trx: Trx, notify: Notify, id: string, reason: 'stopped' | 'expired' | 'revoked', now: Date, requestId: string | null) {
  const row = await trx.selectFrom('impersonations').selectAll().where('id', '=', id).forUpdate().executeTakeFirstOrThrow()
  if (row.ended_at) return
  await trx.updateTable('impersonations').set({ ended_at: now, end_reason: reason, member_told_at: now }).where('id', '=', id).execute()
  await audit(trx, { actor: row.actor_id, impersonator: null, action: 'impersonation.stop', subject: row.subject_id, data: { end: reason }, requestId })
  const actor = await trx.selectFrom('users').select(['first_name', 'last_name', 'formatted_name', 'name', 'banned', 'is_suspended', 'state']).where('id', '=', row.actor_id).executeTakeFirst()
  await notify(
    {
      type: 'account.viewed',
      to: [row.subject_id],
      data: { impersonation_id: row.id, staff_name: actor ? (displayName(actor) ?? '') : '', started_at: row.started_at.toISOString(), ended_at: now.toISOString(), reason: row.reason, acted: row.acting_since !== null },
    },
    trx,
  )
}

async function audit(trx: Trx, entry: { actor: string; impersonator: string | null; action: string; subject: string; data: Record<string, unknown>; requestId: string | null }) {
  await trx
    .insertInto('audit_log')
    .values({ actor_id: entry.actor, impersonator_id: entry.impersonator, action: entry.action, target_type: 'user', target_id: entry.subject, data: JSON.stringify(entry.data), request_id: entry.requestId })
    .execute()
}

/** A change made while impersonating, recorded as the member's with the staff member beside it. */
export async function auditImpersonatedCall(db: DB, impersonation: Impersonation, call: { method: string; path: string; status: number }, requestId: string | null) {
  await db
    .insertInto('audit_log')
    .values({ actor_id: impersonation.subject.id, impersonator_id: impersonation.actor.id, action: 'impersonation.call', target_type: 'request', target_id: `${call.method} ${call.path}`, data: JSON.stringify({ status: call.status, impersonation_id: impersonation.row.id }), request_id: requestId })
    .execute()
}

/** What the banner says: whom, until when, viewing or acting, and whether the staff member may switch to acting. */
export function impersonationJson(impersonation: Impersonation) {
  return {
    id: impersonation.row.id,
    subject: { id: impersonation.subject.id, display_name: displayName(impersonation.subject) },
    mode: impersonation.mode,
    reason: impersonation.row.reason,
    started_at: impersonation.row.started_at.toISOString(),
    expires_at: impersonation.row.expires_at.toISOString(),
    can_act: can(impersonation.actor, 'act:as:user'),
  }
}

/** A seat saved with the fee's agreement, while impersonating: always refused (the member's own consent). */
export function refuseFeeConsentWhileImpersonating(caller: Caller & { impersonator_id?: string | null }, feeConsent: boolean | undefined) {
  if (caller?.impersonator_id && feeConsent) throw impersonationRefused()
}
