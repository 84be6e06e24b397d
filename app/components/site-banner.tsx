import { Link, useFetcher, useLocation } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { Banner } from '#contract/banners.ts'
import { isLanguage } from '#contract/languages.ts'
import type { BannerDismissalAnswer } from '#app/routes/resources+/banner-dismissal.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { SubmitButton } from './ui/submit-button.tsx'

/**
 * A banner (issue 32 §4, decision 084): a labelled region with the admins' words in the page's
 * language, a link, and "Hide this message", a plain form that works without JavaScript. With
 * JavaScript it hides in place and says so where it stood, keeping the keyboard's place; it never
 * takes focus on its own.
 */
export function SiteBanner({ banner }: { banner: Banner }) {
  const { t, i18n } = useTranslation('banners')
  const location = useLocation()
  const hydrated = useHydrated()
  const fetcher = useFetcher<BannerDismissalAnswer>({ key: `banner:${banner.id}` })
  const hiddenNote = useRef<HTMLParagraphElement>(null)
  const language = isLanguage(i18n.language) ? i18n.language : 'en'
  const headingId = `banner-${banner.id}`
  const hiding = fetcher.state !== 'idle'
  const answer = fetcher.state === 'idle' ? fetcher.data : undefined
  const hidden = hiding || (answer !== undefined && 'done' in answer)

  useEffect(() => {
    // The button the member pressed is gone: the note that replaces it takes the keyboard's place.
    if (hidden) hiddenNote.current?.focus()
  }, [hidden])

  if (hidden) {
    return (
      <p ref={hiddenNote} tabIndex={-1} role="status" className="notice site-banner site-banner--hidden">
        {t('hidden')}
      </p>
    )
  }
  const link = banner.link_url
  return (
    <section className="notice site-banner" aria-labelledby={headingId} data-testid="site-banner">
      <h2 id={headingId}>{banner.title[language]}</h2>
      <p>{banner.body[language]}</p>
      {link ? (
        <p>
          {link.startsWith('/') ? <Link to={link}>{t('more')}</Link> : <a href={link} rel="noopener">{t('more')}</a>}
        </p>
      ) : null}
      {answer && 'failed' in answer ? (
        <p className="field-error" role="alert">
          {t(answer.failed === 'refused' ? 'common:impersonation.refused' : 'notHidden')}
        </p>
      ) : null}
      <fetcher.Form method="post" action="/resources/banner-dismissal" className="button-row">
        <input type="hidden" name="id" value={banner.id} />
        <input type="hidden" name="hash" value={banner.content_hash} />
        <input type="hidden" name="days" value={banner.dismiss_days ?? ''} />
        <input type="hidden" name="returnTo" value={location.pathname + location.search} />
        {hydrated ? <input type="hidden" name="inPlace" value="1" /> : null}
        <SubmitButton pending="working" className="button button--secondary" aria-describedby={headingId}>
          {t('hide')}
        </SubmitButton>
      </fetcher.Form>
    </section>
  )
}
