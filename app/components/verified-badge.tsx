import { useTranslation } from 'react-i18next'

/**
 * "Verified": the member's identity was checked (decision 025). Text and a check mark, never the
 * icon alone; screen readers hear "Verified member".
 */
export function VerifiedBadge({ className }: { className?: string }) {
  const { t } = useTranslation('verification')
  return (
    <span className={['verified-badge', className].filter(Boolean).join(' ')}>
      <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
        <path d="M12 2l2.4 2.1 3.2-.3.9 3.1 2.8 1.6-1.1 3 1.1 3-2.8 1.6-.9 3.1-3.2-.3L12 22l-2.4-2.1-3.2.3-.9-3.1-2.8-1.6 1.1-3-1.1-3 2.8-1.6.9-3.1 3.2.3z" />
        <path d="M8.5 12.5l2.5 2.5 4.5-5" />
      </svg>
      <span aria-hidden="true">{t('badge')}</span>
      <span className="visually-hidden">{t('badgeLabel')}</span>
    </span>
  )
}
