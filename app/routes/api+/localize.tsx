import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { getApi, getOptionalUser } from '#app/utils/auth.server.ts'
import { isLanguage, languages } from '#app/utils/i18n.ts'
import { detectLanguage, languageCookie } from '#app/utils/i18next.server.ts'
import { safeRedirectPath } from '#app/utils/redirect.ts'

/**
 * Spec §2 localisation endpoint. GET reports the current and supported languages; POST (the
 * language switcher, no JavaScript needed) saves the choice in a cookie and, for a signed-in
 * member, on their account, then goes back to the page.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return data({ language: await detectLanguage(request, context), languages }, { headers: { 'Cache-Control': 'no-store' } })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData()
  const language = form.get('lng')
  const target = form.get('returnTo')
  const returnTo = safeRedirectPath(typeof target === 'string' ? target : '/')
  if (!isLanguage(language)) throw data({ error: 'Unsupported language' }, { status: 400 })
  if (await getOptionalUser(request, context)) {
    await getApi(request, context).users.updateMe({ locale: language })
  }
  return redirect(returnTo, { headers: { 'Set-Cookie': await languageCookie.serialize(language) } })
}
