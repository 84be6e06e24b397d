import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { clearSignInState, cookieSecurity, getApi, getAuthenticator, returnToCookie, startSession } from '#app/utils/auth.server.ts'
import { recordArrival } from '#app/utils/referrals.server.ts'
import { resumeOnboardingPath } from '#app/utils/onboarding.server.ts'
import { clearIdentityStep } from '#app/utils/identity-step.server.ts'
import { pathWithReturnTo, safeRedirectPath } from '#app/utils/redirect.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/** Signing in again, back to where the member was. */
function tryAgain(returnTo: string) {
  return { to: pathWithReturnTo('/login', returnTo), key: 'auth.tryAgain' }
}

/**
 * The identity provider comes back here with a code; we exchange it and open a session. Then the
 * member goes back to where they were (`returnTo`, decision 020): through onboarding first when
 * new, through /welcome-back after a long absence, straight there otherwise. A sign-in that did
 * not finish goes Home and offers to start again (the toast waits for the member).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const returnTo = safeRedirectPath((await returnToCookie.parse(request.headers.get('Cookie'))) as string | null)
  const headers = new Headers()
  headers.append('Set-Cookie', await returnToCookie.serialize('', { ...cookieSecurity(context), maxAge: 0 }))
  headers.append('Set-Cookie', await clearIdentityStep(context))
  if (url.searchParams.get('error')) {
    // The member cancelled ("Cancel and go back") or the provider refused: Home, nothing lost, and
    // "Try again" goes back to where they were. Not to returnTo itself: a members-only page
    // would send them straight back to the sign-in they just left.
    throw await redirectWithToast(context, '/', { kind: 'info', key: 'auth.signInCancelled', action: tryAgain(returnTo) }, headers)
  }
  let tokens
  try {
    tokens = await getAuthenticator(context).authenticator.authenticate('oidc', request)
  } catch (error) {
    if (error instanceof Response) throw error
    context.services.log('warn', 'Sign-in callback failed', { error: String(error), requestId: context.requestId })
    throw await redirectWithToast(context, '/', { kind: 'error', key: 'auth.signInFailed', action: tryAgain(returnTo) }, headers)
  }
  const { user, cookie, welcomeBack } = await startSession(request, context, tokens)
  headers.append('Set-Cookie', cookie)
  // Where the member came from (decision 087): their browser for the referral checks and, for a
  // new account, the invite it followed and its campaign, recorded with it once; cookies cleared.
  for (const set of await recordArrival(request, context, getApi(request, context), tokens.accessToken)) headers.append('Set-Cookie', set)
  for (const cleared of clearSignInState(request, context)) headers.append('Set-Cookie', cleared)
  // A member who stopped halfway through onboarding resumes at their step (issue 13 §6).
  const resume = resumeOnboardingPath(user)
  if (resume) return redirect(pathWithReturnTo(resume, returnTo), { headers })
  if (welcomeBack) return redirect(pathWithReturnTo('/welcome-back', returnTo), { headers })
  return redirectWithToast(context, returnTo, 'auth.signedIn', headers)
}
