import { z } from 'zod'
import { dollars } from '#contract/subscriptions.ts'
import { defineNotification } from '../kind.ts'

/**
 * Premium renews soon (decision 074, California's automatic renewal law: a notice 15 to 45 days
 * before a yearly plan renews): the price, the date, and how to cancel online. About the member's
 * own money: always told and emailed, never silenced by a topic; only while the plan still renews
 * on that date.
 */
export const subscriptionRenewalReminder = defineNotification({
  type: 'subscription.renewal_reminder',
  data: z.object({
    subscription_id: z.uuid(),
    price_cents: z.number().int().positive(),
    renews_at: z.string(),
  }),
  topic: null,
  copy: 'subscriptionRenewal',
  text: (data, { t, language }) => {
    if (data.price_cents === undefined || !data.renews_at) return null
    const date = new Intl.DateTimeFormat(language, {
      dateStyle: 'long',
      timeZone: 'America/New_York',
    }).format(new Date(data.renews_at))
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
      .where('status', '=', 'active')
      .where('cancel_at_period_end', '=', false)
      .where('current_period_end', '=', new Date(data.renews_at))
      .executeTakeFirst()
    return plan !== undefined
  },
})
