import { data, redirect, redirectDocument, type AppLoadContext } from '@remix-run/node'
import { codeRefused, refuse } from './form-action.server.ts'
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

/** A code that was not accepted: the message next to the code field, and the status. */
export function codeRefusal(error: CodeCheckError) {
  if (error === 'too_many') return codeRefused(429, 'auth:errors.tooManyAttempts')
  return codeRefused(400, error === 'expired' ? 'auth:code.expired' : 'auth:code.invalid')
}

/** A code email that did not go out: the message above the form and the status (429 too many, 503 mail down). */
export function sendRefusal(error: SendCodeError) {
  return error === 'too_many' ? refuse(429, { formErrors: ['auth:errors.tooManyAttempts'] }) : refuse(503, { formErrors: ['auth:errors.emailNotSent'] })
}
