import { redirect, type ActionFunctionArgs } from '@remix-run/node'
import { signOut } from '#app/utils/auth.server.ts'

/** Spec §2 sign-out endpoint: POST ends the session; a GET goes harmlessly to the confirm page. */
export async function loader() {
  return redirect('/logout')
}

export async function action({ request, context }: ActionFunctionArgs) {
  return signOut(request, context)
}
