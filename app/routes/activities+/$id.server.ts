import { data, redirect, type ActionFunctionArgs, type AppLoadContext } from '@remix-run/node'
import { z } from 'zod'
import type { Api } from '#app/utils/api/clients.server.ts'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formErrorsFromApi, type ApiErrorMapping } from '#app/utils/http.server.ts'
import { detectLanguage } from '#app/utils/i18next.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { inviteFriendSchema } from '#contract/referrals.ts'

/**
 * The activity page's server side: the API answers its loader reads, and the action's intents.
 * Each form on the page sends a hidden `intent`; `activityForm` checks it (and the fields that
 * intent reads), `runIntent` hands it to one small handler. An unknown intent answers 400.
 */

/** Only the answer "yes" confirms (the confirmation page's hidden field); anything else asks first. */
const confirmed = z.unknown().transform((value) => value === 'yes')
/** A text field; a file or nothing reads as empty, as a browser that left it out would send. */
const text = z.unknown().transform((value) => (typeof value === 'string' ? value : ''))

export const activityForm = z.discriminatedUnion('intent', [
  // The no-show fee's box (decision 075): ticked, the browser sends `on`.
  z.object({ intent: z.literal('attend'), feeConsent: z.unknown().transform((value) => value === 'on') }),
  z.object({ intent: z.literal('add-card') }),
  z.object({ intent: z.literal('cancel'), confirmed }),
  z.object({ intent: z.literal('join-waitlist') }),
  z.object({ intent: z.literal('leave-waitlist') }),
  z.object({ intent: z.literal('accept-invitation') }),
  z.object({ intent: z.literal('decline-invitation') }),
  z.object({ intent: z.literal('invite-by-emails'), emails: text }),
  z.object({ intent: z.literal('cancel-activity'), confirmed }),
  z.object({ intent: z.literal('invite-friend'), friendEmail: text }),
])
export type ActivityIntent = z.infer<typeof activityForm>['intent']

interface IntentArgs<I extends ActivityIntent> {
  request: Request
  context: AppLoadContext
  api: Api
  /** The activity id or slug as in the URL. */
  key: string
  userId: string
  form: Extract<z.infer<typeof activityForm>, { intent: I }>
}

export async function runIntent({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context)
  const formData = await request.formData()
  const fields = { intent: formData.get('intent'), confirmed: formData.get('confirmed'), emails: formData.get('emails'), feeConsent: formData.get('feeConsent'), friendEmail: formData.get('friend_email') }
  const parsed = activityForm.safeParse(fields)
  if (!parsed.success) throw data({ error: 'Unknown intent' }, { status: 400 })
  const form = parsed.data
  const base = { request, context, api: getApi(request, context), key: params.id ?? '', userId: user.id }
  try {
    switch (form.intent) {
      case 'attend':
        return await attend({ ...base, form })
      case 'add-card':
        return await addCard({ ...base, form })
      case 'cancel':
        return await cancel({ ...base, form })
      case 'join-waitlist':
        return await joinWaitlist({ ...base, form })
      case 'leave-waitlist':
        return await leaveWaitlist({ ...base, form })
      case 'accept-invitation':
        return await acceptInvitation({ ...base, form })
      case 'decline-invitation':
        return await declineInvitation({ ...base, form })
      case 'invite-by-emails':
        return await inviteByEmails({ ...base, form })
      case 'cancel-activity':
        return await cancelActivity({ ...base, form })
      case 'invite-friend':
        return await inviteFriend({ ...base, form })
    }
  } catch (error) {
    return answerApiError(error, form)
  }
}

async function attend({ request, context, api, key, userId, form }: IntentArgs<'attend'>) {
  // The agreement is recorded in the words and the language the page showed (decision 075).
  const consent = form.feeConsent ? { fee_consent: true, fee_consent_language: await detectLanguage(request, context) } : {}
  await api.experiences.attend(key, userId, consent)
  return toast(request, context, 'activities:toast.attending')
}

/** A seat at an activity with a fee needs a card first: the hosted card page, then back here. */
async function addCard({ api, key }: IntentArgs<'add-card'>) {
  return redirect((await api.payments.startSetup(`/activities/${key}`)).redirect_url)
}

async function cancel({ request, context, api, key, userId, form }: IntentArgs<'cancel'>) {
  if (!form.confirmed) {
    // The API says whether cancelling now is late (spec §4: the no-show fee applies). Asked
    // now, not when the page was drawn: the 12 hours may have begun since.
    const current = await api.experiences.get(key)
    if (current.viewer?.cancel_is_late) {
      // Without JavaScript the confirmation is its own page.
      throw redirect(`/activities/${key}?confirm=cancel`)
    }
  }
  await api.experiences.cancelAttendance(key, userId)
  return toast(request, context, 'activities:toast.canceled')
}

async function joinWaitlist({ request, context, api, key }: IntentArgs<'join-waitlist'>) {
  await api.experiences.joinWaitlist(key)
  return toast(request, context, 'activities:toast.waitlistJoined')
}

async function leaveWaitlist({ request, context, api, key }: IntentArgs<'leave-waitlist'>) {
  await api.experiences.leaveWaitlist(key)
  return toast(request, context, 'activities:toast.waitlistLeft')
}

async function acceptInvitation({ request, context, api, key }: IntentArgs<'accept-invitation'>) {
  await api.experiences.acceptInvitation(key)
  return toast(request, context, 'activities:toast.invitationAccepted')
}

async function declineInvitation({ request, context, api, key }: IntentArgs<'decline-invitation'>) {
  await api.experiences.declineInvitation(key)
  return toast(request, context, 'activities:toast.invitationDeclined')
}

/** The host invites members by email (decision 019): the answer says what happened to each address. */
async function inviteByEmails({ api, key, form }: IntentArgs<'invite-by-emails'>) {
  const emails = form.emails
    .split(/[\s,;]+/)
    .map((email) => email.trim())
    .filter(Boolean)
  if (emails.length === 0) return data({ error: 'activities:host.emailsRequired', emails: '' }, { status: 400 })
  return data({ invited: await api.experiences.inviteByEmail(key, emails) })
}

/**
 * "Invite a friend" (decision 087): the same answer whether or not the address is a member's; an
 * address that cannot be one, or a day's allowance used up, is said next to the field, what was
 * typed kept.
 */
async function inviteFriend({ api, key, form }: IntentArgs<'invite-friend'>) {
  const typed = form.friendEmail
  const refuse = (code: string, status: number) => data({ friendError: `referrals:invite.errors.${code}`, friendEmail: typed }, { status })
  const checked = inviteFriendSchema.safeParse({ email: typed })
  if (!checked.success) return refuse(checked.error.issues[0]?.message === 'email_required' ? 'email_required' : 'email_invalid', 400)
  try {
    return data({ friendInvited: (await api.referrals.inviteFriend(key, checked.data.email)).email })
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) return refuse('email_invalid', 400)
    if (error instanceof ApiError && error.code === 'too_many_invitations') return refuse('tooMany', 429)
    throw error
  }
}

async function cancelActivity({ request, context, api, key, form }: IntentArgs<'cancel-activity'>) {
  if (!form.confirmed) throw redirect(`/activities/${key}?confirm=cancel-activity`)
  await api.experiences.cancel(key)
  return toast(request, context, 'activities:toast.activityCanceled')
}

const tooManyEmails = 'activities:host.tooManyEmails'
const apiErrors: ApiErrorMapping = {
  conflict: (code) => (code === 'card_required' ? 'payments:fee.cardRequired' : `activities:errors.${code ?? 'conflict'}`),
  tooMany: (code) => (code === 'too_many_invitations' ? 'activities:host.tooManyInvitations' : undefined),
  // Over the API's limit of 50 at a time, or an address it cannot read (`emails.3`): say which.
  messages: {
    emails: (codes) => [codes.includes('too_many_emails') ? tooManyEmails : 'activities:host.emailsInvalid'],
    fee_consent: () => ['payments:fee.consentRequired'],
  },
}

/**
 * A refused change becomes a message on the page, the typed addresses kept: a conflict (full,
 * already attending) says which, the API being down says nothing was saved; someone else's
 * activity (the host's actions) answers 403 and a gone one 404, with nothing changed.
 */
function answerApiError(error: unknown, form: z.infer<typeof activityForm>) {
  if (error instanceof ApiError && error.status >= 500) {
    return data({ error: 'common:errors.notSaved' }, { status: 503 })
  }
  const { status, fieldErrors, formErrors } = formErrorsFromApi(error, apiErrors)
  const emails = fieldErrors.emails ?? []
  const message = emails.includes(tooManyEmails) ? tooManyEmails : (emails[0] ?? fieldErrors.fee_consent?.[0] ?? formErrors[0] ?? 'activities:errors.conflict')
  if (form.intent === 'invite-friend') return data({ error: message, friendEmail: form.friendEmail }, { status })
  return data(form.intent === 'invite-by-emails' ? { error: message, emails: form.emails } : { error: message }, { status })
}

async function toast(request: Request, context: AppLoadContext, key: string) {
  return redirectWithToast(context, new URL(request.url).pathname, key)
}
