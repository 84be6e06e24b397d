import { attendancePolicyVersion } from '#contract/fees.ts'
import { lateCancelWindowHours } from '#contract/limits.ts'
import type { Trx } from '../db/database.ts'
import type { Experience } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { paymentsT } from '../i18n.ts'
import { formatFee } from '../notifications/emails.ts'
import { usableDefaultCard } from '../payments/queries.ts'

/**
 * The member's agreement to an activity's no-show fee (issue 31 §3, decision 075), asked when they
 * save a seat: the exact sentence they were shown next to the button (the same words the web
 * shows, from the same locale file, in the language it was shown in), the amount, the policy's
 * version, the card, and when. Recorded once per agreement and never changed: it is the evidence
 * a bank asks for in a dispute. The seat is bound by it; a seat without one never is.
 */
export function feeConsentText(language: string, fee: { cents: number; card: { brand: string; last4: string } }) {
  const t = paymentsT(language)
  const card = t('cardShort', { brand: t(`brands.${fee.card.brand}`), last4: fee.card.last4 })
  return t('fee.consent', { fee: formatFee(fee.cents, language), hours: lateCancelWindowHours, card })
}

/** The card the fee would be charged to, or 409 `card_required` ("add a card first"). */
export async function feeCardOrRefuse(trx: Trx, userId: string) {
  const card = await usableDefaultCard(trx, userId)
  if (!card) throw problems.conflict('card_required', 'Add a card before saving a seat at this activity: it has a no-show fee.')
  return card
}

/** Records the agreement and binds the member's seat with it. */
export async function bindFeeConsent(
  trx: Trx,
  input: { userId: string; experience: Pick<Experience, 'id' | 'no_show_fee_cents'>; language: string; card: { id: string; brand: string; last4: string } },
) {
  const cents = input.experience.no_show_fee_cents!
  const consent = await trx
    .insertInto('fee_consents')
    .values({
      user_id: input.userId,
      experience_id: input.experience.id,
      amount_cents: cents,
      policy_version: attendancePolicyVersion,
      text_shown: feeConsentText(input.language, { cents, card: input.card }),
      language: input.language,
      payment_method_id: input.card.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await trx
    .updateTable('experience_attendees')
    .set({ fee_consent_id: consent.id })
    .where('experience_id', '=', input.experience.id)
    .where('user_id', '=', input.userId)
    .execute()
  return consent.id
}
