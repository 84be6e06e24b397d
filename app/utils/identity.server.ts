import { data, redirect, redirectDocument, type AppLoadContext } from '@remix-run/node'
import { keepFormOnOutage } from './forms.server.ts'
import type { CodeCheckError, IdentityBridge, InteractionDetails, SendCodeError } from './load-context.ts'

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

/**
 * A sign-in page's action: the caller has read the form already, so that with the database down
 * the page answers `kept()` (503, what the member typed) instead of losing it; `work` runs with
 * the interaction behind /identity/:uid.
 */
export function interactionAction<T, R>(
  context: AppLoadContext,
  uid: string | undefined,
  work: (identity: IdentityBridge, interaction: InteractionDetails) => Promise<T>,
  kept: () => R,
) {
  return keepFormOnOutage(
    context,
    async () => {
      const { identity, interaction } = await requireInteraction(context, uid)
      return work(identity, interaction)
    },
    kept,
  )
}

/**
 * A two-step page's step and the email typed, read from what was sent, valid or not. "Send a new
 * code" (`resend`) is asked for from the second step, and stays there.
 */
export function sentStep<First extends string, Second extends string>(payload: Record<string, unknown>, first: First, second: Second) {
  const onSecond = payload.intent === second || payload.intent === 'resend'
  return { step: onSecond ? second : first, email: typeof payload.email === 'string' ? payload.email : '' }
}

/** A code that was not accepted: the message (next to the code field) and the status. */
export function codeErrorReply(error: CodeCheckError) {
  if (error === 'too_many') return { key: 'auth:errors.tooManyAttempts', status: 429 }
  return { key: error === 'expired' ? 'auth:code.expired' : 'auth:code.invalid', status: 400 }
}

/** A code email that did not go out: the message and status (429 too many, 503 mail down). */
export function sendErrorReply(error: SendCodeError) {
  return error === 'too_many'
    ? { key: 'auth:errors.tooManyAttempts', status: 429 }
    : { key: 'auth:errors.emailNotSent', status: 503 }
}
