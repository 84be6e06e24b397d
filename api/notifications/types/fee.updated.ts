import { z } from 'zod'
import { formatFee } from '../emails.ts'
import { defineNotification } from '../kind.ts'

/**
 * A no-show fee moved on (decision 075): the notice ("You will be charged $X on <date> — tell us
 * if this is wrong"), the receipt, the bank wanting the member to confirm (with "Pay now" on their
 * fees page), a refusal, the fee dropped, or given back. About the member's own money: always told and emailed, never silenced by a topic.
 */
export const feeUpdated = defineNotification({
  type: 'fee.updated',
  data: z.object({
    fee_id: z.uuid(),
    step: z.enum(['notice', 'charged', 'needs_confirmation', 'declined', 'waived', 'refunded']),
    amount_cents: z.number().int().positive(),
    charge_on: z.string(),
    reason: z.enum(['late_cancel', 'no_show']),
    waiver: z.string().nullable(),
    title: z.string(),
    /** The card charged, as “Visa •••• 4242” (the receipt). */
    card: z.string().nullable().optional(),
  }),
  topic: null,
  copy: 'fee',
  text: (data, { t, language }) => {
    if (!data.step || data.amount_cents === undefined || !data.title) return null
    const amount = formatFee(data.amount_cents, language)
    const date = data.charge_on ? new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'America/New_York' }).format(new Date(data.charge_on)) : ''
    const why = t(data.reason === 'no_show' ? 'why.noShow' : 'why.lateCancel')
    const vars = { amount, date, title: data.title, why, card: data.card ?? '' }
    const body = data.step === 'waived' ? t(`waived.${data.waiver ?? 'admin'}`, vars) : t(`${data.step}.body`, vars)
    return { title: t(`${data.step}.title`, vars), body }
  },
  link: () => '/account/fees',
  email: 'text',
  push: false,
  sms: null,
})
