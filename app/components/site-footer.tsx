import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { OutsideLinkName } from '#contract/outside-links.ts'
import { useOutsideLinks } from '#app/utils/outside-links.ts'
import { LanguageSwitcher } from './language-switcher.tsx'
import { OutsideLink } from './outside-link.tsx'

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

/** Spec §2's outside links, in this order, each only when configured (decision 088). */
export const footerOutsideLinks: readonly OutsideLinkName[] = ['helpCenter', 'blog', 'hostsProgram', 'badgeInfo', 'appStore', 'marketingSite']

export function SiteFooter({ year }: { year: number }) {
  const { t } = useTranslation()
  const links = useOutsideLinks()
  const outside = footerOutsideLinks.flatMap((name) => {
    const to = links[name]
    return to ? [{ name, to }] : []
  })
  return (
    <footer className="site-footer">
      <div className="container">
        {outside.length > 0 ? (
          <nav aria-label={t('help-center:footer.label')}>
            <ul>
              {outside.map((link) => (
                <li key={link.name}>
                  <OutsideLink to={link.to}>{t(`help-center:links.${link.name}`)}</OutsideLink>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
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
