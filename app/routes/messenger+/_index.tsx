import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { pageTitle } from '#app/utils/meta.ts'
import { loadMessenger, runMessengerIntent, type SendAnswer } from './__messenger.server.ts'
import { ChannelList } from './__channel-list.tsx'
import { ConfirmLeave, OpenChannel } from './__channel.tsx'

export const handle = { i18n: ['common', 'messenger', 'moderation'] }

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

export default function Messenger() {
  const loaded = useLoaderData<typeof loader>()
  const answer = useActionData<SendAnswer | undefined>()
  const { t } = useTranslation('messenger')
  const { open } = loaded
  return (
    <div className={open ? 'messenger messenger--open' : 'messenger'}>
      <div className="messenger__list">
        {/* The open channel's name is the page's heading; the list's is then a section's. */}
        {open ? <h2>{t('title')}</h2> : <h1>{t('title')}</h1>}
        <p>
          <Link to="/members">{t('newMessage')}</Link>
          <span className="hint"> {t('newMessageHint')}</span>
        </p>
        <ChannelList channels={loaded.channels} openId={open?.id ?? null} now={loaded.now} userId={loaded.userId} />
      </div>
      {open ? (
        <div className="messenger__channel">
          <p className="messenger__back">
            <Link to="/messenger">{t('back')}</Link>
          </p>
          {loaded.confirmLeave ? (
            <ConfirmLeave channel={open} />
          ) : (
            <OpenChannel channel={open} before={loaded.before} now={loaded.now} userId={loaded.userId} result={answer?.result} />
          )}
        </div>
      ) : null}
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
