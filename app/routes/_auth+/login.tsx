import { redirect, redirectDocument, type LoaderFunctionArgs } from '@remix-run/node'
import { getOptionalUser, returnToFrom } from '#app/utils/auth.server.ts'

/**
 * Spec §2 Login: hands over to the identity provider through /api/auth/login. `?fresh=1` asks for
 * the password again even when signed in (`prompt=login`): a staff member about to view Circle 55
 * as a member must have signed in within 15 minutes (decision 078).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const returnTo = returnToFrom(request)
  const fresh = new URL(request.url).searchParams.get('fresh') === '1'
  if (!fresh && (await getOptionalUser(request, context))) throw redirect(returnTo)
  return redirectDocument(`/api/auth/login?returnTo=${encodeURIComponent(returnTo)}${fresh ? '&prompt=login' : ''}`)
}
