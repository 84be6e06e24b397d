import { Form, useLocation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { languageNames, languages } from '#app/utils/i18n.ts'
import { SubmitButton } from './ui/submit-button.tsx'

/** Works without JavaScript: a plain form posting to /api/localize, which redirects back. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation()
  const location = useLocation()
  return (
    <Form method="post" action="/api/localize" className="language-form" reloadDocument>
      <input type="hidden" name="returnTo" value={location.pathname + location.search} />
      <div>
        <label htmlFor="language-select">{t('language.label')}</label>
        <select id="language-select" name="lng" defaultValue={i18n.language}>
          {languages.map((lng) => (
            <option key={lng} value={lng} lang={lng}>
              {languageNames[lng]}
            </option>
          ))}
        </select>
      </div>
      <SubmitButton pending="saving" className="button button--secondary">
        {t('language.submit')}
      </SubmitButton>
    </Form>
  )
}
