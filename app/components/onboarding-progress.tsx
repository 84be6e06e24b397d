import { Form, Link, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { onboardingPosition, type OnboardingPage } from '#app/utils/onboarding.ts'
import { pathWithReturnTo } from '#app/utils/redirect.ts'
import { SubmitButton } from './ui/submit-button.tsx'

/** "Step 2 of 6" above an onboarding page's heading, with Back to the step before it. */
export function OnboardingProgress({ page, returnTo = '/' }: { page: OnboardingPage; returnTo?: string }) {
  const { t } = useTranslation('onboarding')
  const { step, total, previous } = onboardingPosition(page)
  return (
    <div className="onboarding-progress">
      {previous ? (
        <Link to={pathWithReturnTo(previous, returnTo)}>
          {t('progress.back')}
        </Link>
      ) : null}
      <p>{t('progress.step', { step, total })}</p>
    </div>
  )
}

/**
 * "Skip for now" (or "Continue" once the step is done): a form of its own that posts `intent=skip`
 * to the step, which remembers the next step (continueOnboarding) without sending anything else.
 * `primary`: the main button of the page ("Not now" on the Medicare step, decision 086).
 */
export function SkipStep({ label, primary = false }: { label?: string; primary?: boolean }) {
  const { t } = useTranslation('onboarding')
  const location = useLocation()
  return (
    <Form method="post" action={`${location.pathname}${location.search}`} className="button-row">
      <SubmitButton pending="working" name="intent" value="skip" className={primary ? 'button' : 'button button--secondary'}>
        {label ?? t('progress.skip')}
      </SubmitButton>
    </Form>
  )
}
