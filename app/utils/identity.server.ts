import { data, redirect, type AppLoadContext } from '@remix-run/node'
import type { IdentityBridge } from './load-context.ts'

/** The built-in identity provider's bridge; 404 when Auth0 serves sign-in instead. */
export function requireIdentity(context: AppLoadContext): IdentityBridge {
  const identity = context.services.identity
  if (!identity) throw data(null, { status: 404 })
  return identity
}

/** The interaction behind /identity/:uid; an expired one starts sign-in again. */
export async function requireInteraction(context: AppLoadContext, uid: string | undefined) {
  const identity = requireIdentity(context)
  const interaction = uid ? await identity.interaction(uid) : null
  if (!interaction) throw redirect('/login')
  return { identity, interaction }
}

/** Finishes sign-in: the browser goes back to the provider, then to /login-success. */
export async function completeSignIn(context: AppLoadContext, uid: string, accountId: string) {
  const url = await requireIdentity(context).finish(uid, accountId)
  return redirect(url)
}
