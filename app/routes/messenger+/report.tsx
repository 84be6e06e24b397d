import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { MessageText } from '#app/components/message-text.tsx'
import { ReportForm } from '#app/components/report-form.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formPageHeaders, loadFormPage } from '#app/utils/forms.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { reportAction } from '#app/utils/report-form.server.ts'
import type { Message } from '#contract/chat.ts'

/**
 * `/messenger/report?channel=<id>&message=<id>` (issue 14 §4, decision 037): report a message
 * (with `message`) or the whole conversation, with the §3 reasons, details and "Also block" when
 * there is one member behind it. Works without JavaScript; afterwards, back to the channel.
 */
export const headers = formPageHeaders

const channelHref = (id: string) => `/messenger?channel=${encodeURIComponent(id)}`
/** How far back a reported message is looked for: 10 older pages (300 messages) beyond the newest. */
const maxOlderPages = 10

/** What is reported, as the reporter sees it: the channel, the message (when one), and whom "Also block" blocks. */
async function loadTarget(request: Request, context: LoaderFunctionArgs['context']) {
  const user = await requireUser(request, context)
  const url = new URL(request.url)
  const channelId = url.searchParams.get('channel') ?? ''
  const messageId = url.searchParams.get('message') || null
  const chat = getApi(request, context).chat
  const channel = await chat.channel(channelId).catch(notFoundOnMissing)
  let message: Message | null = null
  if (messageId) {
    // The message must be one the member reads here, from another member (not their own, not
    // the product's): looked for in the newest page, then older ones (a link from an older page).
    let page = channel
    message = page.messages.find((item) => item.id === messageId) ?? null
    for (let older = 0; !message && page.older_cursor && older < maxOlderPages; older++) {
      page = await chat.channel(channelId, page.older_cursor).catch(notFoundOnMissing)
      message = page.messages.find((item) => item.id === messageId) ?? null
    }
    if (!message || !message.sender || message.sender.id === user.id) throw new Response(null, { status: 404 })
  }
  const blockable = message ? message.sender : channel.other_member
  return { channel, message, blockable }
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, ['moderation', 'common'])
  const url = new URL(request.url)
  return loadFormPage(
    context,
    async () => {
      const { channel, message, blockable } = await loadTarget(request, context)
      const name = (member: { display_name: string | null } | null | undefined) => member?.display_name ?? t('common:member.generic')
      return {
        channelId: channel.id,
        message,
        senderName: message ? name(message.sender) : null,
        otherName: channel.other_member ? name(channel.other_member) : null,
        groupTitle: channel.experience?.title ?? null,
        blockName: blockable ? name(blockable) : null,
        title: t(message ? 'moderation:report.titleMessage' : 'moderation:report.titleConversation'),
      }
    },
    // The database is down: the form is drawn from what the member sent (see keepFormOnOutage).
    () => ({
      channelId: url.searchParams.get('channel') ?? '',
      message: null,
      senderName: null,
      otherName: null,
      groupTitle: null,
      blockName: null,
      title: t(url.searchParams.get('message') ? 'moderation:report.titleMessage' : 'moderation:report.titleConversation'),
    }),
  )
}

export async function action({ request, context }: ActionFunctionArgs) {
  return reportAction({ request, context }, async () => {
    const { channel, message } = await loadTarget(request, context)
    return {
      target: message ? { message_id: message.id } : { channel_id: channel.id },
      redirectTo: channelHref(channel.id),
      toastKey: 'moderation:report.done',
      blockedToastKey: 'moderation:report.doneBlocked',
    }
  })
}

export default function ReportInMessenger() {
  const { channelId, message, senderName, otherName, groupTitle, blockName } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation('moderation')
  const intro = message
    ? t('report.introMessage', { name: senderName })
    : groupTitle
      ? t('report.introGroup', { title: groupTitle })
      : otherName
        ? t('report.introConversation', { name: otherName })
        : null
  return (
    <div className="prose">
      <ReportForm
        title={t(message ? 'report.titleMessage' : 'report.titleConversation')}
        intro={intro}
        lastResult={lastResult}
        back={{ to: channelHref(channelId), label: t('report.back') }}
        blockLabel={blockName ? { label: t('report.block', { name: blockName }), hint: t('report.blockHint', { name: blockName }) } : null}
      >
        {message ? (
          <figure className="quoted-message">
            <figcaption>{t('report.quoted')}</figcaption>
            <blockquote>
              <p>
                <MessageText text={message.body} />
              </p>
            </blockquote>
          </figure>
        ) : null}
      </ReportForm>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
