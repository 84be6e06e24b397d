import { Form, Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { ImpersonationView } from '#contract/staff.ts'
import { SubmitButton } from './ui/submit-button.tsx'

/**
 * While a staff member views Circle 55 as a member (decision 078): on every page, first in the
 * page (before the skip link, so a screen reader reads it first), server-rendered, a plain form to
 * stop, never hidden by the header or the bottom bar (app.css keeps it above them).
 */
export function ImpersonationBanner({ impersonation }: { impersonation: ImpersonationView }) {
  const { t, i18n } = useTranslation()
  const name = impersonation.subject.display_name ?? t('member.generic')
  const until = new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short', timeZone: 'America/New_York' }).format(new Date(impersonation.expires_at))
  return (
    <section className="impersonation-banner" aria-label={t('impersonation.region')} data-testid="impersonation-banner">
      <div className="container impersonation-banner__inner">
        <p>
          <strong>{t(impersonation.mode === 'acting' ? 'impersonation.acting' : 'impersonation.viewing', { name, time: until })}</strong>
        </p>
        <Form method="post" action="/impersonation" className="impersonation-banner__actions">
          <Link to="/impersonation">{t('impersonation.details')}</Link>
          <SubmitButton className="button" name="intent" value="stop" pending="saving">
            {t('impersonation.stop')}
          </SubmitButton>
        </Form>
      </div>
    </section>
  )
}
