import { useTranslation } from 'react-i18next'

/**
 * "Margaret invited you to Circle 55" (spec §2's referral banner, decision 087): the first name
 * only when its member allowed it, otherwise "A friend"; nothing else of them, ever.
 */
export function ReferralBanner({ banner }: { banner: { firstName: string | null } }) {
  const { t } = useTranslation('referrals')
  return (
    <div className="notice notice--success" role="status" data-testid="referral-banner">
      <p>{banner.firstName ? t('banner.named', { name: banner.firstName }) : t('banner.friend')}</p>
    </div>
  )
}
