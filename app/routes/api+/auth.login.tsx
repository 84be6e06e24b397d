import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { cookieSecurity, getAuthenticator, returnToCookie } from '#app/utils/auth.server.ts'
import { detectLanguage } from '#app/utils/i18next.server.ts'
import { safeRedirectPath } from '#app/utils/redirect.ts'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const returnTo = safeRedirectPath(url.searchParams.get('returnTo'))
  const language = await detectLanguage(request, context)
  // The strategy reads screen_hint and ui_locales from the request to pass them on.
  const forwarded = new URL('/api/auth/login', url)
  if (url.searchParams.get('screen_hint') === 'signup') forwarded.searchParams.set('screen_hint', 'signup')
  if (url.searchParams.get('prompt') === 'login') forwarded.searchParams.set('prompt', 'login')
  forwarded.searchParams.set('ui_locales', language)
  try {
    await getAuthenticator(context).authenticator.authenticate('oidc', new Request(forwarded, { headers: request.headers }))
  } catch (response) {
    if (response instanceof Response && response.status >= 300 && response.status < 400) {
      response.headers.append('Set-Cookie', await returnToCookie.serialize(returnTo, cookieSecurity(context)))
      // The provider is not a Remix route: after hydration the browser must load it as a document.
      response.headers.set('X-Remix-Reload-Document', 'true')
      throw response
    }
    throw response
  }
  return redirect('/')
}
