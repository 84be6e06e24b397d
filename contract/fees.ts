import { z } from 'zod'
import { languages } from './enums.ts'
import { paymentCardBrands } from './payments.ts'

/**
 * The no-show fee (spec §3, §4, §9; issue 31 §3; decision 075): a per-activity amount a member
 * agrees to when they save a seat, charged only after the host confirms who came, after a notice,
 * and never in the cases the Attendance Policy lists.
 */

/** The Attendance Policy's version the member agrees to (its date); stored with each agreement. */
export const attendancePolicyVersion = '2026-11-29'
/** Hours after the host confirms who came before the member is told of a fee. */
export const feeNoticeDelayHours = 24
/** Hours between the notice and the charge (time to say it is wrong). */
export const feeChargeDelayHours = 48
/** Days after which a fee the bank would not take (and the member did not confirm) is waived. */
export const feeUnpaidWaiverDays = 14

/** `POST v1/experiences/{id}/attendees`'s agreement to the fee, when the activity has one. */
export const feeConsentFields = {
  fee_consent: z
    .boolean({ error: 'fee_consent_required' })
    .optional()
    .meta({ description: 'The caller agrees to the activity’s no-show fee (required when it has one: fee_consent_required).' }),
  fee_consent_language: z
    .enum(languages, { error: 'language_invalid' })
    .optional()
    .meta({ description: 'The language the agreement was shown in (default: the member’s); the exact text is recorded as evidence.' }),
}

export const feeStatuses = ['noticed', 'disputed', 'charged', 'needs_confirmation', 'declined', 'waived', 'refunded'] as const
export const feeWaivers = ['first_in_12_months', 'seat_taken', 'schedule_changed', 'marked_present', 'admin', 'unpaid_14_days'] as const

/** A fee as the member (and the team) sees it. */
export const noShowFeeSchema = z
  .object({
    id: z.uuid(),
    experience: z.object({ id: z.string(), title: z.string(), start_date: z.string().nullable() }),
    reason: z.enum(['late_cancel', 'no_show']),
    amount: z.string().meta({ description: 'Dollars and cents ("5.00").' }),
    status: z.enum(feeStatuses),
    charge_on: z.string().meta({ description: 'When it is (or was to be) charged (ISO 8601).' }),
    charged_at: z.string().nullable(),
    waiver: z.enum(feeWaivers).nullable(),
    card: z.object({ brand: z.enum(paymentCardBrands), last4: z.string() }).nullable(),
    can_dispute: z.boolean().meta({ description: 'Still before the charge: “tell us if this is wrong” is open.' }),
    can_pay: z.boolean().meta({ description: 'The bank wanted the member to confirm it, or declined it: they may pay it themselves (`POST v1/fees/{id}/pay`).' }),
    refunded_at: z.string().nullable(),
  })
  .meta({ id: 'NoShowFee' })
export type NoShowFee = z.infer<typeof noShowFeeSchema>

/** `POST v1/experiences/{id}/attendance`: the host's list of who came. */
export const attendanceMarksBodySchema = z
  .object({
    marks: z
      .array(z.object({ user_id: z.uuid({ error: 'user_id_invalid' }), present: z.boolean({ error: 'present_invalid' }) }), { error: 'marks_required' })
      .max(500, 'marks_invalid'),
  })
  .meta({ id: 'AttendanceMarks' })

/** `POST v1/fees/{id}/dispute`: the member says the fee is wrong. */
export const feeDisputeBodySchema = z.object({ reason: z.string().trim().max(1000, 'reason_too_long').optional() }).meta({ id: 'FeeDispute' })

/** `POST v1/admin/fees/{id}/waive`: an admin waives a fee; the reason is recorded. */
export const feeWaiveBodySchema = z.object({ reason: z.string({ error: 'reason_required' }).trim().min(1, 'reason_required').max(1000, 'reason_too_long') }).meta({ id: 'FeeWaiver' })

/** `POST v1/admin/fees/{id}/refund`: an admin gives back a charged fee; the reason is recorded. */
export const feeRefundBodySchema = feeWaiveBodySchema.meta({ id: 'FeeRefund' })

/** `POST v1/fees/{id}/pay`: where to send the member to pay the fee themselves. */
export const feePaymentSchema = z
  .object({
    redirect_url: z.string().meta({ description: 'The provider’s hosted payment page; it sends the member back to `/account/fees?paid={id}`.' }),
  })
  .meta({ id: 'FeePayment' })

/** A fee as the team sees it (`GET v1/admin/fees`): whose, what they said, and why it was given back. */
export const teamFeeSchema = noShowFeeSchema
  .extend({
    member: z.object({ id: z.string(), name: z.string(), email: z.string().nullable() }),
    dispute_text: z.string().nullable(),
    refund_note: z.string().nullable().meta({ description: 'Why the team gave it back (refunded fees).' }),
  })
  .meta({ id: 'TeamNoShowFee' })
export type TeamFee = z.infer<typeof teamFeeSchema>
