import { useTranslation } from 'react-i18next'
import type { PaymentCardBrand, PaymentMethod } from '#contract/payments.ts'

/**
 * A card as members see it (spec §3): the brand's logo, then "Visa •••• 4242, expires 08/27".
 * The logo is drawn here (no image to fetch) and hidden from screen readers: the words beside it
 * say the brand, so it is never announced twice.
 */
export function CardBrandLogo({ brand }: { brand: PaymentCardBrand }) {
  return (
    <svg className="card-logo" width="48" height="32" viewBox="0 0 48 32" aria-hidden="true" focusable="false">
      {logos[brand]}
    </svg>
  )
}

const logos: Record<PaymentCardBrand, React.ReactNode> = {
  visa: (
    <>
      <rect width="48" height="32" rx="4" fill="#1a1f71" />
      <text x="24" y="21" textAnchor="middle" fontSize="13" fontWeight="700" fontStyle="italic" fill="#fff" fontFamily="Arial, sans-serif">
        VISA
      </text>
    </>
  ),
  mastercard: (
    <>
      <rect width="48" height="32" rx="4" fill="#231f20" />
      <circle cx="19" cy="16" r="9" fill="#eb001b" />
      <circle cx="29" cy="16" r="9" fill="#f79e1b" fillOpacity="0.9" />
    </>
  ),
  amex: (
    <>
      <rect width="48" height="32" rx="4" fill="#2e77bc" />
      <text x="24" y="20" textAnchor="middle" fontSize="11" fontWeight="700" fill="#fff" fontFamily="Arial, sans-serif">
        AMEX
      </text>
    </>
  ),
  discover: (
    <>
      <rect x="0.5" y="0.5" width="47" height="31" rx="4" fill="#fff" stroke="#5b5b5b" />
      <circle cx="37" cy="16" r="6" fill="#f58220" />
      <text x="6" y="19" fontSize="7.5" fontWeight="700" fill="#231f20" fontFamily="Arial, sans-serif">
        DISC
      </text>
    </>
  ),
  unknown: (
    <>
      <rect x="0.5" y="0.5" width="47" height="31" rx="4" fill="#fff" stroke="#5b5b5b" />
      <rect x="0.5" y="8" width="47" height="6" fill="#5b5b5b" />
    </>
  ),
}

type Translate = (key: string, values?: Record<string, string>) => string

/** "Visa •••• 4242": `t` reads the payments namespace (a page's or a loader's). */
export function cardShortName(t: Translate, card: Pick<PaymentMethod, 'brand' | 'last4'>) {
  return t('cardShort', { brand: t(`brands.${card.brand}`), last4: card.last4 })
}

/** "Visa •••• 4242, expires 08/27". */
export function cardFullName(t: Translate, card: Pick<PaymentMethod, 'brand' | 'last4' | 'exp_month' | 'exp_year'>) {
  const expiry = `${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year % 100).padStart(2, '0')}`
  return t('card', { brand: t(`brands.${card.brand}`), last4: card.last4, expiry })
}

/** Both names, in the page's language. */
export function useCardName() {
  const { t } = useTranslation('payments')
  return { short: (card: Parameters<typeof cardShortName>[1]) => cardShortName(t, card), full: (card: Parameters<typeof cardFullName>[1]) => cardFullName(t, card) }
}
