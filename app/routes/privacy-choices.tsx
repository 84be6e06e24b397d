import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { analyticsMode, consentLanguages, privacySignals } from '#contract/analytics.ts'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { consentCookie, consentFromCookie } from '#app/utils/analytics.server.ts'
import { getApi, getOptionalUser, isImpersonating } from '#app/utils/auth.server.ts'
import { formPageHeaders, formText } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { safeRedirectPath } from '#app/utils/redirect.ts'
import { useRootData } from '#app/utils/root-data.ts'
import { commitSession, getSession } from '#app/utils/session.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/**
 * `/privacy-choices` (issue 32 §5, decision 081), linked from every page's footer: what Circle 55
 * counts, whether the browser's Global Privacy Control or Do Not Track is honoured, and the choice
 * (Accept or Refuse, equal weight), for anyone, signed in or not, without JavaScript too. The
 * answer goes in a first-party cookie, and on a member's account. The consent question shown in
 * French and Dutch posts here too and comes back to its page.
 */
export const headers = formPageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'analytics')
  const signals = privacySignals(request.headers)
  return { title: t('page.title'), gpc: signals.gpc, dnt: signals.dnt, cookieChoice: consentFromCookie(request) }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData()
  const choice = formText(form, 'choice')
  if (choice !== 'granted' && choice !== 'refused') return data({ error: 'choice.invalid' }, { status: 400 })
  // Staff viewing as a member do not answer for them (the API refuses it too).
  if (await isImpersonating(request, context)) return data({ error: 'choice.impersonating' }, { status: 403 })
  const headers = new Headers()
  headers.append('Set-Cookie', consentCookie(choice, context))
  const user = await getOptionalUser(request, context)
  if (user) {
    await getApi(request, context).analytics.saveConsent(choice)
    const session = await getSession(request, context)
    session.set('analyticsConsent', choice)
    headers.append('Set-Cookie', await commitSession(session, context))
  }
  const back = safeRedirectPath(formText(form, 'returnTo'), '/privacy-choices')
  return redirectWithToast(context, back, 'analytics:saved', headers)
}

export default function PrivacyChoices() {
  const { gpc, dnt, cookieChoice } = useLoaderData<typeof loader>()
  const refused = useActionData<typeof action>()
  const root = useRootData()
  const { t, i18n } = useTranslation('analytics')
  const choice = root?.analytics.choice ?? cookieChoice
  const language = root?.language ?? i18n.language
  const signalled = gpc || dnt
  const counted = analyticsMode({ signals: { gpc, dnt }, choice, language }) === 'full'
  const status = signalled ? 'signal' : choice ?? (consentLanguages.includes(language) ? 'unansweredAsked' : 'unanswered')
  return (
    <div className="prose">
      <h1>{t('page.title')}</h1>
      <p className="lead">{t('page.intro')}</p>
      <h2>{t('page.whatHeading')}</h2>
      <ul>
        <li>{t('page.what.pages')}</li>
        <li>{t('page.what.events')}</li>
        <li>{t('page.what.never')}</li>
        <li>{t('page.what.kept')}</li>
      </ul>
      <h2>{t('page.choiceHeading')}</h2>
      {signalled ? (
        <div className="notice notice--success">
          <p>{t(gpc ? 'page.gpcHonoured' : 'page.dntHonoured')}</p>
        </div>
      ) : null}
      <p data-testid="consent-status">{t(`page.status.${status}`)}</p>
      <p>{t(counted ? 'page.effect.full' : 'page.effect.anonymous')}</p>
      {refused ? (
        <div className="notice notice--error" role="alert">
          <p>{t(refused.error)}</p>
        </div>
      ) : null}
      <Form method="post" className="button-row">
        <SubmitButton className="button button--secondary" name="choice" value="granted" pending="saving">
          {t('choice.accept')}
        </SubmitButton>
        <SubmitButton className="button button--secondary" name="choice" value="refused" pending="saving">
          {t('choice.refuse')}
        </SubmitButton>
      </Form>
      <p>{t('page.account')}</p>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
