import { Form, Link, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { SubmitButton } from './ui/submit-button.tsx'

/**
 * The analytics consent question (decision 081), for visitors reading Circle 55 in French or
 * Dutch who have not answered yet: a plain section under the header, in the page's flow (it never
 * covers content and blocks nothing), a labelled region with a heading so a screen reader finds
 * and announces it, and two buttons of equal weight posting a plain form to `/privacy-choices`
 * (without JavaScript too), which remembers the answer and comes back here.
 */
export function ConsentChoice() {
  const { t } = useTranslation('analytics')
  const location = useLocation()
  return (
    <section className="consent-choice" aria-labelledby="consent-choice-heading" data-testid="consent-choice">
      <div className="container">
        <h2 id="consent-choice-heading">{t('ask.heading')}</h2>
        <p>{t('ask.body')}</p>
        <Form method="post" action="/privacy-choices" className="button-row">
          <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
          <SubmitButton className="button button--secondary" name="choice" value="granted" pending="saving">
            {t('choice.accept')}
          </SubmitButton>
          <SubmitButton className="button button--secondary" name="choice" value="refused" pending="saving">
            {t('choice.refuse')}
          </SubmitButton>
          <Link to="/privacy-choices">{t('ask.more')}</Link>
        </Form>
      </div>
    </section>
  )
}
