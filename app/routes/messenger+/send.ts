import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs } from '@remix-run/node'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { sendRefusals, sendSchema, tooManyMessagesKey } from './__messenger.server.ts'

/**
 * `POST /messenger/send`: a message from Stream's React client (decision 036), sent through the
 * API like the page's form, so the chat's rules, limits and scam shield apply; the API mirrors it
 * to Stream. Answers JSON: `{ message: { id, created_at } }`, or `{ error }` (a sentence for the
 * member) with the API's status. Without JavaScript the page's own form posts to `/messenger`.
 */
const headers = { 'Cache-Control': 'private, no-store' }

export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context)
  const t = await getT(request, context, ['messenger'])
  const submission = parseWithZod(await request.formData(), { schema: sendSchema })
  if (submission.status !== 'success') {
    const first = Object.values(submission.error ?? {}).flat()[0] ?? 'messenger:send.errors.invalid'
    return data({ error: t(first) }, { status: 400, headers })
  }
  const { channel, text } = submission.value
  const api = getApi(request, context)
  try {
    const message = await api.chat.send(channel, text)
    // Replying is reading, as on the page.
    await api.chat.markRead(channel).catch(() => undefined)
    return data({ message: { id: message.id, created_at: message.created_at } }, { status: 201, headers })
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    const refused = error.code && sendRefusals.includes(error.code) && (error.status === 403 || error.status === 409)
    const tooMany = error.status === 429 && error.code === 'too_many_messages'
    const key = refused
      ? `messenger:send.errors.${error.code}`
      : tooMany
        ? tooManyMessagesKey
        : error.status >= 500
          ? 'messenger:send.errors.notSent'
          : 'messenger:send.errors.invalid'
    return data({ error: t(key) }, { status: error.status, headers })
  }
}
