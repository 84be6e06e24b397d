import { useTranslation } from 'react-i18next'
import type { NoShowFee } from '#contract/fees.ts'
import { formatCurrency } from '#app/utils/experience.ts'
import { cardShortName } from './payment-card.tsx'

/** A fee in one plain sentence: its amount, why, and where it stands (decision 075). */
export function FeeStatus({ fee }: { fee: NoShowFee }) {
  const { t, i18n } = useTranslation('payments')
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeZone: 'America/New_York' }).format(new Date(iso))
  const dropOn = new Date(new Date(fee.charge_on).getTime() + 14 * 86_400_000).toISOString()
  const values = {
    amount: formatCurrency(fee.amount, i18n.language),
    date: date(fee.charge_on),
    charged: fee.charged_at ? date(fee.charged_at) : '',
    refunded: fee.refunded_at ? date(fee.refunded_at) : '',
    dropOn: date(dropOn),
    card: fee.card ? cardShortName(t, fee.card) : '',
  }
  return (
    <>
      <p>{t(`fees.reason.${fee.reason}`, values)}</p>
      <p>{fee.status === 'waived' ? t(`fees.waiver.${fee.waiver ?? 'admin'}`, values) : t(`fees.status.${fee.status}`, values)}</p>
    </>
  )
}
