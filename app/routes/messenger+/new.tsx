import { data, redirect, type ActionFunctionArgs } from '@remix-run/node'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formText } from '#app/utils/forms.server.ts'
import { unavailableOnServerError } from '#app/utils/http.server.ts'
import { setToast } from '#app/utils/toast.server.ts'

/** The API's refusals of a conversation, each with its own sentence (`messenger:open.*`). */
const refusals = ['blocked', 'recipient_suspended', 'not_found', 'cannot_message_self', 'forbidden']

/** Nothing to show here: the form lives on a profile. */
export async function loader() {
  return redirect('/messenger')
}

/**
 * `POST /messenger/new` (issue 14 §1): "Message" on a public profile (`user_id`) opens the direct
 * channel with that member (the existing one, or a new message request); `experience_id` opens
 * the activity's group (its attendees and host), for the activity page's button. Either goes to
 * the channel; a refusal goes back with a toast saying why. `to=support` opens the member's
 * conversation with Circle 55 support (decision 039), from the Messenger or an activity page.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context)
  const form = await request.formData()
  const userId = formText(form, 'user_id')
  const experienceId = formText(form, 'experience_id')
  const slug = formText(form, 'slug')
  // "Contact host" on an activity page goes back there on a refusal.
  const activity = experienceId || formText(form, 'from_activity')
  const safe = (value: string) => /^[\w-]+$/.test(value)
  const back = activity && safe(activity) ? `/activities/${activity}` : safe(slug) ? `/p/${slug}` : form.get('to') === 'support' ? '/messenger' : '/members'
  try {
    const api = getApi(request, context).chat
    const channel =
      form.get('to') === 'support'
        ? await getApi(request, context).support.open()
        : experienceId
          ? await api.joinActivity(experienceId)
          : await api.openDirect(userId)
    return redirect(`/messenger?channel=${encodeURIComponent(channel.id)}`)
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) return unavailableOnServerError(error)
    if (error.status === 422) throw data({ error: 'Bad request' }, { status: 400 })
    const code = error.code && refusals.includes(error.code) ? error.code : 'failed'
    return redirect(back, { headers: { 'Set-Cookie': await setToast(context, { kind: 'error', key: `messenger:open.${code}` }) } })
  }
}
