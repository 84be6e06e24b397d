import { ApiProblem } from '../http/errors.ts'

/**
 * What a staff member may do while viewing Circle 55 as a member (issue 32 §2, decision 078): a
 * policy state of the request, checked for every call before its route runs.
 * - Viewing (the default) reads only: every call but a read is refused, except stopping and (for
 *   a role that may) switching to acting, which are the impersonation's own.
 * - Acting on the member's behalf (support, for a stated reason) may do what the member may,
 *   except what is always refused: their cards and payments (a fee's payment and dispute, premium),
 *   their email, phone and sign-in sessions, their privacy (analytics) choice, their permission to be called about Medicare plans, deleting their account, identity verification, and
 *   sending messages as them (chat, direct messages, the support conversation). Agreeing to a
 *   no-show fee when saving a seat is refused by the seat's own rule (`refuseWhileImpersonating`).
 * Every refusal is 403 `impersonation_refused`, the same in both modes.
 */
export type ImpersonationMode = 'viewing' | 'acting'

const own: ReadonlyArray<[string, RegExp]> = [
  ['DELETE', /^\/v1\/impersonation$/],
  ['POST', /^\/v1\/impersonation\/acting$/],
]

const alwaysRefused: ReadonlyArray<RegExp> = [
  /^\/v1\/payment-methods(\/|$)/,
  /^\/v1\/payments\//,
  /^\/v1\/fees\/[^/]+\/(pay|dispute)$/,
  /^\/v1\/subscriptions(\/|$)/,
  /^\/v1\/users\/me\/email-change(\/|$)/,
  /^\/v1\/users\/me\/phone(\/|$)/,
  /^\/v1\/users\/me\/sessions$/,
  /^\/v1\/users\/me\/analytics-consent$/,
  // Permission to be called about Medicare plans (decision 086): given, changed and stopped by the member alone.
  /^\/v1\/users\/me\/medicare$/,
  /^\/v1\/users\/[^/]+$/,
  /^\/v1\/verification(\/|$)/,
  /^\/v1\/chat\/message-channels\/[^/]+\/messages$/,
  /^\/users\/message-channels$/,
  /^\/v1\/support\/message-channel$/,
  /^\/v1\/admin\//,
]

/** A read: nothing changes. */
const isRead = (method: string) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS'

/** Whether a call (its method and its path under `/api`) is refused while impersonating in `mode`. */
export function refusedWhileImpersonating(mode: ImpersonationMode, method: string, path: string): boolean {
  if (isRead(method)) return false
  if (own.some(([ownMethod, pattern]) => ownMethod === method && pattern.test(path))) return false
  if (mode === 'viewing') return true
  // `PUT v1/users/me` (the profile) is the member's own to change when acting; deleting an account is not.
  if (method === 'PUT' && path === '/v1/users/me') return false
  return alwaysRefused.some((pattern) => pattern.test(path))
}

export const impersonationRefused = () =>
  new ApiProblem(403, 'impersonation_refused', 'This cannot be done while viewing Circle 55 as a member.')
