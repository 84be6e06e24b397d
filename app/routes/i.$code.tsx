import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { normalizeReferralCode } from '#contract/referral-code.ts'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, getOptionalUser } from '#app/utils/auth.server.ts'
import { deviceOf, inviteActivity, keepInvite } from '#app/utils/referrals.server.ts'

/**
 * `/i/{code}`: a member's invite link (decision 087), optionally for an activity (`?activity=`,
 * "Invite a friend"). The opening is counted by the API; the visitor keeps the invite in the
 * first-party `ref` cookie (the referral banner reads it, and the sign-up that may follow records
 * it) and goes to Home, or to the activity. A member already signed in just goes there; a code
 * that is nobody's (any more), or whose member has referrals turned off (the `referrals` flag: the
 * API neither counts it nor knows it), keeps nothing. Opening it again tells nobody anything.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const activity = inviteActivity(url.searchParams.get('activity'))
  const to = activity ? `/activities/${activity}` : '/'
  const code = normalizeReferralCode(params.code)
  const headers = new Headers({ 'Cache-Control': 'private, no-store' })
  if (!code || (await getOptionalUser(request, context))) return redirect(to, { headers })
  const known = await getApi(request, context)
    .referrals.click(code)
    .then(
      () => true,
      (error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return false
        // Not worth losing the invite over: the sign-up checks the code again.
        context.services.log('warn', 'Counting an invite link’s opening failed', {
          error: String(error),
          requestId: context.requestId,
        })
        return true
      },
    )
  if (known) {
    headers.append('Set-Cookie', await keepInvite(context, { code, activity }))
    const device = await deviceOf(request, context)
    if (device.setCookie) headers.append('Set-Cookie', device.setCookie)
  }
  return redirect(to, { headers })
}
