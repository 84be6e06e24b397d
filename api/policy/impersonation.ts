import type { Context } from 'hono'
import { matchedRoutes } from 'hono/route'
import { ApiProblem } from '../http/errors.ts'

/**
 * What a staff member may do while viewing Circle 55 as a member (issue 32 §2, decision 078): a
 * policy state of the request, checked for every call before its route runs.
 * - Viewing (the default) reads only: every call but a read is refused, except the
 *   impersonation's own (stopping, and switching to acting for a role that may).
 * - Acting on the member's behalf (support, for a stated reason) may make the changes listed
 *   `acting` below, and nothing else. Deny by default: a call that changes something and is not
 *   listed is refused, and `impersonation.test.ts` fails until every documented change is decided.
 * Agreeing to a no-show fee when saving a seat is refused by the seat's own rule
 * (`refuseWhileImpersonating`), as it is in the body. Every refusal is 403
 * `impersonation_refused`, the same in both modes.
 */
export type ImpersonationMode = 'viewing' | 'acting'

type WhileImpersonating = 'own' | 'acting' | 'never'

/**
 * Every documented call that changes something (method and path template), decided once:
 * - `own`: the impersonation's own calls;
 * - `acting`: what staff acting on the member's behalf may change for them: their profile and
 *   photos, their activities and seats, their notification settings, whom they block;
 * - `never`: the member's alone, whatever the mode: cards, payments, fees' payment and dispute,
 *   premium; email, phone, sign-in and sessions; deleting the account; identity verification; the
 *   permission to be called about Medicare plans; privacy and consent choices; everything that
 *   speaks for the member to others (messages, message requests, reports, invitations, survey
 *   answers); what would hide news from the member (marking notifications or messages read,
 *   dismissing popups); their devices' push registration; the team's own tools (`/v1/admin/`); and
 *   the calls no member makes (webhooks, texts received, a visitor's click).
 */
export const whileImpersonating = {
  'DELETE /v1/impersonation': 'own',
  'POST /v1/impersonation/acting': 'own',

  'PUT /v1/users/me': 'acting',
  'PUT /v1/users/me/avatar': 'acting',
  'DELETE /v1/users/me/avatar': 'acting',
  'POST /v1/medias': 'acting',
  'POST /v1/medias/duplicate': 'acting',
  'POST /v1/experiences': 'acting',
  'PUT /v1/experiences/{id}': 'acting',
  'DELETE /v1/experiences/{id}': 'acting',
  'POST /v1/experiences/{id}/attendance': 'acting',
  'POST /v1/experiences/{id}/attendees': 'acting',
  'DELETE /v1/experiences/{id}/attendees/{userId}': 'acting',
  'POST /v1/experiences/{id}/waitlist': 'acting',
  'DELETE /v1/experiences/{id}/waitlist': 'acting',
  'POST /v1/experiences/{id}/invitations/accept': 'acting',
  'POST /v1/experiences/{id}/invitations/decline': 'acting',
  'PUT /experiences/{id}/message-channels/join': 'acting',
  'PUT /v1/notifications/settings/global': 'acting',
  'PUT /v1/notifications/settings/workflow': 'acting',
  'POST /v1/notifications/unsubscribe/{token}': 'acting',
  'PUT /v1/block/{id}': 'acting',
  'DELETE /v1/block/{id}': 'acting',

  'POST /v1/payment-methods/setup': 'never',
  'POST /v1/payment-methods/default': 'never',
  'DELETE /v1/payment-methods/{id}': 'never',
  'POST /v1/payments/checkout/{id}/card': 'never',
  'POST /v1/payments/checkout/{id}/authentication': 'never',
  'POST /v1/fees/{id}/pay': 'never',
  'POST /v1/fees/{id}/dispute': 'never',
  'POST /v1/subscriptions/initiate': 'never',
  'POST /v1/subscriptions/me/cancel': 'never',
  'POST /v1/users/me/email-change': 'never',
  'POST /v1/users/me/email-change/confirm': 'never',
  'POST /v1/users/me/phone/confirmation': 'never',
  'PUT /v1/users/me/phone/confirmation': 'never',
  'POST /v1/users/me/sign-ins': 'never',
  'DELETE /v1/users/me/sessions': 'never',
  'DELETE /v1/users/{id}': 'never',
  'POST /v1/verification/initiate': 'never',
  'POST /v1/users/me/medicare': 'never',
  'DELETE /v1/users/me/medicare': 'never',
  'PUT /v1/users/me/analytics-consent': 'never',
  'PUT /v1/users/me/referrals': 'never',
  'POST /v1/users/me/attribution': 'never',
  'POST /v1/users/me/surveys': 'never',
  'POST /users/message-channels': 'never',
  'POST /v1/chat/message-channels/{id}/messages': 'never',
  'POST /v1/chat/message-channels/{id}/accept': 'never',
  'POST /v1/chat/message-channels/{id}/read': 'never',
  'DELETE /users/message-channels/{id}/leave': 'never',
  'POST /v1/support/message-channel': 'never',
  'POST /v1/reported-contents': 'never',
  'POST /reported-contents': 'never',
  'POST /v1/experiences/{id}/invite-friend': 'never',
  'POST /v1/experiences/{id}/attendees/create-by-emails': 'never',
  'PUT /users/notifications/seen': 'never',
  'PUT /users/notifications/{id}/seen': 'never',
  'PUT /v1/users/me/popups': 'never',
  'PUT /v1/notifications/register-device': 'never',
  'DELETE /v1/notifications/register-device': 'never',
  'POST /v1/referrals/{code}/clicks': 'never',
  'POST /v1/sms/inbound': 'never',
  'POST /v1/webhooks/stripe': 'never',
  'POST /v1/webhooks/stripe-identity': 'never',

  'POST /v1/admin/banners': 'never',
  'PUT /v1/admin/banners/{id}': 'never',
  'POST /v1/admin/banners/{id}/end': 'never',
  'POST /v1/admin/fees/{id}/charge': 'never',
  'POST /v1/admin/fees/{id}/refund': 'never',
  'POST /v1/admin/fees/{id}/waive': 'never',
  'PUT /v1/admin/flags/{key}': 'never',
  'PUT /v1/admin/medicare/partner': 'never',
  'POST /v1/admin/partnerships': 'never',
  'PUT /v1/admin/partnerships/{id}': 'never',
  'POST /v1/admin/reports/{id}/actions': 'never',
  'POST /v1/admin/staff': 'never',
  'PUT /v1/admin/staff/{id}': 'never',
  'POST /v1/admin/support/{id}/done': 'never',
  'POST /v1/admin/support/{id}/messages': 'never',
  'POST /v1/admin/users/{id}/impersonation': 'never',
  'POST /v1/verification/requests/{id}/approve': 'never',
  'POST /v1/verification/requests/{id}/reject': 'never',
} as const satisfies Record<string, WhileImpersonating>

/** A read: nothing changes. */
const isRead = (method: string) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS'

/**
 * The documented call a request falls under, `METHOD /path/{param}` (the path under `/api`), or
 * null when no route answers it: the first route Hono matched that is not a middleware.
 */
export function documentedCall(c: Context): string | null {
  const route = matchedRoutes(c).find((matched) => matched.method !== 'ALL')
  if (!route) return null
  return `${route.method} ${route.path.replace(/^\/api/, '').replace(/:(\w+)/g, '{$1}')}`
}

/** Whether a call (`METHOD /path/{param}`, or null when none matched) is refused while impersonating in `mode`. */
export function refusedWhileImpersonating(mode: ImpersonationMode, method: string, call: string | null): boolean {
  if (isRead(method)) return false
  const decided: WhileImpersonating | undefined = call ? (whileImpersonating as Record<string, WhileImpersonating>)[call] : undefined
  if (decided === 'own') return false
  return mode === 'viewing' || decided !== 'acting'
}

export const impersonationRefused = () =>
  new ApiProblem(403, 'impersonation_refused', 'This cannot be done while viewing Circle 55 as a member.')
