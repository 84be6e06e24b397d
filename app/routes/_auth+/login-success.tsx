import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { clearSignInState, cookieSecurity, getAuthenticator, returnToCookie, startSession } from '#app/utils/auth.server.ts'
import { safeRedirectPath } from '#app/utils/redirect.ts'
import { setToast } from '#app/utils/toast.server.ts'

/** A sign-in that did not finish offers to start again (the toast waits for the member). */
const tryAgain = { to: '/login', key: 'auth.tryAgain' }

/** The identity provider comes back here with a code; we exchange it and open a session. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  if (url.searchParams.get('error')) {
    // The member cancelled or the provider refused: back home, nothing lost.
    throw redirect('/', { headers: { 'Set-Cookie': await setToast(context, { kind: 'info', key: 'auth.signInCancelled', action: tryAgain }) } })
  }
  let tokens
  try {
    tokens = await getAuthenticator(context).authenticator.authenticate('oidc', request)
  } catch (error) {
    if (error instanceof Response) throw error
    context.services.log('warn', 'Sign-in callback failed', { error: String(error), requestId: context.requestId })
    throw redirect('/', { headers: { 'Set-Cookie': await setToast(context, { kind: 'error', key: 'auth.signInFailed', action: tryAgain }) } })
  }
  const { user, cookie } = await startSession(request, context, tokens)
  const returnTo = safeRedirectPath((await returnToCookie.parse(request.headers.get('Cookie'))) as string | null)
  const headers = new Headers()
  headers.append('Set-Cookie', cookie)
  headers.append('Set-Cookie', await returnToCookie.serialize('', { ...cookieSecurity(context), maxAge: 0 }))
  for (const cleared of clearSignInState(request, context)) headers.append('Set-Cookie', cleared)
  if (!user.onboarded) return redirect('/get-started', { headers })
  headers.append('Set-Cookie', await setToast(context, { kind: 'success', key: 'auth.signedIn' }))
  return redirect(returnTo === '/' ? '/welcome-back' : returnTo, { headers })
}
