import { data, redirect, redirectDocument, type AppLoadContext } from '@remix-run/node'
import type { CodeCheckError, IdentityBridge, SendCodeError } from './load-context.ts'

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

/**
 * Finishes sign-in: the browser goes back to the provider, then to /login-success. The provider
 * is not a Remix route, so the redirect is a full document load even after hydration.
 */
export async function completeSignIn(context: AppLoadContext, uid: string, accountId: string) {
  const url = await requireIdentity(context).finish(uid, accountId)
  return redirectDocument(url)
}

/** Abandons sign-in (the provider answers the app with access_denied), as a full document load. */
export async function abortSignIn(context: AppLoadContext, uid: string) {
  return redirectDocument(await requireIdentity(context).abort(uid))
}

/** The message for a code that was not accepted (next to the code field). */
export function codeErrorKey(error: CodeCheckError) {
  if (error === 'too_many') return 'auth:errors.tooManyAttempts'
  return error === 'expired' ? 'auth:code.expired' : 'auth:code.invalid'
}

/** A code email that did not go out: the message and status (429 too many, 503 mail down). */
export function sendErrorReply(error: SendCodeError) {
  return error === 'too_many'
    ? { key: 'auth:errors.tooManyAttempts', status: 429 }
    : { key: 'auth:errors.emailNotSent', status: 503 }
}
