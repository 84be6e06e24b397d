import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from '@remix-run/node'
import { z } from 'zod'
import { maxMessageLength } from '#contract/limits.ts'
import { contactReminderKey } from '#contract/scam-shield.ts'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formAction, refuse } from '#app/utils/form-action.server.ts'
import { formText } from '#app/utils/forms.server.ts'
import { notFoundOnMissing, unavailableOnServerError } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { streamChatFor } from './__stream-chat.server.ts'

/** The send form's one schema (browser and server); messages are `messenger` translation keys. */
export const sendSchema = z.object({
  intent: z.literal('send'),
  channel: z.string(),
  text: z
    .string({ error: 'messenger:send.errors.required' })
    .trim()
    .min(1, 'messenger:send.errors.required')
    .max(maxMessageLength, 'messenger:send.errors.tooLong'),
  /** Sent with "Send anyway" after the one-time contact reminder (decision 038). */
  acknowledge_contact_reminder: z.literal('true').optional(),
})

/** The API's field codes for the text, as the form's messages. */
function textError(code: string) {
  if (code === 'text_required') return 'messenger:send.errors.required'
  if (code === 'text_too_long') return 'messenger:send.errors.tooLong'
  if (code === 'links_not_allowed_yet') return 'chat:scamShield.errors.linksNotAllowedYet'
  if (code === 'links_not_allowed_until_reply') return 'chat:scamShield.errors.linksNotAllowedUntilReply'
  return 'messenger:send.errors.invalid'
}

/** The API's refusals of a message, as the sentence the member reads next to the form. */
export const sendRefusals = ['awaiting_acceptance', 'chat_closed', 'product_messages', 'blocked', 'recipient_suspended', 'forbidden']

/** The member sent too many messages too quickly (429 `too_many_messages`, decision 066). */
export const tooManyMessagesKey = 'messenger:send.errors.too_many_messages'

/** What the page shows after a refused message: the errors, and what the member typed. */
export type SendAnswer = { result: SubmissionResult<string[]> }

export const channelHref = (id: string, extra = '') => `/messenger?channel=${encodeURIComponent(id)}${extra}`

/**
 * Whether this GET is a member opening the page themselves: a top-level navigation of the
 * browser (or an older browser that sends no `Sec-Fetch-*` at all), from this site or typed in,
 * and not a prefetch. Only then does opening a channel mark it read (decision 033): a prefetch
 * or a background reload (later, live updates) must not clear what the member has not seen.
 */
function isOpenedByMember(request: Request) {
  const headers = request.headers
  if (headers.get('sec-purpose') || headers.get('purpose')) return false
  const destination = headers.get('sec-fetch-dest')
  if (destination !== null && destination !== 'document') return false
  const site = headers.get('sec-fetch-site')
  return site === null || site === 'same-origin' || site === 'none'
}

/** `/messenger`: the channel list, and the channel of `?channel=` with the page before `?before=`. */
export async function loadMessenger({ request, context }: Pick<LoaderFunctionArgs, 'request' | 'context'>) {
  const user = await requireUser(request, context)
  const url = new URL(request.url)
  const channelId = url.searchParams.get('channel') || null
  const before = url.searchParams.get('before') || undefined
  const api = getApi(request, context)
  const [list, open, t] = await Promise.all([
    api.chat.list({ page: 1, perPage: 50 }).catch(unavailableOnServerError),
    channelId ? api.chat.channel(channelId, before, url.searchParams.get('show_blocked') === '1').catch(notFoundOnMissing) : null,
    getT(request, context, ['messenger', 'common']),
  ])
  if (open && !before && open.unread_count > 0 && isOpenedByMember(request)) {
    // Idempotent and only the member's own read marker (decision 033); a failure must not cost them the page.
    await api.chat.markRead(open.id).catch(() => undefined)
    for (const channel of list.data) if (channel.id === open.id) channel.unread_count = 0
  }
  const confirmLeave = open !== null && url.searchParams.get('confirm') === 'leave'
  const openTitle = open ? titleOf(open, t) : null
  return {
    userId: user.id,
    now: Date.now(),
    channels: list.data,
    open,
    before: before ?? null,
    confirmLeave,
    title: openTitle ? t('messenger:channel.pageTitle', { name: openTitle }) : t('messenger:title'),
    // Stream's React client, with JavaScript, when Stream is the chat service (decision 036).
    stream: streamChatFor(user, context),
  }
}

function titleOf(channel: { experience: { title: string } | null; other_member: { display_name: string | null } | null }, t: (key: string) => string) {
  if (channel.experience) return channel.experience.title
  if (channel.other_member) return channel.other_member.display_name ?? t('common:member.generic')
  return t('common:brand')
}

/** `/messenger`'s forms: one small function per `intent`; any other intent answers 400. */
export async function runMessengerIntent({ request, context }: ActionFunctionArgs) {
  // Read first: during an outage the member's text comes back to them.
  const form = await request.formData()
  const channel = formText(form, 'channel')
  switch (form.get('intent')) {
    case 'send':
      return send(request, context, form)
    case 'accept':
      return simple(request, context, async (api) => {
        await api.chat.accept(channel)
        return redirectWithToast(context, channelHref(channel), 'messenger:request.accepted')
      })
    case 'leave':
      return simple(request, context, async (api) => {
        await api.chat.leave(channel)
        return redirectWithToast(context, '/messenger', 'messenger:leave.done')
      })
    case 'read':
      return simple(request, context, async (api) => {
        await api.chat.markRead(channel)
        return redirect(channelHref(channel))
      })
    default:
      throw data({ error: 'Unknown intent' }, { status: 400 })
  }
}

async function simple(request: Request, context: AppLoadContext, work: (api: ReturnType<typeof getApi>) => Promise<Response>) {
  await requireUser(request, context)
  try {
    return await work(getApi(request, context))
  } catch (error) {
    return notFoundOnMissing(error)
  }
}

async function send(request: Request, context: AppLoadContext, form: FormData) {
  const submission = parseWithZod(form, { schema: sendSchema })
  return formAction({ request, context }, submission, {
    notSaved: 'messenger:send.errors.notSent',
    apiErrors: { messages: { text: (codes) => codes.map(textError) } },
    answer: (result): SendAnswer => ({ result }),
    save: async ({ channel, text, acknowledge_contact_reminder }) => {
      const api = getApi(request, context)
      try {
        const message = await api.chat.send(channel, text, { acknowledgeContactReminder: acknowledge_contact_reminder === 'true' })
        // Replying is reading: what was there before the reply no longer counts as unread.
        await api.chat.markRead(channel).catch(() => undefined)
        return redirect(channelHref(channel, `#m-${message.id}`))
      } catch (error) {
        return refusalOfMessage(error)
      }
    },
  })
}

/** The API's refusals that are not about the text's words: said next to the field or above the form. */
function refusalOfMessage(error: unknown) {
  if (!(error instanceof ApiError)) throw error
  if (error.status === 409 && error.code === 'contact_reminder') {
    // Not sent yet: the reminder next to the field, the text kept, and "Send anyway" (decision 038).
    return refuse(409, { fieldErrors: { text: [contactReminderKey] } })
  }
  if (error.status === 429 && error.code === 'too_many_messages') {
    // Too many at once (decision 066): said next to the field, the text kept to send again.
    return refuse(429, { fieldErrors: { text: [tooManyMessagesKey] } })
  }
  if (error.code && sendRefusals.includes(error.code) && (error.status === 403 || error.status === 409)) {
    return refuse(error.status, { formErrors: [`messenger:send.errors.${error.code}`] })
  }
  throw error
}
