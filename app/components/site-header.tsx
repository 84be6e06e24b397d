import { Form, Link, NavLink } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { badgeLabel } from './bottom-nav.tsx'
import { unsubscribeFromPush } from '#app/utils/push.client.ts'
import { useSignInHref } from '#app/utils/use-return-to.ts'
import type { ShellMember } from '#app/utils/user-hooks.ts'

export function SiteHeader({ user, unread = 0, notifications = 0 }: { user: ShellMember | null; unread?: number; notifications?: number }) {
  const { t } = useTranslation()
  const name = user ? (user.displayName ?? t('member.generic')) : ''
  const signIn = useSignInHref('/login')
  const signUp = useSignInHref('/signup')
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Link to="/" className="brand">
          {t('brand')}
        </Link>
        <nav className="site-nav" aria-label={t('nav.main')}>
          <ul className="nav-links">
            <li>
              <NavLink to="/" end>
                {t('nav.home')}
              </NavLink>
            </li>
            <li>
              <NavLink to="/activities">{t('nav.explore')}</NavLink>
            </li>
            {user ? (
              <>
                <li>
                  <NavLink to="/attending">{t('nav.attending')}</NavLink>
                </li>
                <li>
                  <NavLink to="/members">{t('nav.members')}</NavLink>
                </li>
                <li>
                  <NavLink to="/messenger">
                    {t('nav.messages')}
                    {unread > 0 ? (
                      <span className="badge">
                        {badgeLabel(unread)}
                        <span className="visually-hidden"> {t('nav.unread', { count: unread })}</span>
                      </span>
                    ) : null}
                  </NavLink>
                </li>
                <li>
                  <NavLink to="/notifications">
                    {t('nav.notifications')}
                    {notifications > 0 ? (
                      <span className="badge">
                        {badgeLabel(notifications)}
                        <span className="visually-hidden"> {t('nav.unread', { count: notifications })}</span>
                      </span>
                    ) : null}
                  </NavLink>
                </li>
                <li>
                  <NavLink to="/account">{t('nav.account')}</NavLink>
                </li>
              </>
            ) : null}
          </ul>
          {user ? (
            <Form method="post" action="/logout" onSubmit={() => void unsubscribeFromPush()}>
              <span className="visually-hidden">{t('header.signedInAs', { name })}</span>
              <button type="submit" className="button button--secondary">
                {t('nav.signOut')}
              </button>
            </Form>
          ) : (
            <ul>
              <li>
                <Link reloadDocument to={signIn}>{t('nav.signIn')}</Link>
              </li>
              <li>
                <Link reloadDocument to={signUp} className="button">
                  {t('nav.signUp')}
                </Link>
              </li>
            </ul>
          )}
        </nav>
      </div>
    </header>
  )
}
