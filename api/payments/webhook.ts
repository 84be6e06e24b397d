import type { PaymentEvent } from '../providers/payments/provider.ts'
import { applySubscriptionCheckout } from '../subscriptions/service.ts'
import { syncSubscription } from '../subscriptions/sync.ts'
import { recordSetupCard, refreshCard, type PaymentsDeps } from './service.ts'
import { settleFeeCheckout } from '../fees/service.ts'
import type { Notify } from '../notifications/service.ts'

/** The payments module's services, and notifications for the events that tell a member something. */
export type WebhookDeps = PaymentsDeps & { notify: Notify }

/**
 * Stripe's payment events (decision 073), checked by their signature before this is called. Each
 * is applied at most once by its id (`payment_events`), in any order: what an event says is read
 * again from Stripe (a setup session's card, a subscription, a card a network updated) or is final
 * (a card detached), and every change is idempotent, so a delivery sent twice, or two racing,
 * leave one state. An event that fails to apply is not recorded: Stripe sends it again.
 */
export async function applyPaymentEvent(deps: WebhookDeps, event: PaymentEvent): Promise<{ applied: boolean }> {
  const seen = await deps.db.selectFrom('payment_events').select('id').where('id', '=', event.id).executeTakeFirst()
  if (seen) return { applied: false }
  const object = event.data.object
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      if (object.mode === 'setup') await completeSetup(deps, object.id)
      // Premium paid on Checkout: the plan starts once, whether this or the member's return comes first (decision 074).
      if (object.mode === 'subscription') await applySubscriptionCheckout(deps, object.id)
      // A fee paid on-session ("Pay now"): charged once, whether this or the member's return comes first (decision 075).
      if (object.mode === 'payment') await settleFeeCheckout(deps, object.id)
      break
    case 'payment_method.detached':
      await forgetDetachedCard(deps, object.id)
      break
    // A card network updated a saved card (a new expiry): read again and recorded (decision 076).
    case 'payment_method.updated':
    case 'payment_method.automatically_updated':
      await refreshCard(deps, object.id)
      break
    // Premium after its first payment (decision 076): renewed, refused, changed or ended at
    // Stripe; the subscription is read again and our plan follows it.
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      await syncSubscription(deps, object.id)
      break
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const subscription = invoiceSubscription(object)
      if (subscription) await syncSubscription(deps, subscription)
      break
    }
    default:
      break
  }
  await deps.db.insertInto('payment_events').values({ id: event.id, type: event.type }).onConflict((conflict) => conflict.column('id').doNothing()).execute()
  return { applied: true }
}

/** A card setup finished at Stripe: its card recorded, as when the member comes back (once either way). */
async function completeSetup(deps: PaymentsDeps, sessionId: string) {
  const setup = await deps.db.selectFrom('card_setups').select('id').where('provider', '=', deps.payments.name).where('provider_ref', '=', sessionId).executeTakeFirst()
  if (!setup) return
  const outcome = await deps.payments.readCardSetup(sessionId)
  if (outcome.status === 'complete') await recordSetupCard(deps, sessionId, outcome.card)
}

/** A card detached at Stripe (from its dashboard, or by us): no longer offered; another becomes the default. */
async function forgetDetachedCard(deps: PaymentsDeps, cardRef: string) {
  await deps.db.transaction().execute(async (trx) => {
    const card = await trx
      .updateTable('payment_methods')
      .set({ removed_at: new Date(), is_default: false })
      .where('provider', '=', deps.payments.name)
      .where('provider_ref', '=', cardRef)
      .where('removed_at', 'is', null)
      .returning(['id', 'user_id'])
      .executeTakeFirst()
    if (!card) return
    const next = await trx.selectFrom('payment_methods').select('id').where('user_id', '=', card.user_id).where('removed_at', 'is', null).orderBy('created_at', 'desc').executeTakeFirst()
    const hasDefault = await trx.selectFrom('payment_methods').select('id').where('user_id', '=', card.user_id).where('removed_at', 'is', null).where('is_default', '=', true).executeTakeFirst()
    if (next && !hasDefault) await trx.updateTable('payment_methods').set({ is_default: true }).where('id', '=', next.id).execute()
  })
}

/**
 * The subscription an invoice bills (https://docs.stripe.com/api/invoices/object): `subscription`
 * before API version 2025-03-31, `parent.subscription_details.subscription` since; null for an
 * invoice of no subscription. An id never changes, so it may be taken from the event.
 */
function invoiceSubscription(invoice: PaymentEvent['data']['object']): string | null {
  const parent = invoice.parent as { subscription_details?: { subscription?: unknown } | null } | null | undefined
  const ref = parent?.subscription_details?.subscription ?? invoice.subscription
  if (typeof ref === 'string') return ref
  // Expanded by the webhook's API version: the object, with its id.
  const id = (ref as { id?: unknown } | null | undefined)?.id
  return typeof id === 'string' ? id : null
}
