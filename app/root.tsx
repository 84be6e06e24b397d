// First: zod must be told not to compile before any module creates a schema (zod-config.ts).
import './utils/zod-config.ts'
import {
  data,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from '@remix-run/react'
import { Suspense, useEffect, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useChangeLanguage } from 'remix-i18next/react'
import { BottomNav } from './components/bottom-nav.tsx'
import { GeneralErrorBoundary } from './components/general-error-boundary.tsx'
import { SiteFooter } from './components/site-footer.tsx'
import { SiteHeader } from './components/site-header.tsx'
import { ImpersonationBanner } from './components/impersonation-banner.tsx'
import { FlashStatus, ToastRegion } from './components/toast.tsx'
import appStyles from './styles/app.css?url'
import { getApi, getAuthState, isImpersonating } from './utils/auth.server.ts'
import { ChatLiveProvider, isNotSent, useChatLive } from './utils/chat-live.tsx'
import { errorPageKind } from './utils/error-page.ts'
import { startBrowserErrorReporting } from './utils/error-reporting.client.ts'
import { fallbackLanguage, translationsPath } from './utils/i18n.ts'
import { detectLanguage, getT } from './utils/i18next.server.ts'
import { pageTitle } from './utils/meta.ts'
import { useNonce } from './utils/nonce.ts'
import { themeColor } from './utils/theme.ts'
import { commitSession, destroySession, getSession } from './utils/session.server.ts'
import { takeToast } from './utils/toast.server.ts'
import { shellMember, type RootData } from './utils/root-data.ts'
import { analyticsShell } from './utils/analytics.server.ts'
import { campaignCookie } from './utils/referrals.server.ts'
import { ConsentChoice } from './components/consent-choice.tsx'
import { SegmentPages } from './components/segment-pages.tsx'
import { defaultOutsideLinks } from '#contract/outside-links.ts'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: appStyles },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  // The installable app (decision 045).
  { rel: 'manifest', href: '/manifest.webmanifest' },
  { rel: 'apple-touch-icon', href: '/icons/apple-touch-icon.png' },
]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await getAuthState(request, context)
  const user = auth.status === 'signed-in' ? auth.user : null
  const language = await detectLanguage(request, context, user?.locale)
  const { toast, clear } = await takeToast(request, context)
  const headers = new Headers()
  if (clear) headers.append('Set-Cookie', clear)
  if (context.sessionRenewed && !context.sessionEnded) {
    // Activity extends the session cookie: members stay signed in for 30 days of use.
    headers.append('Set-Cookie', await commitSession(await getSession(request, context), context))
  }
  if (context.sessionEnded) {
    headers.append('Set-Cookie', await destroySession(await getSession(request, context), context))
  }
  const t = await getT(request, context)
  // Viewing as a member (decision 078): the banner's facts, asked as every call of this page is.
  const impersonation = user && (await isImpersonating(request, context)) ? await getApi(request, context).staff.impersonation() : null
  // Consent and what follows from it (decision 081): ask in French or Dutch, honour GPC and DNT.
  const analytics = await analyticsShell(request, context, { user, language, impersonating: impersonation !== null, headers, readAccount: () => getApi(request, context).analytics.consent() })
  // The sign-up tracking cookie (spec §5, decision 087): a visitor's campaign, only where analytics may record them.
  const campaign = await campaignCookie(request, context, { language, choice: analytics.choice, signedIn: user !== null, impersonating: impersonation !== null })
  if (campaign) headers.append('Set-Cookie', campaign)
  return data(
    {
      brand: t('brand'),
      titlePrefix: context.formError ? `${t('form.errorTitlePrefix')} ` : '',
      language,
      user: user ? shellMember(user) : null,
      // The header's and the bottom navigation's badges, read with the member (decision 052).
      unread: user?.badges?.messages ?? 0,
      notifications: user?.badges?.notifications ?? 0,
      suspended: auth.status === 'suspended',
      toast: auth.status === 'suspended' ? { kind: 'error' as const, key: 'errors.user_suspended' } : toast,
      year: new Date().getFullYear(),
      // Browser errors go to Sentry only when the server reports to it (decision 014).
      sentryDsn: context.services.config.sentryDsn,
      payments: context.services.config.payments !== false,
      impersonation,
      analytics,
      links: context.services.config.links ?? defaultOutsideLinks,
    } satisfies RootData,
    { headers },
  )
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root')
  const error = useRouteError()
  const { t, i18n } = useTranslation()
  const nonce = useNonce()
  const language = data?.language ?? i18n.language ?? 'en'
  const sentryDsn = data?.sentryDsn
  useEffect(() => {
    void startBrowserErrorReporting(sentryDsn)
  }, [sentryDsn])
  return (
    <html lang={language} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={themeColor} />
        <Meta />
        {/* The translations the scripts wait for before hydrating (decision 059), fetched beside them. */}
        {[...new Set([language, fallbackLanguage])].map((lng) => (
          <link key={lng} rel="preload" href={translationsPath(lng)} as="fetch" crossOrigin="anonymous" />
        ))}
        {/* The root loader failed, so meta has no translations: the error page's title is written here. */}
        {error && !data ? <title>{`${t(`errorPage.${errorPageKind(isRouteErrorResponse(error) ? error.status : 500)}.title`)} – ${t('brand')}`}</title> : null}
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

export default function App() {
  const loaded = useLoaderData<typeof loader>()
  // One live chat stream per tab for signed-in members (decision 035): the badge, and /messenger.
  return (
    <ChatLiveProvider enabled={loaded.user !== null && !loaded.suspended} revision={loaded}>
      <AppShell />
    </ChatLiveProvider>
  )
}

function AppShell() {
  const { language, user, unread: loadedUnread, notifications: loadedNotifications, toast, year, suspended, impersonation, analytics } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  useChangeLanguage(language)
  const live = useChatLive()
  const unread = live.unread ?? loadedUnread
  const notifications = live.notifications ?? loadedNotifications
  return (
    <>
      {impersonation ? <ImpersonationBanner impersonation={impersonation} /> : null}
      <a href="#main-content" className="skip-link">
        {t('skipLink')}
      </a>
      <SiteHeader user={user} unread={unread} notifications={notifications} />
      {analytics.ask ? <ConsentChoice /> : null}
      <SegmentPages writeKey={analytics.segmentWriteKey} memberId={user?.id ?? null} />
      {suspended ? (
        <div className="container">
          <div className="notice notice--error" role="alert">
            <p>{t('errors.user_suspended')}</p>
          </div>
        </div>
      ) : null}
      <main id="main-content" tabIndex={-1} className="container">
        <FlashStatus toast={suspended ? null : toast} />
        {/* A click waits for the next page's translations inside Remix's transition; this only
            shows if something else renders a part whose translations are still on their way. */}
        <Suspense fallback={<p role="status">{t('loading')}</p>}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter year={year} />
      <BottomNav user={user} unread={unread} />
      <ToastRegion toast={suspended ? null : toast} />
    </>
  )
}

/**
 * A message the browser could not send (the network failed, decision 035) changed nothing:
 * reloading would only fail the same way and turn the page into an error page.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  isNotSent(actionResult) ? false : defaultShouldRevalidate

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, undefined)

/**
 * The document shell when the root itself failed (its loader, or a page with no boundary of its
 * own): a plain header, since the member may be unknown, and the general error page.
 */
export function ErrorBoundary() {
  const { t } = useTranslation()
  return (
    <>
      <a href="#main-content" className="skip-link">
        {t('skipLink')}
      </a>
      <header className="site-header">
        <div className="container site-header__inner">
          <Link to="/" className="brand">
            {t('brand')}
          </Link>
        </div>
      </header>
      <main id="main-content" tabIndex={-1} className="container">
        <GeneralErrorBoundary />
      </main>
    </>
  )
}
