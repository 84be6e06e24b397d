import { data, redirect, type ActionFunctionArgs } from '@remix-run/node'
import { ApiError } from '#app/utils/api.server.ts'
import { rememberDismissal } from '#app/utils/banners.server.ts'
import { getApi, getOptionalUser } from '#app/utils/auth.server.ts'
import { formText } from '#app/utils/forms.server.ts'
import { safeRedirectPath } from '#app/utils/redirect.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { maxBannerDays } from '#contract/banners.ts'

/**
 * "Hide this message" on a banner (issue 32 §4, decision 084): a plain POST that comes back to
 * the page; with JavaScript the banner posts here in place (`inPlace=1`) and hides itself. A
 * member's dismissal is the API's (`PUT v1/users/me/popups`), a visitor's this site's cookie.
 */
export type BannerDismissalAnswer = { done: true } | { failed: 'refused' | 'unavailable' }

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData()
  const id = formText(form, 'id')
  const hash = formText(form, 'hash')
  const days = Number(formText(form, 'days') || '0')
  const returnTo = safeRedirectPath(formText(form, 'returnTo'))
  const inPlace = form.get('inPlace') === '1'
  if (!/^[0-9a-f-]{36}$/i.test(id) || !/^[\w-]{1,40}$/.test(hash) || !Number.isInteger(days) || days < 0 || days > maxBannerDays) {
    throw data(null, { status: 400 })
  }
  const user = await getOptionalUser(request, context)
  const headers = new Headers()
  if (user) {
    try {
      await getApi(request, context).popups.dismiss({ type: 'BANNER', banner_id: id })
    } catch (error) {
      if (!(error instanceof ApiError) || (error.status !== 403 && error.status !== 404 && error.status < 500)) throw error
      // Gone already: nothing left to hide. Refused (staff viewing as the member) or unavailable: say so.
      if (error.status !== 404) {
        const failed = error.status === 403 ? 'refused' : 'unavailable'
        if (inPlace) return data({ failed } satisfies BannerDismissalAnswer, { status: error.status === 403 ? 403 : 503 })
        return redirectWithToast(context, returnTo, failed === 'refused' ? 'common:impersonation.refused' : 'banners:notHidden')
      }
    }
  } else {
    headers.append('Set-Cookie', await rememberDismissal(request, context, { id, content_hash: hash, dismiss_days: days || null }))
  }
  if (inPlace) return data({ done: true } satisfies BannerDismissalAnswer, { headers })
  return redirect(returnTo, { headers })
}
