import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { LanguageSwitcher } from './language-switcher.tsx'

export const footerLinks = [
  { to: '/company/about', key: 'footer.about' },
  { to: '/pricing', key: 'subscriptions:pricing.title' },
  { to: '/company/community-guidelines', key: 'footer.communityGuidelines' },
  { to: '/company/attendance-policy', key: 'footer.attendancePolicy' },
  { to: '/legal/privacy', key: 'footer.privacy' },
  { to: '/legal/terms', key: 'footer.terms' },
  // Anyone may change their analytics consent there; GPC is shown as honoured (decision 081).
  { to: '/privacy-choices', key: 'analytics:footerLink' },
] as const

export function SiteFooter({ year }: { year: number }) {
  const { t } = useTranslation()
  return (
    <footer className="site-footer">
      <div className="container">
        <nav aria-label={t('footer.label')}>
          <ul>
            {footerLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{t(link.key)}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <LanguageSwitcher />
        <p>{t('footer.copyright', { year })}</p>
      </div>
    </footer>
  )
}
