import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'

/**
 * "This page needs to reload to get the latest version" (spec §2): shown instead of an error
 * when the browser runs an older build than the server (app/utils/build-version.ts). Only ever
 * drawn in the browser, so its one button can simply reload.
 */
export function UpdateRequired() {
  const { t } = useTranslation()
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  return (
    <div className="prose">
      <h1 ref={heading} tabIndex={-1}>
        {t('errorPage.updateRequired.title')}
      </h1>
      <p>{t('errorPage.updateRequired.body')}</p>
      <p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {t('errorPage.updateRequired.reload')}
        </button>
      </p>
    </div>
  )
}
