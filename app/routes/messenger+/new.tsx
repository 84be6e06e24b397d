import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { BlockControl } from '#app/components/block-control.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formText } from '#app/utils/forms.server.ts'
import { unavailableOnServerError } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { pageFrom } from '#app/utils/paging.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { ChatUser } from '#contract/chat.ts'
import { maxMemberSearchLength } from '#contract/limits.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'

/** The API's refusals of a conversation, each with its own sentence (`messenger:open.*`, the scam shield's in `chat`). */
const refusals = ['blocked', 'recipient_suspended', 'not_found', 'cannot_message_self', 'forbidden']
const refusalKeys: Record<string, string> = { new_conversations_limit: 'chat:scamShield.errors.newConversationsLimit' }

/**
 * `GET /messenger/new` (issue 14 §1 "new message", decision 034): find a member by first name
 * (`GET v1/chat/users`), those one met first, each with "Message". A plain GET form and links:
 * works without JavaScript.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const url = new URL(request.url)
  const page = pageFrom(url)
  // A longer name matches nobody: it is cut rather than refused, so the page always answers (as /members).
  const name = (url.searchParams.get('name') ?? '').trim().slice(0, maxMemberSearchLength)
  const [users, t] = await Promise.all([
    getApi(request, context).chat.users({ name, page }).catch(unavailableOnServerError),
    getT(request, context, 'blocking'),
  ])
  return { users, page, name, title: t('search.title') }
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
  const back = activity && safe(activity) ? `/activities/${activity}` : safe(slug) ? `/p/${slug}` : form.get('to') === 'support' ? '/messenger' : '/messenger/new'
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
    const key = (error.code && refusalKeys[error.code]) ?? `messenger:open.${code}`
    return redirectWithToast(context, back, { kind: 'error', key })
  }
}

export default function NewMessage() {
  const { users, page, name } = useLoaderData<typeof loader>()
  const { t } = useTranslation('blocking')
  const met = users.data.filter((user) => user.has_met)
  const others = users.data.filter((user) => !user.has_met)
  const totalPages = users.metadata.total_pages
  const link = (to: number) => {
    const params = new URLSearchParams()
    if (name) params.set('name', name)
    if (to > 1) params.set('page', String(to))
    const query = params.toString()
    return query ? `/messenger/new?${query}` : '/messenger/new'
  }
  return (
    <>
      <p>
        <Link to="/messenger">{t('search.back')}</Link>
      </p>
      <h1>{t('search.title')}</h1>
      <p className="lead">{t('search.intro')}</p>
      <Form method="get" className="filters" role="search">
        <div className="field">
          <label htmlFor="name">{t('search.label')}</label>
          <span className="hint" id="name-hint">
            {t('search.hint')}
          </span>
          <input id="name" name="name" type="search" defaultValue={name} maxLength={maxMemberSearchLength} autoComplete="off" aria-describedby="name-hint" />
        </div>
        <div className="button-row">
          <SubmitButton pending="searching" className="button">
            {t('search.submit')}
          </SubmitButton>
        </div>
      </Form>
      {users.data.length === 0 ? <p className="card">{t(name ? 'search.empty' : 'search.emptyAll')}</p> : null}
      {met.length > 0 ? <UserSection id="met" title={t('search.metHeading')} users={met} /> : null}
      {others.length > 0 ? <UserSection id="others" title={t('search.othersHeading')} users={others} /> : null}
      {totalPages > 1 ? (
        <nav className="pagination" aria-label={t('search.pages')}>
          {page > 1 ? <Link to={link(page - 1)}>{t('search.previous')}</Link> : <span />}
          <span>{t('search.page', { page, pages: totalPages })}</span>
          {page < totalPages ? <Link to={link(page + 1)}>{t('search.next')}</Link> : <span />}
        </nav>
      ) : null}
    </>
  )
}

function UserSection({ id, title, users }: { id: string; title: string; users: ChatUser[] }) {
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <ul className="chat-user-list">
        {users.map((user) => (
          <li key={user.id}>
            <UserCard user={user} />
          </li>
        ))}
      </ul>
    </section>
  )
}

/** A member's card: photo, name (to their profile), and Message; Unblock instead for a member one blocked. */
function UserCard({ user }: { user: ChatUser }) {
  const { t } = useTranslation(['blocking', 'common'])
  const name = user.display_name ?? t('common:member.generic')
  const nameId = `user-${user.id}`
  const profile = `/p/${encodeURIComponent(user.slug)}`
  return (
    <div className="chat-user">
      {user.avatar ? (
        <img src={user.avatar.url} alt="" className="member-photo member-photo--small" />
      ) : (
        <span className="member-photo member-photo--small avatar--initial" aria-hidden="true">
          {name.slice(0, 1).toLocaleUpperCase()}
        </span>
      )}
      <div className="chat-user__name">
        <p id={nameId}>
          <Link to={profile}>{name}</Link>
        </p>
        {user.is_blocked ? <p>{t('search.blocked')}</p> : null}
      </div>
      {user.is_blocked ? (
        <BlockControl slug={user.slug} name={name} isBlocked returnTo="/messenger/new" className="button button--secondary" />
      ) : (
        <Form method="post" action="/messenger/new">
          <input type="hidden" name="user_id" value={user.id} />
          <input type="hidden" name="slug" value={user.slug} />
          <SubmitButton pending="opening" className="button" aria-describedby={nameId}>
            {t('search.message')}
          </SubmitButton>
        </Form>
      )}
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
