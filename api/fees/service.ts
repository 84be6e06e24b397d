import { sql, type Selectable } from 'kysely'
import { feeChargeDelayHours, feeNoticeDelayHours, feeUnpaidWaiverDays, type NoShowFee } from '#contract/fees.ts'
import type { DB, Trx } from '../db/database.ts'
import type { CardBrand, NoShowFeesTable, NoShowFeeWaiver, User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { requireUnderHourlyCap } from '../http/security.ts'
import { isUuid } from '../http/params.ts'
import type { Logger } from '../logger.ts'
import type { Notify } from '../notifications/service.ts'
import { requirePermission, type Caller } from '../policy/permissions.ts'
import { displayName } from '#contract/display-name.ts'
import { centsToFee, getExperience, hasStarted } from '../experiences/service.ts'
import { customerRef, usableDefaultCard } from '../payments/queries.ts'
import { customerOf } from '../payments/service.ts'
import { PaymentsVendorError, type PaymentsProvider } from '../providers/payments/provider.ts'
import { settleReferral } from '../referrals/service.ts'

/**
 * The no-show fee's life (issue 31 §3, decision 075), each step once however often it runs:
 * 1. after the activity, its host says who came (`markAttendance`);
 * 2. a day later the fees are worked out (`assessFees`): only seats bound by the member's
 *    agreement, never when the host changed the time or place after it, the member was marked
 *    present, the seat was filled again, or (a late cancellation) it is their first in 12 months;
 *    the member is told "You will be charged $X on <date> — tell us if this is wrong";
 * 3. two days later, unless disputed, the card is charged off-session with the key
 *    `noshow:<fee id>` (`chargeDueFees`); a bank that wants the member to confirm, or refuses,
 *    is never retried by itself, and after 14 days the fee is dropped (`waiveUnpaidFees`);
 * 4. a disputed fee waits for the team (`/admin/payments`), who charge or waive it, audited;
 * 5. a fee the bank would not take off-session the member may pay themselves on the provider's
 *    hosted page ("Pay now", `startFeePayment`), applied once from their return or the webhook
 *    (`settleFeeCheckout`); the team may give back a charged fee (`refundFee`), audited.
 */
/** Card brands are their own names in every language (“Card” for one without a logo). */
const brandNames: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover', unknown: 'Card' }

const cardLabel = (card: { brand: CardBrand; last4: string }) => `${brandNames[card.brand]} •••• ${card.last4}`
/** On the member's statement and receipt (the provider's, in English as the card networks show it). */
const feeDescription = (title: string) => `Circle 55 no-show fee: ${title}`
/** A fee the bank would not take off-session: the member may pay it themselves. */
const payableStatuses = ['needs_confirmation', 'declined'] as const
/** How many payment pages a member may open for one fee in an hour (each is a session at the provider). */
const FEE_CHECKOUTS_PER_HOUR = 10

const HOUR = 3_600_000
const DAY = 24 * HOUR

type FeeRow = Selectable<NoShowFeesTable>

export interface FeeDeps {
  db: DB
  notify: Notify
  payments: PaymentsProvider
  logger: Logger
}

// 1. The host's attendance ----------------------------------------------------------------------

/** `GET v1/experiences/{id}/attendance`: who held a seat, whether the seat is bound by the fee, and the host's marks. */
export async function attendanceSheet(db: DB, caller: Caller, idOrSlug: string) {
  const experience = await getExperience(db, idOrSlug)
  requirePermission(caller, 'mark:attendance', experience)
  const rows = await db
    .selectFrom('experience_attendees as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .leftJoin('attendance_marks as m', (join) => join.onRef('m.experience_id', '=', 'a.experience_id').onRef('m.user_id', '=', 'a.user_id'))
    .select(['a.user_id', 'u.first_name', 'u.last_name', 'u.formatted_name', 'u.name', 'u.state', 'u.banned', 'u.is_suspended', 'm.present', 'a.fee_consent_id'])
    .where('a.experience_id', '=', experience.id)
    .orderBy('u.first_name')
    .execute()
  return {
    experience,
    open: hasStarted(experience, Date.now()) && !experience.canceled_at && experience.fees_assessed_at === null,
    confirmed_at: experience.attendance_confirmed_at,
    attendees: rows.map((row) => ({
      user_id: row.user_id,
      // As members are named everywhere; null for the generic member label (suspended, deleted).
      display_name: row.state === 'deleted' ? null : displayName(row),
      present: row.present,
      fee_bound: row.fee_consent_id !== null,
    })),
  }
}

/**
 * `POST v1/experiences/{id}/attendance`: the host says who came, once the activity has begun and
 * until its fees are worked out (a day after the first confirmation). Members not in the list keep
 * their mark (or none: nobody is charged for a seat the host did not mark).
 */
export async function markAttendance(db: DB, caller: User, idOrSlug: string, marks: Array<{ user_id: string; present: boolean }>, notify: Notify) {
  const experience = await getExperience(db, idOrSlug)
  requirePermission(caller, 'mark:attendance', experience)
  if (experience.canceled_at || !hasStarted(experience, Date.now()) || experience.fees_assessed_at) {
    throw problems.conflict('attendance_not_open', 'Who came can be said once the activity has begun, and until its fees are worked out.')
  }
  await db.transaction().execute(async (trx) => {
    const seated = new Set(
      (await trx.selectFrom('experience_attendees').select('user_id').where('experience_id', '=', experience.id).execute()).map((row) => row.user_id),
    )
    const unknown = marks.filter((mark) => !seated.has(mark.user_id))
    if (unknown.length > 0) throw problems.invalid({ marks: ['not_attending'] })
    for (const mark of marks) {
      await trx
        .insertInto('attendance_marks')
        .values({ experience_id: experience.id, user_id: mark.user_id, present: mark.present, marked_by: caller.id })
        .onConflict((conflict) => conflict.columns(['experience_id', 'user_id']).doUpdateSet({ present: mark.present, marked_by: caller.id, marked_at: new Date() }))
        .execute()
      // A friend who joined with someone's invite link counts once they come (decision 087).
      if (mark.present) await settleReferral({ db: trx, flags: db, notify }, { kind: 'attended', memberId: mark.user_id, experienceId: experience.id })
    }
    await trx.updateTable('experiences').set({ attendance_confirmed_at: new Date() }).where('id', '=', experience.id).where('attendance_confirmed_at', 'is', null).execute()
  })
  return attendanceSheet(db, caller, experience.id)
}

// 2. Working out the fees -----------------------------------------------------------------------

/** The activities whose host confirmed who came a day ago, their fees not worked out yet: each worked out once. */
export async function assessFees(deps: Pick<FeeDeps, 'db' | 'notify'>, now = new Date()) {
  const due = await deps.db
    .selectFrom('experiences')
    .select('id')
    .where('attendance_confirmed_at', '<=', new Date(now.getTime() - feeNoticeDelayHours * HOUR))
    .where('fees_assessed_at', 'is', null)
    .where('canceled_at', 'is', null)
    .execute()
  let created = 0
  for (const { id } of due) created += await assessActivity(deps, id, now)
  return created
}

async function assessActivity({ db, notify }: Pick<FeeDeps, 'db' | 'notify'>, experienceId: string, now: Date) {
  return db.transaction().execute(async (trx) => {
    // The activity's row lock: a second run waits here, then finds it worked out.
    const experience = await trx.selectFrom('experiences').selectAll().where('id', '=', experienceId).forUpdate().executeTakeFirstOrThrow()
    if (experience.fees_assessed_at) return 0
    await trx.updateTable('experiences').set({ fees_assessed_at: now }).where('id', '=', experienceId).execute()
    if (experience.no_show_fee_cents === null) return 0
    const noShows = await trx
      .selectFrom('attendance_marks as m')
      .innerJoin('experience_attendees as a', (join) => join.onRef('a.experience_id', '=', 'm.experience_id').onRef('a.user_id', '=', 'm.user_id'))
      .select(['m.user_id', 'a.fee_consent_id as consent_id'])
      .where('m.experience_id', '=', experienceId)
      .where('m.present', '=', false)
      .where('a.fee_consent_id', 'is not', null)
      .execute()
    const lateCancels = await trx
      .selectFrom('attendance_cancellations')
      .select(['user_id', 'fee_consent_id as consent_id'])
      .where('experience_id', '=', experienceId)
      .where('is_late', '=', true)
      .where('fee_consent_id', 'is not', null)
      .execute()
    // A seat given back late and filled again cost nobody a place: no fee (decision 075).
    const seatsFilled = experience.max_attendees !== null && experience.attendees_count >= experience.max_attendees
    let created = 0
    const candidates = [
      ...noShows.map((row) => ({ ...row, reason: 'no_show' as const })),
      ...(seatsFilled ? [] : lateCancels.map((row) => ({ ...row, reason: 'late_cancel' as const }))),
    ]
    for (const candidate of candidates) {
      const consent = await trx.selectFrom('fee_consents').selectAll().where('id', '=', candidate.consent_id!).executeTakeFirstOrThrow()
      // Saved before the host changed the time or the place: not what the member agreed to.
      if (experience.schedule_changed_at && experience.schedule_changed_at > consent.created_at) continue
      const waiver: NoShowFeeWaiver | null = candidate.reason === 'late_cancel' && !(await lateCancelledWithin12Months(trx, candidate.user_id, now)) ? 'first_in_12_months' : null
      const inserted = await trx
        .insertInto('no_show_fees')
        .values({
          user_id: candidate.user_id,
          experience_id: experienceId,
          consent_id: consent.id,
          reason: candidate.reason,
          amount_cents: consent.amount_cents,
          status: waiver ? 'waived' : 'noticed',
          charge_on: new Date(now.getTime() + feeChargeDelayHours * HOUR),
          noticed_at: now,
          waiver,
          waived_at: waiver ? now : null,
        })
        .onConflict((conflict) => conflict.columns(['user_id', 'experience_id']).doNothing())
        .returningAll()
        .executeTakeFirst()
      if (!inserted) continue
      created += 1
      await notify({ type: 'fee.updated', to: [candidate.user_id], data: feeEventData(inserted, experience.title, waiver ? 'waived' : 'notice') }, trx)
    }
    return created
  })
}

/** Whether the member already had a late cancellation counted (charged, noticed or forgiven) in the 12 months before `now`. */
async function lateCancelledWithin12Months(trx: Trx, userId: string, now: Date) {
  const earlier = await trx
    .selectFrom('no_show_fees')
    .select('id')
    .where('user_id', '=', userId)
    .where('reason', '=', 'late_cancel')
    .where('created_at', '>', new Date(now.getTime() - 365 * DAY))
    .executeTakeFirst()
  return earlier !== undefined
}

function feeEventData(fee: Pick<FeeRow, 'id' | 'amount_cents' | 'charge_on' | 'reason' | 'waiver'>, title: string, step: FeeStep) {
  return { fee_id: fee.id, step, amount_cents: fee.amount_cents, charge_on: fee.charge_on.toISOString(), reason: fee.reason, waiver: fee.waiver, title }
}

export type FeeStep = 'notice' | 'charged' | 'needs_confirmation' | 'declined' | 'waived' | 'refunded'

// 3. Charging ---------------------------------------------------------------------------------

/**
 * Charges the fees whose notice has run out, one at a time: the fee's row stays locked while the
 * provider answers, so two runs never charge it twice, and a run that dies mid-charge leaves it to
 * the next, which asks again with the same idempotency key and is answered the first outcome.
 */
export async function chargeDueFees(deps: FeeDeps, now = new Date()) {
  let charged = 0
  for (;;) {
    const done = await deps.db.transaction().execute(async (trx) => {
      const fee = await trx
        .selectFrom('no_show_fees')
        .selectAll()
        .where('status', '=', 'noticed')
        .where('charge_on', '<=', now)
        .orderBy('charge_on')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst()
      if (!fee) return null
      await chargeOne(trx, deps, fee)
      return fee
    })
    if (!done) return charged
    charged += 1
  }
}

async function chargeOne(trx: Trx, deps: FeeDeps, fee: FeeRow) {
  const experience = await trx.selectFrom('experiences').select(['title']).where('id', '=', fee.experience_id).executeTakeFirstOrThrow()
  const card = await feeCard(trx, fee)
  const customer = await customerRef(trx, fee.user_id, deps.payments.name)
  const outcome =
    card && customer
      ? await deps.payments.chargeOffSession({
          customer,
          cardRef: card.provider_ref,
          amountCents: fee.amount_cents,
          idempotencyKey: `noshow:${fee.id}`,
          description: feeDescription(experience.title),
          metadata: { fee_id: fee.id, user_id: fee.user_id, experience_id: fee.experience_id },
        })
      : ({ status: 'declined', ref: null, code: 'no_card' } as const)
  const step: FeeStep = outcome.status === 'succeeded' ? 'charged' : outcome.status === 'requires_authentication' ? 'needs_confirmation' : 'declined'
  const updated = await trx
    .updateTable('no_show_fees')
    .set({
      status: step,
      provider_ref: outcome.ref,
      charged_at: outcome.status === 'succeeded' ? new Date() : null,
      charged_brand: outcome.status === 'succeeded' ? (card?.brand ?? null) : null,
      charged_last4: outcome.status === 'succeeded' ? (card?.last4 ?? null) : null,
      decline_code: outcome.status === 'declined' ? outcome.code : null,
    })
    .where('id', '=', fee.id)
    .returningAll()
    .executeTakeFirstOrThrow()
  await deps.notify({ type: 'fee.updated', to: [fee.user_id], data: { ...feeEventData(updated, experience.title, step), card: card ? cardLabel(card) : null } }, trx)
}

/** The card the member agreed with, while it is still theirs and usable; else their default card now. */
async function feeCard(trx: Trx, fee: FeeRow) {
  const agreed = await trx
    .selectFrom('fee_consents as c')
    .innerJoin('payment_methods as p', 'p.id', 'c.payment_method_id')
    .select(['p.id', 'p.brand', 'p.last4', 'p.exp_month', 'p.exp_year', 'p.provider', 'p.provider_ref', 'p.removed_at'])
    .where('c.id', '=', fee.consent_id)
    .executeTakeFirst()
  if (agreed && !agreed.removed_at) {
    const usable = await usableDefaultCard(trx, fee.user_id)
    if (usable?.id === agreed.id) return usable
  }
  return usableDefaultCard(trx, fee.user_id)
}

/** Fees the bank would not take, and the member did not pay, for 14 days: dropped, and the member told. */
export async function waiveUnpaidFees(deps: Pick<FeeDeps, 'db' | 'notify'>, now = new Date()) {
  return deps.db.transaction().execute(async (trx) => {
    const stale = await trx
      .updateTable('no_show_fees')
      .set({ status: 'waived', waiver: 'unpaid_14_days', waived_at: now })
      .where('status', 'in', ['needs_confirmation', 'declined'])
      .where('charge_on', '<', new Date(now.getTime() - feeUnpaidWaiverDays * DAY))
      .returningAll()
      .execute()
    for (const fee of stale) {
      const { title } = await trx.selectFrom('experiences').select('title').where('id', '=', fee.experience_id).executeTakeFirstOrThrow()
      await deps.notify({ type: 'fee.updated', to: [fee.user_id], data: feeEventData(fee, title, 'waived') }, trx)
    }
    return stale.length
  })
}

// 4. The member's fees, disputes, and the team ---------------------------------------------------

function feeJson(row: FeeRow & { title: string; start_at: Date | null; brand: CardBrand | null; last4: string | null }, now = new Date()): NoShowFee {
  return {
    id: row.id,
    experience: { id: row.experience_id, title: row.title, start_date: row.start_at?.toISOString() ?? null },
    reason: row.reason,
    amount: centsToFee(row.amount_cents)!,
    status: row.status,
    charge_on: row.charge_on.toISOString(),
    charged_at: row.charged_at?.toISOString() ?? null,
    waiver: row.waiver,
    // The card it was paid with; before that, the one the member agreed with.
    card: row.charged_brand && row.charged_last4 ? { brand: row.charged_brand, last4: row.charged_last4 } : row.brand && row.last4 ? { brand: row.brand, last4: row.last4 } : null,
    can_dispute: row.status === 'noticed' && row.charge_on > now,
    can_pay: isPayable(row.status),
    refunded_at: row.refunded_at?.toISOString() ?? null,
  }
}

const feesWithActivity = (db: DB) =>
  db
    .selectFrom('no_show_fees as f')
    .innerJoin('experiences as e', 'e.id', 'f.experience_id')
    .innerJoin('fee_consents as c', 'c.id', 'f.consent_id')
    .leftJoin('payment_methods as p', 'p.id', 'c.payment_method_id')
    .selectAll('f')
    .select(['e.title', 'e.start_at', 'p.brand', 'p.last4'])

/**
 * `GET v1/fees`: the caller's fees, the newest first. A payment page they opened for a fee still
 * to pay is asked of the provider first (they may be just back from it).
 */
export async function listOwnFees(deps: FeeDeps, caller: Caller) {
  requirePermission(caller, 'read:fees')
  await settleOpenCheckouts(deps, caller!.id)
  const rows = await feesWithActivity(deps.db).where('f.user_id', '=', caller!.id).orderBy('f.created_at', 'desc').execute()
  return rows.map((row) => feeJson(row))
}

/** `POST v1/fees/{id}/dispute`: "tell us if this is wrong", before the charge; the team looks at it first. */
export async function disputeFee(db: DB, caller: Caller, id: string, reason: string | undefined) {
  requirePermission(caller, 'read:fees')
  const fee = isUuid(id) ? await db.selectFrom('no_show_fees').selectAll().where('id', '=', id).where('user_id', '=', caller!.id).executeTakeFirst() : undefined
  if (!fee) throw problems.notFound('No such fee')
  const disputed = await db
    .updateTable('no_show_fees')
    .set({ status: 'disputed', dispute_text: reason?.trim() || null, disputed_at: new Date() })
    .where('id', '=', fee.id)
    .where('status', '=', 'noticed')
    .where('charge_on', '>', new Date())
    .returning('id')
    .executeTakeFirst()
  if (!disputed) throw problems.conflict('fee_closed', 'This fee can no longer be disputed here. Please write to us.')
  return feeJson(await feesWithActivity(db).where('f.id', '=', fee.id).executeTakeFirstOrThrow())
}

/** `GET v1/admin/fees`: every fee for the team, the disputed ones first. */
export async function listFeesForTeam(db: DB, caller: Caller) {
  requirePermission(caller, 'review:fees')
  const rows = await feesWithActivity(db)
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select(['u.first_name', 'u.last_name', 'u.email', 'f.dispute_text', 'f.refund_note'])
    .orderBy(sql`f.status = 'disputed'`, 'desc')
    .orderBy('f.created_at', 'desc')
    .limit(200)
    .execute()
  return rows.map((row) => ({
    ...feeJson(row),
    member: { id: row.user_id, name: [row.first_name, row.last_name].filter(Boolean).join(' '), email: row.email },
    dispute_text: row.dispute_text,
    refund_note: row.refund_note,
  }))
}

/** The team's decision on a fee, audited: `waive` (with the reason) any fee not charged, or `charge` a disputed one now. */
export async function decideFee(db: DB, notify: Notify, caller: User, id: string, decision: { action: 'waive'; reason: string } | { action: 'charge' }, requestId: string | null) {
  requirePermission(caller, 'review:fees')
  return db.transaction().execute(async (trx) => {
    const fee = isUuid(id) ? await trx.selectFrom('no_show_fees').selectAll().where('id', '=', id).forUpdate().executeTakeFirst() : undefined
    if (!fee) throw problems.notFound('No such fee')
    const now = new Date()
    let updated: FeeRow | undefined
    if (decision.action === 'waive') {
      if (!['noticed', 'disputed', 'needs_confirmation', 'declined'].includes(fee.status)) throw problems.conflict('fee_closed', 'This fee is already charged, refunded or waived.')
      updated = await trx
        .updateTable('no_show_fees')
        .set({ status: 'waived', waiver: 'admin', waiver_note: decision.reason, waived_by: caller.id, waived_at: now })
        .where('id', '=', fee.id)
        .returningAll()
        .executeTakeFirstOrThrow()
      const { title } = await trx.selectFrom('experiences').select('title').where('id', '=', fee.experience_id).executeTakeFirstOrThrow()
      await notify({ type: 'fee.updated', to: [fee.user_id], data: feeEventData(updated, title, 'waived') }, trx)
    } else {
      if (fee.status !== 'disputed') throw problems.conflict('fee_closed', 'Only a disputed fee waits for the team.')
      updated = await trx.updateTable('no_show_fees').set({ status: 'noticed', charge_on: now }).where('id', '=', fee.id).returningAll().executeTakeFirstOrThrow()
    }
    await trx
      .insertInto('audit_log')
      .values({
        actor_id: caller.id,
        action: `fee.${decision.action}`,
        target_type: 'no_show_fee',
        target_id: fee.id,
        data: JSON.stringify(decision.action === 'waive' ? { reason: decision.reason } : {}),
        request_id: requestId,
      })
      .execute()
    return updated
  })
}

// 5. Paying on-session, and refunds -------------------------------------------------------------

function isPayable(status: FeeRow['status']): status is (typeof payableStatuses)[number] {
  return (payableStatuses as readonly string[]).includes(status)
}

/**
 * `POST v1/fees/{id}/pay`: a fee the bank wanted the member to confirm, or declined, paid by the
 * member themselves on the provider's hosted page (3-D Secure happens there). They come back to
 * `/account/fees?paid={id}`; their return or the webhook applies it, once.
 */
export async function startFeePayment(deps: FeeDeps & { publicUrl: string }, caller: Caller, id: string) {
  requirePermission(caller, 'pay:fees')
  const member = caller as User
  const fee = isUuid(id) ? await deps.db.selectFrom('no_show_fees').selectAll().where('id', '=', id).where('user_id', '=', member.id).executeTakeFirst() : undefined
  if (!fee) throw problems.notFound('No such fee')
  if (!isPayable(fee.status)) throw problems.conflict('fee_not_payable', 'This fee has nothing left to pay.')
  await requireUnderHourlyCap(deps.db, { table: 'fee_checkouts', by: 'fee_id', max: FEE_CHECKOUTS_PER_HOUR }, fee.id)
  const { title } = await deps.db.selectFrom('experiences').select('title').where('id', '=', fee.experience_id).executeTakeFirstOrThrow()
  const checkout = await deps.payments.startPaymentCheckout({
    customer: await customerOf(deps, member),
    userId: member.id,
    amountCents: fee.amount_cents,
    description: feeDescription(title),
    successUrl: `${deps.publicUrl}/account/fees?paid=${fee.id}`,
    cancelUrl: `${deps.publicUrl}/account/fees`,
    locale: member.locale ?? 'en',
    metadata: { fee_id: fee.id, experience_id: fee.experience_id },
  })
  await deps.db.insertInto('fee_checkouts').values({ ref: checkout.ref, fee_id: fee.id }).execute()
  return { redirect_url: checkout.url }
}

/**
 * The payment pages a member opened in the last day and not settled, asked of the provider (one
 * paid after its fee was dropped is given back); a provider that cannot answer is asked next time.
 */
async function settleOpenCheckouts(deps: FeeDeps, userId: string) {
  const open = await deps.db
    .selectFrom('fee_checkouts as k')
    .innerJoin('no_show_fees as f', 'f.id', 'k.fee_id')
    .select('k.ref')
    .where('f.user_id', '=', userId)
    .where('k.payment_ref', 'is', null)
    .where('k.created_at', '>', new Date(Date.now() - DAY))
    .execute()
  for (const { ref } of open) {
    await settleFeeCheckout(deps, ref).catch((error: unknown) => {
      if (!(error instanceof PaymentsVendorError)) throw error
      deps.logger.warn({ err: error, checkoutRef: ref }, 'A fee’s payment page could not be read from the payments provider')
    })
  }
}

/**
 * A fee's payment page the provider says is paid, applied once (the member's return and Stripe's
 * webhook may come in any order): the fee charged, with a receipt. Paid after the fee was settled
 * otherwise (dropped after 14 days while the page was open, or paid in two tabs), the payment is
 * given back at once and the member told. A refund the provider refuses leaves it unapplied, to
 * be tried again by the next return or delivery.
 */
export async function settleFeeCheckout(deps: FeeDeps, checkoutRef: string) {
  const known = await deps.db.selectFrom('fee_checkouts').select('payment_ref').where('ref', '=', checkoutRef).executeTakeFirst()
  if (!known || known.payment_ref) return
  const outcome = await deps.payments.readPaymentCheckout(checkoutRef)
  if (outcome.status !== 'complete') return
  await deps.db.transaction().execute(async (trx) => {
    const checkout = await trx.selectFrom('fee_checkouts').selectAll().where('ref', '=', checkoutRef).forUpdate().executeTakeFirstOrThrow()
    if (checkout.payment_ref) return
    const fee = await trx.selectFrom('no_show_fees').selectAll().where('id', '=', checkout.fee_id).forUpdate().executeTakeFirstOrThrow()
    const { title } = await trx.selectFrom('experiences').select('title').where('id', '=', fee.experience_id).executeTakeFirstOrThrow()
    await trx.updateTable('fee_checkouts').set({ payment_ref: outcome.paymentRef }).where('ref', '=', checkoutRef).execute()
    if (isPayable(fee.status)) {
      const charged = await trx
        .updateTable('no_show_fees')
        .set({ status: 'charged', provider_ref: outcome.paymentRef, charged_at: new Date(), charged_brand: outcome.card?.brand ?? null, charged_last4: outcome.card?.last4 ?? null, decline_code: null })
        .where('id', '=', fee.id)
        .returningAll()
        .executeTakeFirstOrThrow()
      await deps.notify({ type: 'fee.updated', to: [fee.user_id], data: { ...feeEventData(charged, title, 'charged'), card: outcome.card ? cardLabel(outcome.card) : null } }, trx)
      return
    }
    const refund = await deps.payments.refund({ paymentRef: outcome.paymentRef, amountCents: fee.amount_cents, idempotencyKey: `refund:${checkoutRef}`, metadata: { fee_id: fee.id } })
    await trx.updateTable('fee_checkouts').set({ refund_ref: refund.ref }).where('ref', '=', checkoutRef).execute()
    await deps.notify({ type: 'fee.updated', to: [fee.user_id], data: { ...feeEventData(fee, title, 'refunded'), card: outcome.card ? cardLabel(outcome.card) : null } }, trx)
    deps.logger.warn({ feeId: fee.id, checkoutRef, status: fee.status }, 'A fee was paid after it was settled: the payment is given back')
  })
}

/**
 * `POST v1/admin/fees/{id}/refund`: the team gives back a charged fee in full, with the reason
 * (audited; the member is told). Once per fee at the provider (`refund:<fee id>`), while the
 * fee's row stays locked.
 */
export async function refundFee(deps: FeeDeps, caller: User, id: string, reason: string, requestId: string | null) {
  requirePermission(caller, 'refund:fees')
  return deps.db.transaction().execute(async (trx) => {
    const fee = isUuid(id) ? await trx.selectFrom('no_show_fees').selectAll().where('id', '=', id).forUpdate().executeTakeFirst() : undefined
    if (!fee) throw problems.notFound('No such fee')
    if (fee.status !== 'charged' || !fee.provider_ref) throw problems.conflict('fee_not_charged', 'Only a charged fee can be refunded.')
    const refund = await deps.payments.refund({ paymentRef: fee.provider_ref, amountCents: fee.amount_cents, idempotencyKey: `refund:${fee.id}`, metadata: { fee_id: fee.id } })
    const refunded = await trx
      .updateTable('no_show_fees')
      .set({ status: 'refunded', refund_ref: refund.ref, refund_note: reason, refunded_by: caller.id, refunded_at: new Date() })
      .where('id', '=', fee.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    const { title } = await trx.selectFrom('experiences').select('title').where('id', '=', fee.experience_id).executeTakeFirstOrThrow()
    const card = refunded.charged_brand && refunded.charged_last4 ? cardLabel({ brand: refunded.charged_brand, last4: refunded.charged_last4 }) : null
    await deps.notify({ type: 'fee.updated', to: [fee.user_id], data: { ...feeEventData(refunded, title, 'refunded'), card } }, trx)
    await trx
      .insertInto('audit_log')
      .values({ actor_id: caller.id, action: 'fee.refund', target_type: 'no_show_fee', target_id: fee.id, data: JSON.stringify({ reason, refund: refund.ref }), request_id: requestId })
      .execute()
    return refunded
  })
}
