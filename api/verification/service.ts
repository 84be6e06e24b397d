import { sql, type Selectable } from 'kysely'
import type { Page } from '#contract/common.ts'
import { pageMetadata } from '#contract/common.ts'
import type { Verification, VerificationFile, VerificationRequest } from '#contract/verification.ts'
import type { DB, Trx } from '../db/database.ts'
import type { User, VerificationsTable } from '../db/schema.ts'
import { ApiProblem, problems } from '../http/errors.ts'
import { isUuid } from '../http/params.ts'
import type { Logger } from '../logger.ts'
import { processImage } from '../media/images.ts'
import type { Notify } from '../notifications/service.ts'
import { can, requirePermission, type Caller } from '../policy/permissions.ts'
import type { StripeIdentityEvent, VerificationProvider } from '../providers/verification/provider.ts'
import { VerificationVendorError } from '../providers/verification/provider.ts'
import { latestVerification, verifiedUserIds } from './queries.ts'

/**
 * Identity verification (spec §3, §7, §8; decision 025). A member is `not_verified`,
 * `processing` (one pending request at a time, §8's conflict otherwise) or `verified`. The
 * built-in check keeps two encrypted photos until an admin holding `review:verification`
 * approves or rejects the request; the photos are deleted as soon as it is decided, leaving the
 * outcome, the reviewer and the date. With Stripe Identity, Stripe checks and its webhook decides.
 * Either way the member hears the outcome through `notify` (`verification.decided`).
 */
export { verifiedUserIds }

type Row = Selectable<VerificationsTable>

export interface VerificationDeps {
  db: DB
  verification: VerificationProvider
  notify: Notify
  logger: Logger
  /** PUBLIC_URL: where Stripe sends the member back (configuration, never a Host header). */
  publicUrl: string
  requestId?: string | undefined
}

export interface UploadedPhotos {
  document: Uint8Array | null
  selfie: Uint8Array | null
}

const iso = (date: Date | null) => (date ? date.toISOString() : null)

/** The member's status from their latest request (none: not verified). */
function statusOf(row: Row | undefined, provider: VerificationProvider, redirectUrl: string | null = null): Verification {
  return {
    status: row?.status ?? 'not_verified',
    rejection_reason: row?.status === 'not_verified' ? row.rejection_reason : null,
    provider: provider.name,
    requested_at: row?.status === 'processing' ? iso(row.created_at) : null,
    decided_at: row && row.status !== 'processing' ? iso(row.decided_at) : null,
    redirect_url: redirectUrl,
  }
}

/** `GET v1/verification`: the caller's status. */
export async function getVerification(deps: VerificationDeps, caller: Caller): Promise<Verification> {
  requirePermission(caller, 'request:verification')
  return statusOf(await latestVerification(deps.db, caller!.id), deps.verification)
}

const pending = () =>
  problems.conflict('verification_pending', 'A verification request is already pending. We will tell you when it has been checked.')
const alreadyVerified = () => problems.conflict('already_verified', 'Your identity is already verified.')

const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === '23505'

/**
 * `POST v1/verification/initiate`. Built-in: the two photos are checked and re-encoded like any
 * photo (type by content, size, metadata stripped), encrypted and stored, and the request waits
 * for a reviewer. Stripe: a VerificationSession is created and its page answered as `redirect_url`.
 * A pending request, or a verified member, answers 409 (the unique index settles a race).
 */
export async function initiateVerification(deps: VerificationDeps, caller: User, photos: UploadedPhotos): Promise<Verification> {
  requirePermission(caller, 'request:verification')
  const { db, verification } = deps
  const latest = await latestVerification(db, caller.id)
  if (latest?.status === 'verified') throw alreadyVerified()
  if (latest?.status === 'processing') throw pending()

  if (verification.stripe) {
    let session: { id: string; url: string }
    try {
      session = await verification.stripe.createSession({ userId: caller.id, returnUrl: `${deps.publicUrl}/account/verification` })
    } catch (error) {
      if (!(error instanceof VerificationVendorError)) throw error
      deps.logger.error({ err: error, requestId: deps.requestId }, 'Stripe Identity session not created')
      throw new ApiProblem(503, 'service_unavailable', 'Identity verification is unavailable right now. Please try again later.')
    }
    const row = await insertRequest(db, { user_id: caller.id, provider: 'stripe', provider_ref: session.id })
    return statusOf(row, verification, session.url)
  }

  const missing: Record<string, string[]> = {}
  if (!photos.document?.byteLength) missing.document = ['required']
  if (!photos.selfie?.byteLength) missing.selfie = ['required']
  if (Object.keys(missing).length > 0) throw problems.invalid(missing)
  const [document, selfie] = [await photoFor('document', photos.document!), await photoFor('selfie', photos.selfie!)]

  const keys: string[] = []
  try {
    keys.push(await verification.vault.put(document), await verification.vault.put(selfie))
    const row = await insertRequest(db, { user_id: caller.id, provider: 'builtin', document_key: keys[0]!, selfie_key: keys[1]! })
    return statusOf(row, verification)
  } catch (error) {
    await Promise.all(keys.map((key) => verification.vault.delete(key).catch(() => undefined)))
    throw error
  }
}

/** A photo re-encoded as JPEG without metadata; a problem is reported on its own field (the form shows it there). */
async function photoFor(field: VerificationFile, bytes: Uint8Array) {
  try {
    return (await processImage(bytes, 'verification')).main.bytes
  } catch (error) {
    if (error instanceof ApiProblem && [413, 415, 422].includes(error.status)) throw problems.invalid({ [field]: [error.code] })
    throw error
  }
}

async function insertRequest(db: DB, values: { user_id: string; provider: Row['provider']; provider_ref?: string; document_key?: string; selfie_key?: string }) {
  try {
    return await db.insertInto('verifications').values({ ...values, status: 'processing' }).returningAll().executeTakeFirstOrThrow()
  } catch (error) {
    if (isUniqueViolation(error)) throw pending()
    throw error
  }
}

// Review (admins) ----------------------------------------------------------------------------

/** Reviewers only; anyone else is told there is nothing here (404), as for a private photo. */
function requireReviewer(caller: Caller) {
  if (!caller) throw problems.unauthorized()
  if (!can(caller, 'review:verification')) throw problems.notFound()
}

function requestSelect(db: DB) {
  return db
    .selectFrom('verifications as v')
    .innerJoin('users as u', 'u.id', 'v.user_id')
    .select([
      'v.id',
      'v.status',
      'v.provider',
      'v.created_at',
      'v.decided_at',
      'v.rejection_reason',
      'v.document_key',
      'v.selfie_key',
      'u.id as user_id',
      'u.first_name',
      'u.last_name',
      'u.formatted_name',
      'u.name',
      'u.email',
    ])
}
type RequestRow = Awaited<ReturnType<ReturnType<typeof requestSelect>['executeTakeFirstOrThrow']>>

function serializeRequest(row: RequestRow): VerificationRequest {
  // Reviewers compare the name on the document with the member's full name, not the display name.
  const fullName = [row.first_name?.trim(), row.last_name?.trim()].filter(Boolean).join(' ')
  return {
    id: row.id,
    status: row.status,
    provider: row.provider,
    user: { id: row.user_id, name: fullName || row.formatted_name || row.name || '', email: row.email },
    created_at: row.created_at.toISOString(),
    decided_at: iso(row.decided_at),
    rejection_reason: row.rejection_reason,
    has_files: row.document_key !== null && row.selfie_key !== null,
  }
}

/** Pending requests of the built-in check, oldest first (Stripe's are decided by Stripe). */
export async function listPendingRequests(deps: Pick<VerificationDeps, 'db'>, caller: Caller, page: number, perPage: number): Promise<Page<VerificationRequest>> {
  requireReviewer(caller)
  const base = deps.db.selectFrom('verifications').where('status', '=', 'processing').where('provider', '=', 'builtin')
  const { count } = await base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow()
  const rows = await requestSelect(deps.db)
    .where('v.status', '=', 'processing')
    .where('v.provider', '=', 'builtin')
    .orderBy('v.created_at', 'asc')
    .orderBy('v.id')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute()
  return { data: rows.map(serializeRequest), metadata: pageMetadata(page, perPage, Number(count)) }
}

async function findRequest(db: DB, id: string) {
  if (!isUuid(id)) return undefined
  return requestSelect(db).where('v.id', '=', id).executeTakeFirst()
}

export async function getRequest(deps: Pick<VerificationDeps, 'db'>, caller: Caller, id: string) {
  requireReviewer(caller)
  const row = await findRequest(deps.db, id)
  if (!row) throw problems.notFound('Verification request not found')
  return serializeRequest(row)
}

/** One photo of a pending request, decrypted for a reviewer; 404 once decided (the photos are gone). */
export async function readRequestPhoto(deps: Pick<VerificationDeps, 'db' | 'verification'>, caller: Caller, id: string, file: VerificationFile) {
  requireReviewer(caller)
  const row = await findRequest(deps.db, id)
  const key = file === 'document' ? row?.document_key : row?.selfie_key
  if (!key) throw problems.notFound()
  const bytes = await deps.verification.vault.get(key)
  if (!bytes) throw problems.notFound()
  return bytes
}

export type Decision = { outcome: 'approved' } | { outcome: 'rejected'; reason: string }

/**
 * Approves or rejects a pending request, once: the row is locked, its outcome, reviewer and date
 * recorded with an audit-log entry and the member's notification in one transaction; then the
 * photos are deleted. A decided request answers 409 `verification_decided`.
 */
export async function decideRequest(deps: VerificationDeps, caller: Caller, id: string, decision: Decision) {
  requireReviewer(caller)
  if (!isUuid(id)) throw problems.notFound('Verification request not found')
  const decided = await deps.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('verifications').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
    if (!row) throw problems.notFound('Verification request not found')
    if (row.status !== 'processing' || row.provider !== 'builtin') {
      throw problems.conflict('verification_decided', 'This verification request has already been decided.')
    }
    const updated = await recordDecision(trx, deps.notify, row, decision, caller!.id)
    await trx
      .insertInto('audit_log')
      .values({
        actor_id: caller!.id,
        action: decision.outcome === 'approved' ? 'verification.approve' : 'verification.reject',
        target_type: 'verification',
        target_id: row.id,
        data: JSON.stringify({ user_id: row.user_id, ...(decision.outcome === 'rejected' ? { reason: decision.reason } : {}) }),
        request_id: deps.requestId ?? null,
      })
      .execute()
    return { before: row, after: updated }
  })
  await deletePhotos(deps, decided.before)
  const row = await findRequest(deps.db, id)
  return serializeRequest(row!)
}

/** Sets the outcome (photos forgotten) and queues the member's notification, in `trx`. */
async function recordDecision(trx: Trx, notify: Notify, row: Row, decision: Decision | { outcome: 'canceled' }, reviewerId: string | null) {
  const updated = await trx
    .updateTable('verifications')
    .set({
      status: decision.outcome === 'approved' ? 'verified' : 'not_verified',
      rejection_reason: decision.outcome === 'rejected' ? decision.reason : null,
      reviewed_by: reviewerId,
      reviewed_at: reviewerId ? sql<Date>`now()` : null,
      decided_at: sql<Date>`now()`,
      document_key: null,
      selfie_key: null,
    })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow()
  if (decision.outcome !== 'canceled') {
    await notify(
      { type: 'verification.decided', to: [row.user_id], data: { verification_id: row.id, outcome: decision.outcome } },
      trx,
    )
  }
  return updated
}

async function deletePhotos(deps: Pick<VerificationDeps, 'verification' | 'logger' | 'requestId'>, row: Row) {
  for (const key of [row.document_key, row.selfie_key]) {
    if (!key) continue
    // The row no longer points at it: a failed delete leaves ciphertext nobody can ask for.
    await deps.verification.vault.delete(key).catch((error: unknown) => {
      deps.logger.error({ err: error, requestId: deps.requestId, verificationId: row.id }, 'Verification photo not deleted')
    })
  }
}

/**
 * For the account deletion (the users module calls it when a member deletes their account): a
 * pending built-in request is withdrawn and its photos deleted at once, rather than waiting in
 * the queue for a reviewer. Nobody is notified (there is no one to tell).
 */
export async function forgetVerificationPhotos(deps: Pick<VerificationDeps, 'db' | 'verification' | 'logger' | 'requestId'>, userId: string) {
  const pendingRows = await deps.db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('verifications').selectAll().where('user_id', '=', userId).where('status', '=', 'processing').forUpdate().execute()
    if (rows.length > 0) {
      await trx
        .updateTable('verifications')
        .set({ status: 'not_verified', decided_at: sql<Date>`now()`, document_key: null, selfie_key: null })
        .where('id', 'in', rows.map((row) => row.id))
        .execute()
    }
    return rows
  })
  for (const row of pendingRows) await deletePhotos(deps, row)
  return pendingRows.length
}

// Stripe Identity webhook ----------------------------------------------------------------------

/**
 * A Stripe Identity event, already authenticated by its signature: `verified` approves the
 * session's request, `requires_input` rejects it with Stripe's reason (the member may try again),
 * `canceled` withdraws it. Events about sessions we do not know, or already decided, are ignored
 * (Stripe retries until it gets a 2xx, and may deliver an event twice).
 */
export async function handleStripeEvent(deps: VerificationDeps, event: StripeIdentityEvent) {
  const outcome = stripeOutcome(event)
  if (!outcome) return { handled: false }
  const session = event.data.object
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('verifications')
      .selectAll()
      .where('provider', '=', 'stripe')
      .where('provider_ref', '=', session.id)
      .forUpdate()
      .executeTakeFirst()
    if (!row || row.status !== 'processing') return { handled: false }
    await recordDecision(trx, deps.notify, row, outcome, null)
    await trx
      .insertInto('audit_log')
      .values({
        actor_id: null,
        action: `verification.stripe.${outcome.outcome}`,
        target_type: 'verification',
        target_id: row.id,
        data: JSON.stringify({ user_id: row.user_id, event_id: event.id, session_id: session.id }),
        request_id: deps.requestId ?? null,
      })
      .execute()
    return { handled: true }
  })
}

function stripeOutcome(event: StripeIdentityEvent): Decision | { outcome: 'canceled' } | null {
  switch (event.type) {
    case 'identity.verification_session.verified':
      return { outcome: 'approved' }
    case 'identity.verification_session.requires_input': {
      const error = event.data.object.last_error
      const reason = error?.reason?.trim() || (error?.code ? `Stripe could not verify the document (${error.code}).` : 'Stripe could not verify the document.')
      return { outcome: 'rejected', reason: reason.slice(0, 500) }
    }
    case 'identity.verification_session.canceled':
      return { outcome: 'canceled' }
    default:
      return null
  }
}
