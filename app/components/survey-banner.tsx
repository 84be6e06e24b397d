import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { AttendancePopup } from '#contract/popups.ts'
import { SubmitButton } from './ui/submit-button.tsx'

/**
 * The `EXPERIENCE_ATTENDANCE` popup as a banner (decision 046): "Did you go to …?" with three
 * buttons in one plain form, posted to the activity's survey page. It works without JavaScript;
 * "Yes" leads on to the rating, "No" and "Not now" come back here.
 */
export function SurveyBanner({ popup }: { popup: AttendancePopup }) {
  const { t } = useTranslation('survey')
  const headingId = `survey-banner-${popup.experience_id}`
  return (
    <section className="notice survey-banner" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('banner.question', { title: popup.experience.title })}</h2>
      <p>{t('banner.why')}</p>
      <Form
        method="post"
        action={`/activities/${popup.experience_id}/survey`}
        className="button-row"
      >
        <SubmitButton pending="sending" name="intent" value="attended" className="button">
          {t('banner.yes')}
        </SubmitButton>
        <SubmitButton pending="sending"
          name="intent"
          value="not-attended"
          className="button button--secondary"
        >
          {t('banner.no')}
        </SubmitButton>
        <SubmitButton pending="working" name="intent" value="dismiss" className="button button--secondary">
          {t('banner.notNow')}
        </SubmitButton>
      </Form>
    </section>
  )
}
