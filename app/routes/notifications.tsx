import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData, useRouteLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import type { loader as rootLoader } from '#app/root.tsx'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { useChatLive } from '#app/utils/chat-live.tsx'
import { detectLanguage, getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { pageFrom } from '#app/utils/paging.server.ts'
import { safeRedirectPath } from '#app/utils/redirect.ts'
import { timeAgo } from '#app/utils/time-ago.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'

/**
 * `/notifications` (issue 15 §3 "In-app", decision 043): what the member was told, newest first,
 * paged, unread ones marked. Opening one and "Mark all as read" are plain forms: the action marks
 * them seen, then redirects (to the notification's page, or back here), so both work without
 * JavaScript.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const page = pageFrom(new URL(request.url))
  // Asked alongside the member (the API looks the caller up once for both); a signed-out visitor
  // is sent to sign in by requireUser before this answer is read.
  const list = getApi(request, context).notifications.list(page)
  list.catch(() => undefined)
  await requireUser(request, context)
  // The unread total is the root loader's (the badge's), read in the component: not asked twice.
  const [notifications, t, language] = await Promise.all([list, getT(request, context, 'notifications'), detectLanguage(request, context)])
  const now = Date.now()
  const justNow = t('justNow')
  return {
    page,
    totalPages: notifications.metadata.total_pages,
    // Written here, not in the browser: the same words on the server and after hydration.
    // Only what the list shows: opening one asks the API for its page (the action).
    items: notifications.data.map((item) => ({
      id: item.id,
      title: item.title,
      body: item.body,
      unread: item.seen_at === null,
      created_at: item.created_at,
      when: timeAgo(item.created_at, now, language, justNow),
    })),
    title: t('title'),
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context)
  const form = await request.formData()
  const api = getApi(request, context)
  switch (form.get('intent')) {
    case 'open': {
      const id = form.get('id')
      if (typeof id !== 'string') throw data({ error: 'Which notification?' }, { status: 400 })
      try {
        const notification = await api.notifications.markSeen(id)
        // A link of ours only: a path on this site, never another site's address.
        return redirect(safeRedirectPath(notification.link, '/notifications'))
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 404) throw error
        return redirectWithToast(context, '/notifications', { kind: 'error', key: 'notifications:notFound' })
      }
    }
    case 'mark-all': {
      await api.notifications.markAllSeen()
      return redirectWithToast(context, '/notifications', 'notifications:markedAllRead')
    }
    default:
      throw data({ error: 'Unknown intent' }, { status: 400 })
  }
}

export default function Notifications() {
  const { items, page, totalPages } = useLoaderData<typeof loader>()
  // The badge's total: the root loader's, or the live stream's when it reported since (decision 047).
  const loadedUnread = useRouteLoaderData<typeof rootLoader>('root')?.notifications ?? 0
  const unread = useChatLive().notifications ?? loadedUnread
  const { t } = useTranslation('notifications')
  const pageLink = (to: number) => (to > 1 ? `/notifications?page=${to}` : '/notifications')
  const unreadTag = t('unread')
  return (
    <>
      <h1>{t('title')}</h1>
      <p>{t('intro')}</p>
      <p>
        <Link to="/account/notification-settings">{t('settings')}</Link>
      </p>
      {items.length === 0 && page === 1 ? (
        <div className="card">
          <h2>{t('empty.title')}</h2>
          <p>{t('empty.body')}</p>
        </div>
      ) : (
        <>
          <div className="notifications__summary">
            <p role="status">{unread > 0 ? t('unreadCount', { count: unread }) : t('allRead')}</p>
            {unread > 0 ? (
              <Form method="post">
                <SubmitButton pending="saving" name="intent" value="mark-all" className="button button--secondary">
                  {t('markAllRead')}
                </SubmitButton>
              </Form>
            ) : null}
          </div>
          {/* One form: the pressed button sends its notification's id. */}
          <Form method="post">
            <input type="hidden" name="intent" value="open" />
            <ul className="notification-list" role="list">
              {items.map((item) => (
                <li key={item.id} className={item.unread ? 'notification notification--unread' : 'notification'}>
                  <SubmitButton pending="opening" keepChildren name="id" value={item.id} className="notification__open">
                    {item.unread ? <span className="notification__tag">{unreadTag}</span> : null}
                    <span className="notification__title">{item.title}</span>
                    <span className="notification__body">{item.body}</span>
                    <time dateTime={item.created_at} className="notification__when">
                      {item.when}
                    </time>
                  </SubmitButton>
                </li>
              ))}
            </ul>
          </Form>
        </>
      )}
      {totalPages > 1 ? (
        <nav className="pagination" aria-label={t('pages')}>
          {page > 1 ? <Link to={pageLink(page - 1)}>{t('newer')}</Link> : <span />}
          <span>{t('pageOf', { page, total: totalPages })}</span>
          {page < totalPages ? <Link to={pageLink(page + 1)}>{t('older')}</Link> : <span />}
        </nav>
      ) : null}
    </>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
