import { data, redirect, type ActionFunctionArgs, type AppLoadContext } from '@remix-run/node'
import { z } from 'zod'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { experienceSchema } from '#app/utils/experience-schema.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { setToast } from '#app/utils/toast.server.ts'

/**
 * The activity page's server side: the API answers its loader reads, and the action's intents.
 * Each form on the page sends a hidden `intent`; `activityForm` checks it (and the fields that
 * intent reads), `runIntent` hands it to one small handler. An unknown intent answers 400.
 */

export const experienceResponse = z.object({ data: z.array(experienceSchema) })
export const attendeeSchema = z.object({
  id: z.string(),
  display_name: z.string().nullable(),
  avatar: z.object({ url: z.string() }).nullable(),
  is_host: z.boolean().optional(),
})
export type Attendee = z.infer<typeof attendeeSchema>
export const waitlistSchema = z.object({
  data: z.array(z.object({ user_id: z.string(), position: z.number(), display_name: z.string().nullable().optional() })),
  metadata: z.object({ total_count: z.number().optional() }).optional(),
})
export type Waitlist = z.infer<typeof waitlistSchema>
const addByEmailsResponse = z.object({
  data: z.array(z.object({ added: z.array(z.string()), already_attending: z.array(z.string()), not_found: z.array(z.string()), full: z.array(z.string()) })),
})
export type AddByEmailsResult = z.infer<typeof addByEmailsResponse>['data'][number]

/** Spec §4: cancelling within 12 hours of the start warns of the no-show fee. */
const lateCancelWindowMs = 12 * 60 * 60 * 1000

export function startsWithinLateCancelWindow(startDate: string | null | undefined) {
  return Boolean(startDate) && new Date(startDate ?? '').getTime() - Date.now() < lateCancelWindowMs
}

/** Only the answer "yes" confirms (the confirmation page's hidden field); anything else asks first. */
const confirmed = z.unknown().transform((value) => value === 'yes')
/** A text field; a file or nothing reads as empty, as a browser that left it out would send. */
const text = z.unknown().transform((value) => (typeof value === 'string' ? value : ''))

export const activityForm = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('attend') }),
  z.object({ intent: z.literal('cancel'), confirmed }),
  z.object({ intent: z.literal('join-waitlist') }),
  z.object({ intent: z.literal('leave-waitlist') }),
  z.object({ intent: z.literal('add-by-emails'), emails: text }),
  z.object({ intent: z.literal('cancel-activity'), confirmed }),
])
export type ActivityIntent = z.infer<typeof activityForm>['intent']

interface IntentArgs<I extends ActivityIntent> {
  request: Request
  context: AppLoadContext
  api: ReturnType<typeof getApi>
  /** The activity id or slug as in the URL, and encoded for an API path. */
  key: string
  apiKey: string
  userId: string
  form: Extract<z.infer<typeof activityForm>, { intent: I }>
}

export async function runIntent({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context)
  const formData = await request.formData()
  const fields = { intent: formData.get('intent'), confirmed: formData.get('confirmed'), emails: formData.get('emails') }
  const parsed = activityForm.safeParse(fields)
  if (!parsed.success) throw data({ error: 'Unknown intent' }, { status: 400 })
  const form = parsed.data
  const base = { request, context, api: getApi(request, context), key: params.id ?? '', apiKey: encodeURIComponent(params.id ?? ''), userId: user.id }
  try {
    switch (form.intent) {
      case 'attend':
        return await attend({ ...base, form })
      case 'cancel':
        return await cancel({ ...base, form })
      case 'join-waitlist':
        return await joinWaitlist({ ...base, form })
      case 'leave-waitlist':
        return await leaveWaitlist({ ...base, form })
      case 'add-by-emails':
        return await addByEmails({ ...base, form })
      case 'cancel-activity':
        return await cancelActivity({ ...base, form })
    }
  } catch (error) {
    return answerApiError(error)
  }
}

async function attend({ request, context, api, apiKey, userId }: IntentArgs<'attend'>) {
  await api.post(`v1/experiences/${apiKey}/attendees`, { body: { user_id: userId } })
  return toast(request, context, 'activities:toast.attending')
}

async function cancel({ request, context, api, key, apiKey, userId, form }: IntentArgs<'cancel'>) {
  if (!form.confirmed) {
    const current = await api.get(`v1/experiences/${apiKey}`, { schema: experienceResponse })
    if (startsWithinLateCancelWindow(current.data[0]?.start_date)) {
      // Without JavaScript the confirmation is its own page.
      throw redirect(`/activities/${key}?confirm=cancel`)
    }
  }
  await api.delete(`v1/experiences/${apiKey}/attendees/${userId}`)
  return toast(request, context, 'activities:toast.canceled')
}

async function joinWaitlist({ request, context, api, apiKey }: IntentArgs<'join-waitlist'>) {
  await api.post(`v1/experiences/${apiKey}/waitlist`)
  return toast(request, context, 'activities:toast.waitlistJoined')
}

async function leaveWaitlist({ request, context, api, apiKey }: IntentArgs<'leave-waitlist'>) {
  await api.delete(`v1/experiences/${apiKey}/waitlist`)
  return toast(request, context, 'activities:toast.waitlistLeft')
}

async function addByEmails({ api, apiKey, form }: IntentArgs<'add-by-emails'>) {
  const emails = form.emails
    .split(/[\s,;]+/)
    .map((email) => email.trim())
    .filter(Boolean)
  if (emails.length === 0) return data({ error: 'activities:host.emailsRequired', emails: '' }, { status: 400 })
  try {
    const result = await api.post(`v1/experiences/${apiKey}/attendees/create-by-emails`, { body: { emails }, schema: addByEmailsResponse })
    return data({ added: result.data[0] ?? null })
  } catch (error) {
    // Over the API's limit of 50 at a time, or an address it cannot read: say which, keep the list.
    if (error instanceof ApiError && error.status === 422) {
      const tooMany = Object.values(error.fields).flat().includes('too_many_emails')
      return data({ error: tooMany ? 'activities:host.tooManyEmails' : 'activities:host.emailsInvalid', emails: form.emails }, { status: 400 })
    }
    throw error
  }
}

async function cancelActivity({ request, context, api, key, apiKey, form }: IntentArgs<'cancel-activity'>) {
  if (!form.confirmed) throw redirect(`/activities/${key}?confirm=cancel-activity`)
  await api.delete(`v1/experiences/${apiKey}`)
  return toast(request, context, 'activities:toast.activityCanceled')
}

/**
 * A refused change becomes a message on the page: a conflict (full, already attending) says
 * which, the API being down says nothing was saved; someone else's activity (the host's
 * actions) answers 403 and a gone one 404, with nothing changed.
 */
function answerApiError(error: unknown) {
  if (error instanceof ApiError && error.status === 409) {
    return data({ error: `activities:errors.${error.code ?? 'conflict'}` }, { status: 409 })
  }
  if (error instanceof ApiError && error.status >= 500) {
    return data({ error: 'common:errors.notSaved' }, { status: 503 })
  }
  return notFoundOnMissing(error)
}

async function toast(request: Request, context: AppLoadContext, key: string) {
  const url = new URL(request.url)
  return redirect(url.pathname, { headers: { 'Set-Cookie': await setToast(context, { kind: 'success', key }) } })
}
