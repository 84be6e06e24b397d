import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData, type ClientActionFunctionArgs, type ShouldRevalidateFunction } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { isNotSent, type NotSent } from '#app/utils/chat-live.tsx'
import { ContactSupport } from '#app/components/contact-support.tsx'
import { pageTitle } from '#app/utils/meta.ts'
import { loadMessenger, runMessengerIntent, type SendAnswer } from './__messenger.server.ts'
import { ChannelList } from './__channel-list.tsx'
import { ConfirmLeave, OpenChannel } from './__channel.tsx'
import { StreamMount } from './__stream-mount.tsx'
import { LiveAnnouncer, useMessengerLive } from './__live.tsx'
import { OnlyTheMember } from '#app/components/only-the-member.tsx'

/**
 * `/messenger` (issue 14 §1–2, decision 033): the member's channels and, as `?channel=…`, the open
 * one, as plain pages and forms that work without JavaScript. On a small screen an open channel
 * hides the list and offers "Back to messages".
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadMessenger({ request, context })
}

export async function action(args: ActionFunctionArgs) {
  return runMessengerIntent(args)
}

/**
 * With JavaScript, the page's own live forms (a message sent, the open channel marked read: they
 * carry `live=1`, decision 035) keep the page where it is: the action's redirect back to this
 * channel becomes an answer naming the new message, and a request that never reached the server
 * becomes "not sent" instead of the error page. Every other form behaves as without JavaScript.
 */
export async function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
  const form = await request.clone().formData()
  if (form.get('live') !== '1') return serverAction<SendAnswer>()
  const channel = form.get('channel')
  try {
    return await serverAction<SendAnswer>()
  } catch (error) {
    if (error instanceof Response) {
      const location = error.headers.get('Location')
      const target = location ? new URL(location, window.location.href) : null
      if (target?.pathname === '/messenger' && target.searchParams.get('channel') === channel) {
        return { done: true as const, messageId: /^#m-([\w-]+)$/.exec(target.hash)?.[1] ?? null }
      }
      // Anywhere else (signed out meanwhile: the sign-in page) the member goes there.
      throw error
    }
    return { notSent: true } satisfies NotSent
  }
}

/** A message that never reached the server changed nothing: nothing to reload. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  isNotSent(actionResult) ? false : defaultShouldRevalidate

export default function Messenger() {
  const loaded = useLoaderData<typeof loader>()
  const answer = useActionData<SendAnswer | undefined>()
  const { t } = useTranslation('messenger')
  const { open } = loaded
  const live = useMessengerLive(loaded)
  const builtin = (
    <div className={open ? 'messenger messenger--open' : 'messenger'}>
      <LiveAnnouncer announcement={live.announcement} />
      <div className="messenger__list">
        {/* The open channel's name is the page's heading; the list's is then a section's. */}
        {open ? <h2>{t('title')}</h2> : <h1>{t('title')}</h1>}
        <OnlyTheMember quiet>
          <p>
            <Link to="/messenger/new">{t('newMessage')}</Link>
            <span className="hint"> {t('newMessageHint')}</span>
          </p>
        </OnlyTheMember>
        <ContactSupport />
        <ChannelList channels={live.channels} openId={open?.id ?? null} now={live.now} userId={loaded.userId} />
      </div>
      {open ? (
        <div className="messenger__channel">
          <p className="messenger__back">
            <Link to="/messenger">{t('back')}</Link>
          </p>
          {loaded.confirmLeave ? (
            <ConfirmLeave channel={open} />
          ) : (
            <OpenChannel channel={open} before={loaded.before} now={live.now} userId={loaded.userId} result={answer?.result} live={live.channel} />
          )}
        </div>
      ) : null}
    </div>
  )
  // With Stream as the chat service and JavaScript, Stream's client replaces this once loaded (decision 036).
  return <StreamMount stream={loaded.stream} channelId={open?.id ?? null}>{builtin}</StreamMount>
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
