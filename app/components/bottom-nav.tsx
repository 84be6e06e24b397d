import { NavLink } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { useSignInHref } from '#app/utils/use-return-to.ts'
import type { ShellMember } from '#app/utils/root-data.ts'

/** Spec §9: badges show up to 9, then "9+". */
export function badgeLabel(count: number) {
  return count > 9 ? '9+' : String(count)
}

interface Item {
  to: string
  label: string
  icon: 'home' | 'sign-in' | 'search' | 'calendar' | 'messages'
  badge?: number
}

/**
 * Spec §2: on small screens, icon, title and badge; the current path highlighted. The titles are
 * the pages' own words ("My activities", never a shorter stand-in), wrapping between words and
 * sized to the bar, so that four fit a 390 px phone whatever the text size; a badge sits beside
 * its icon, above the title, never over it (issue 29 §4, decision 022). Four items, the places
 * members go most: Members, Notifications and Account are at the top of every page, in the
 * header (site-header.tsx); where the screen is short the bar gives way to the header's links
 * (app.css).
 */
export function BottomNav({ user, unread = 0 }: { user: ShellMember | null; unread?: number }) {
  const { t } = useTranslation()
  const signIn = useSignInHref('/login')
  const items: Item[] = [
    { to: '/', label: t('nav.home'), icon: 'home' },
    { to: '/activities', label: t('nav.explore'), icon: 'search' },
    ...(user
      ? [
          { to: '/attending', label: t('nav.attending'), icon: 'calendar' } as Item,
          { to: '/messenger', label: t('nav.messages'), icon: 'messages', badge: unread } as Item,
        ]
      : [{ to: signIn, label: t('nav.signIn'), icon: 'sign-in' } as Item]),
  ]
  return (
    <nav className="bottom-nav" aria-label={t('nav.bottom')}>
      <ul>
        {items.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} end={item.to === '/'}>
              <span className="bottom-nav__icon">
                <Icon name={item.icon} />
                {item.badge ? (
                  <span className="badge" aria-hidden="true">
                    {badgeLabel(item.badge)}
                  </span>
                ) : null}
              </span>
              <span className="bottom-nav__label">{item.label}</span>
              {/* The count for a screen reader, after the item's name ("Messages, 12 unread"). */}
              {item.badge ? <span className="visually-hidden"> {t('nav.unread', { count: item.badge })}</span> : null}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/**
 * An unread count: up to 9, then "9+" (spec §9), on screen; a screen reader hears the whole
 * count once ("12 unread"), after the item's name. `text` is a `common` key with `count`.
 */
export function Badge({ count, text = 'nav.unread' }: { count: number; text?: string }) {
  const { t } = useTranslation()
  return (
    <span className="badge">
      <span aria-hidden="true">{badgeLabel(count)}</span>
      <span className="visually-hidden"> {t(text, { count })}</span>
    </span>
  )
}

function Icon({ name }: { name: Item['icon'] }) {
  const paths: Record<Item['icon'], string> = {
    home: 'M3 11.5 12 4l9 7.5V20a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z',
    'sign-in': 'M10 17l5-5-5-5M15 12H3M14 3h5a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2h-5',
    search: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14Zm10 3-5.2-5.2',
    calendar: 'M4 6h16v14H4zM4 10h16M8 3v4M16 3v4',
    messages: 'M4 5h16v11H9l-5 4z',
  }
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d={paths[name]} />
    </svg>
  )
}
