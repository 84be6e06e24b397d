import { redirect, redirectDocument, type LoaderFunctionArgs } from '@remix-run/node'
import { getOptionalUser, returnToFrom } from '#app/utils/auth.server.ts'

/** Spec §2 Login: hands over to the identity provider through /api/auth/login. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const returnTo = returnToFrom(request)
  if (await getOptionalUser(request, context)) throw redirect(returnTo)
  return redirectDocument(`/api/auth/login?returnTo=${encodeURIComponent(returnTo)}`)
}
