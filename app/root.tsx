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
} from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useChangeLanguage } from 'remix-i18next/react'
import { BottomNav } from './components/bottom-nav.tsx'
import { SiteFooter } from './components/site-footer.tsx'
import { SiteHeader } from './components/site-header.tsx'
import { ToastRegion } from './components/toast.tsx'
import appStyles from './styles/app.css?url'
import { getAuthState } from './utils/auth.server.ts'
import { detectLanguage, getT } from './utils/i18next.server.ts'
import { useNonce } from './utils/nonce.ts'
import { commitSession, destroySession, getSession } from './utils/session.server.ts'
import { takeToast } from './utils/toast.server.ts'

export const handle = { i18n: ['common'] }

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: appStyles },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
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
  return data(
    {
      brand: t('brand'),
      titlePrefix: context.formError ? `${t('form.errorTitlePrefix')} ` : '',
      language,
      user,
      suspended: auth.status === 'suspended',
      toast: auth.status === 'suspended' ? { kind: 'error' as const, key: 'errors.user_suspended' } : toast,
      year: new Date().getFullYear(),
    },
    { headers },
  )
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root')
  const { i18n } = useTranslation()
  const nonce = useNonce()
  const language = data?.language ?? i18n.language ?? 'en'
  return (
    <html lang={language} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
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
  const { language, user, toast, year, suspended } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  useChangeLanguage(language)
  return (
    <>
      <a href="#main-content" className="skip-link">
        {t('skipLink')}
      </a>
      <SiteHeader user={user} />
      {suspended ? (
        <div className="container">
          <div className="notice notice--error" role="alert">
            <p>{t('errors.user_suspended')}</p>
          </div>
        </div>
      ) : null}
      <main id="main-content" tabIndex={-1} className="container">
        <Outlet />
      </main>
      <SiteFooter year={year} />
      <BottomNav user={user} />
      <ToastRegion toast={suspended ? null : toast} />
    </>
  )
}

export const meta: MetaFunction = () => [{ title: 'Circle 55' }]

export function ErrorBoundary() {
  const error = useRouteError()
  const { t } = useTranslation()
  const status = isRouteErrorResponse(error) ? error.status : 500
  const kind = status === 404 ? 'notFound' : status === 503 ? 'unavailable' : status === 403 ? 'forbidden' : status === 413 ? 'tooLarge' : 'generic'
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
      <main id="main-content" tabIndex={-1} className="container prose">
        <title>{`${t(`errorPage.${kind}.title`)} – ${t('brand')}`}</title>
        <h1>{t(`errorPage.${kind}.title`)}</h1>
        <p>{t(`errorPage.${kind}.body`)}</p>
        <p>
          <Link to="/">{t('errorPage.home')}</Link>
        </p>
      </main>
    </>
  )
}
