import { redirect, type AppLoadContext } from '@remix-run/node'
import { z } from 'zod'
import { siteCookie } from './cookies.server.ts'

/**
 * Where a member is on the sign-in pages of one interaction (issue 12 §4): the email they typed
 * and which code, if any, was sent to it. Kept in a short signed cookie so that a reload, or
 * coming back from the mail app, lands on the code step again (the page after a code is sent is
 * a redirect, not a POST answer the browser would have to send again), and so that the email
 * typed on one page fills in the next. Tied to the interaction: another sign-in ignores it.
 */
const stepSchema = z.object({
  uid: z.string(),
  email: z.string().max(254),
  sent: z.enum(['sign_in', 'sign_up']).nullable(),
})
export type IdentityStep = z.infer<typeof stepSchema>

/** As long as an interaction lives (api/identity/provider.ts, ttl.Interaction). */
const stepMaxAgeSeconds = 60 * 60

function stepCookie(context: AppLoadContext) {
  return siteCookie(context, 'identity-step', stepMaxAgeSeconds)
}

/** The step kept for this interaction, or null (none, another interaction's, or tampered with). */
export async function readIdentityStep(request: Request, context: AppLoadContext, uid: string): Promise<IdentityStep | null> {
  const parsed = stepSchema.safeParse(await stepCookie(context).parse(request.headers.get('Cookie')))
  return parsed.success && parsed.data.uid === uid ? parsed.data : null
}

/** Goes to `to` remembering the step, so that reloading `to` shows it again. */
export async function redirectWithStep(context: AppLoadContext, to: string, step: IdentityStep) {
  return redirect(to, { headers: { 'Set-Cookie': await stepCookie(context).serialize(step) } })
}

/** Forgets the step (and the email typed) once the sign-in has come back, done or cancelled. */
export async function clearIdentityStep(context: AppLoadContext) {
  return stepCookie(context).serialize('', { maxAge: 0 })
}
