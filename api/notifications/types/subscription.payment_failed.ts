import { z } from 'zod'
import { dollars } from '#contract/subscriptions.ts'
import { defineNotification } from '../kind.ts'

/**
 * Premium's renewal was not paid (decisions 074, 076): the card was refused, so the plan is past
 * due. Premium stays on for the grace days (`premium_until`), and the subscription page says
 * what to do: check the card, or cancel. About the member's own money: always told and emailed,
 * never silenced by a topic; only while the plan is still past due.
 */
export const subscriptionPaymentFailed = defineNotification({
  type: 'subscription.payment_failed',
  data: z.object({
    subscription_id: z.uuid(),
    price_cents: z.number().int().positive(),
    /** The end of the grace days: premium is off after it unless the renewal is paid. */
    premium_until: z.string(),
  }),
  topic: null,
  copy: 'subscriptionPaymentFailed',
  text: (data, { t, language }) => {
    if (data.price_cents === undefined || !data.premium_until) return null
    const date = new Intl.DateTimeFormat(language, {
      dateStyle: 'long',
      timeZone: 'America/New_York',
    }).format(new Date(data.premium_until))
    return { title: t('title'), body: t('body', { price: dollars(data.price_cents), date }) }
  },
  link: () => '/account/subscription',
  email: 'text',
  push: false,
  sms: null,
  async stillFor(db, userId, data) {
    const plan = await db
      .selectFrom('subscriptions')
      .select('id')
      .where('id', '=', data.subscription_id)
      .where('user_id', '=', userId)
      .where('status', '=', 'past_due')
      .executeTakeFirst()
    return plan !== undefined
  },
})
