import type { ReactNode } from 'react'
import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'

/**
 * The way on from a page a member passes through after signing in or up (onboarding's success,
 * welcome back): back to where they were first (`returnTo`, decision 020), then home, then
 * `children`. Without a `returnTo` ('/'), home comes first.
 */
export function ReturnLinks({ returnTo, home, children }: { returnTo: string; home: string; children?: ReactNode }) {
  const { t } = useTranslation()
  const back = returnTo !== '/'
  return (
    <div className="button-row">
      {back ? (
        <Link to={returnTo} className="button">
          {t('auth.continue')}
        </Link>
      ) : null}
      <Link to="/" className={back ? 'button button--secondary' : 'button'}>
        {home}
      </Link>
      {children}
    </div>
  )
}
