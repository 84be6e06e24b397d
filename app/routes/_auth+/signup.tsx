import { redirect, redirectDocument, type LoaderFunctionArgs } from '@remix-run/node'
import { getOptionalUser, returnToFrom } from '#app/utils/auth.server.ts'

/** Spec §2 Signup: the identity provider's sign-up screen (`screen_hint=signup`). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const returnTo = returnToFrom(request)
  if (await getOptionalUser(request, context)) throw redirect(returnTo)
  return redirectDocument(`/api/auth/login?screen_hint=signup&returnTo=${encodeURIComponent(returnTo)}`)
}
