import { NavLink } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { useSignInHref } from '#app/utils/use-return-to.ts'
import type { ShellMember } from '#app/utils/user-hooks.ts'

/** Spec §9: badges show up to 9, then "9+". */
export function badgeLabel(count: number) {
  return count > 9 ? '9+' : String(count)
}

interface Item {
  to: string
  label: string
  /** Shown instead of `label` where the bar is narrow for its text (large text, small phones). */
  short: string
  icon: 'home' | 'person' | 'sign-in' | 'search' | 'calendar' | 'people' | 'messages'
  badge?: number
  /** What the badge says to a screen reader (`nav.unread` by default). */
  badgeText?: string
  avatarUrl?: string | null
}

/**
 * Spec §2: on small screens, icon or avatar, title and badge; the current path highlighted. Where
 * the bar has little room for its text (a phone with large text) it shows short labels, each on
 * one line (issue 12 §1); where the screen is short it gives way to the header's links (app.css).
 */
export function BottomNav({ user, unread = 0, notifications = 0 }: { user: ShellMember | null; unread?: number; notifications?: number }) {
  const { t } = useTranslation()
  const signIn = useSignInHref('/login')
  const items: Item[] = [
    { to: '/', label: t('nav.home'), short: t('nav.short.home'), icon: 'home' },
    { to: '/activities', label: t('nav.explore'), short: t('nav.short.explore'), icon: 'search' },
    ...(user
      ? [
          { to: '/attending', label: t('nav.attending'), short: t('nav.short.attending'), icon: 'calendar' } as Item,
          // Five items fit a 390px phone at 200% text, six do not (decision 033): Messages takes
          // Members' place; Members stays in the header and opens from Messages ("Write to a member").
          { to: '/messenger', label: t('nav.messages'), short: t('nav.short.messages'), icon: 'messages', badge: unread } as Item,
        ]
      : []),
    user
      ? // No room for a sixth item (decision 033): Account carries the notifications badge and leads to them (decision 043).
        { to: '/account', label: t('nav.account'), short: t('nav.short.account'), icon: 'person', avatarUrl: user.avatarUrl, badge: notifications, badgeText: 'nav.unreadNotifications' }
      : { to: signIn, label: t('nav.signIn'), short: t('nav.short.signIn'), icon: 'sign-in' },
  ]
  return (
    <nav className="bottom-nav" aria-label={t('nav.bottom')}>
      <ul>
        {items.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} end={item.to === '/'}>
              {item.avatarUrl ? <img src={item.avatarUrl} alt="" className="avatar" /> : <Icon name={item.icon} />}
              {/* One of the two is displayed (app.css), so the link's name is always the label shown. */}
              <span className="bottom-nav__label">{item.label}</span>
              <span className="bottom-nav__short">{item.short}</span>
              {item.badge ? (
                <span className="badge">
                  {badgeLabel(item.badge)}
                  <span className="visually-hidden"> {t(item.badgeText ?? 'nav.unread', { count: item.badge })}</span>
                </span>
              ) : null}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}

function Icon({ name }: { name: Item['icon'] }) {
  const paths: Record<Item['icon'], string> = {
    home: 'M3 11.5 12 4l9 7.5V20a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z',
    person: 'M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9Zm-8 9c0-4 3.6-6.5 8-6.5s8 2.5 8 6.5',
    'sign-in': 'M10 17l5-5-5-5M15 12H3M14 3h5a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2h-5',
    search: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14Zm10 3-5.2-5.2',
    calendar: 'M4 6h16v14H4zM4 10h16M8 3v4M16 3v4',
    messages: 'M4 5h16v11H9l-5 4z',
    people: 'M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7Zm-6 9c0-3.3 2.7-5.5 6-5.5s6 2.2 6 5.5M16 4.5a3.5 3.5 0 0 1 0 6.5M18 14.8c1.8.7 3 2.5 3 5.2',
  }
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d={paths[name]} />
    </svg>
  )
}
