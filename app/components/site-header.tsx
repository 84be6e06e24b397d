import { Form, Link, NavLink } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Badge } from './bottom-nav.tsx'
import { unsubscribeFromPush } from '#app/utils/push.client.ts'
import { useSignInHref } from '#app/utils/use-return-to.ts'
import type { ShellMember } from '#app/utils/root-data.ts'
import { SubmitButton } from './ui/submit-button.tsx'
import { Suspense } from 'react'
import { HelpControl, LazyHelpPanel, useHelpDisclosure } from './help-control.tsx'

/**
 * The header: the name, the main links, signing out. On a phone (where the bottom bar shows, under
 * 40em wide) the links the bar carries (Home, Find activities, My activities, Messages) give way
 * to it, and the others, Members, Notifications and Account, stay here at the top of every page,
 * one tap away, in the same words as their pages (issue 29 §4; `nav-links__everywhere`, app.css).
 * Help is on every page, for visitors too (decision 083): a link to `/help/chat`, with JavaScript a
 * button that opens the help panel drawn right after the header.
 */
export function SiteHeader({ user, unread = 0, notifications = 0 }: { user: ShellMember | null; unread?: number; notifications?: number }) {
  const { t } = useTranslation()
  const name = user ? (user.displayName ?? t('member.generic')) : ''
  const signIn = useSignInHref('/login')
  const signUp = useSignInHref('/signup')
  const help = useHelpDisclosure()
  return (
    <>
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
                  <li className="nav-links__everywhere">
                    <NavLink to="/members">{t('nav.members')}</NavLink>
                  </li>
                  <li>
                    <NavLink to="/messenger">
                      {t('nav.messages')}
                      {unread > 0 ? <Badge count={unread} /> : null}
                    </NavLink>
                  </li>
                  <li className="nav-links__everywhere">
                    <NavLink to="/notifications">
                      {t('nav.notifications')}
                      {notifications > 0 ? <Badge count={notifications} /> : null}
                    </NavLink>
                  </li>
                  <li className="nav-links__everywhere">
                    <NavLink to="/account">{t('nav.account')}</NavLink>
                  </li>
                  {user.staff ? (
                    <li className="nav-links__everywhere">
                      <NavLink to="/admin">{t('nav.team')}</NavLink>
                    </li>
                  ) : null}
                </>
              ) : null}
              <li className="nav-links__everywhere">
                <HelpControl label={t('nav.help')} help={help} />
              </li>
            </ul>
            {user ? (
              <Form method="post" action="/logout" onSubmit={() => void unsubscribeFromPush()}>
                <span className="visually-hidden">{t('header.signedInAs', { name })}</span>
                <SubmitButton pending="signingOut" className="button button--secondary">
                  {t('nav.signOut')}
                </SubmitButton>
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
      {help.open ? (
        <Suspense fallback={<p role="status" className="container">{t('loading')}</p>}>
          <LazyHelpPanel id={help.panelId} onClose={help.close} />
        </Suspense>
      ) : null}
    </>
  )
}
