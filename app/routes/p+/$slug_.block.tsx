import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import {
  Form,
  isRouteErrorResponse,
  Link,
  useActionData,
  useLoaderData,
  type ClientActionFunctionArgs,
} from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { BlockExplanation, type BlockAnswer } from '#app/components/block-control.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { refusedForm } from '#app/utils/form-action.server.ts'
import { formText } from '#app/utils/forms.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { safeRedirectPath } from '#app/utils/redirect.ts'
import { reportHandledError } from '#app/utils/error-reporting.client.ts'
import { setToast } from '#app/utils/toast.server.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'

/** Where the page goes back to: a same-origin path only (QUALITY.md), else the member's profile. */
function returnTarget(value: string | null, slug: string) {
  return safeRedirectPath(value, `/p/${encodeURIComponent(slug)}`)
}

async function loadMember(request: Request, context: LoaderFunctionArgs['context'], slug: string | undefined) {
  const user = await requireUser(request, context)
  const member = await getApi(request, context).members.profile(slug ?? '').catch(notFoundOnMissing)
  // Oneself, or a member with no profile to show (suspended, banned, deleted): nothing to block here.
  if (member.id === user.id || member.is_suspended) throw data(null, { status: 404 })
  return member
}

/**
 * `/p/{slug}/block` (issue 14 §4, decision 034): the block confirmation, or the unblock one when
 * the member is already blocked, saying plainly what will happen. Works without JavaScript; the
 * entry points (profile, conversation, message request, attendee list) link here with `returnTo`.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const member = await loadMember(request, context, params.slug)
  const [state, t] = await Promise.all([getApi(request, context).blocks.state(member.id).catch(notFoundOnMissing), getT(request, context, ['blocking', 'common'])])
  const name = member.display_name ?? t('common:member.generic')
  const returnTo = returnTarget(new URL(request.url).searchParams.get('returnTo'), member.slug)
  return {
    slug: member.slug,
    name,
    isBlocked: state.is_blocked,
    returnTo,
    title: t(state.is_blocked ? 'blocking:unblock.title' : 'blocking:block.title', { name }),
  }
}

/**
 * `intent=block` or `intent=unblock`, then back to `returnTo` with a toast. A failure (spec §8)
 * answers the page again: its loader reads the block state afresh and the page says it did not work.
 * `inPlace=1` (the `BlockControl` dialog, decision 041): no redirect, the answer is data (the toast
 * still comes with it); a failure answers the state read afresh.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await request.formData()
  const intent = form.get('intent')
  if (intent !== 'block' && intent !== 'unblock') throw data({ error: 'Unknown intent' }, { status: 400 })
  const inPlace = formText(form, 'inPlace') === '1'
  const member = await loadMember(request, context, params.slug)
  const blocks = getApi(request, context).blocks
  try {
    if (intent === 'block') await blocks.block(member.id)
    else await blocks.unblock(member.id)
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return notFoundOnMissing(error)
    // Spec §4, §8: a failed block update is reported (Sentry when configured, and the log), with
    // the request id, never naming the members (decision 083).
    context.services.reportError(error, { requestId: context.requestId, failed: intent, path: '/p/{slug}/block', status: error instanceof ApiError ? error.status : null })
    const now = await blocks.state(member.id).then(
      (state) => state.is_blocked,
      () => null,
    )
    // The page again, ready to try again: still going back where the member came from.
    const returnTo = returnTarget(formText(form, 'returnTo'), member.slug)
    return refusedForm(context, { failed: intent, isBlocked: now, returnTo } satisfies BlockAnswer, error instanceof ApiError && error.status < 500 ? error.status : 503)
  }
  const toast = await setToast(context, { kind: 'success', key: intent === 'block' ? 'blocking:block.done' : 'blocking:unblock.done' })
  if (inPlace) return data({ done: intent, isBlocked: intent === 'block' } satisfies BlockAnswer, { headers: { 'Set-Cookie': toast } })
  const to = returnTarget(formText(form, 'returnTo'), member.slug)
  return redirect(to, { headers: { 'Set-Cookie': toast } })
}

/**
 * The request never reached the server or its answer was unreadable (network down, proxy
 * error): answered as a failure like the server's own, not as an error page (decision 041).
 * A plain value: Remix would nest a `data()` answer inside the data it proxies from the server.
 */
export async function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
  const intent = (await request.clone().formData()).get('intent') === 'unblock' ? 'unblock' : 'block'
  try {
    return await serverAction<typeof action>()
  } catch (error) {
    if (error instanceof Response || isRouteErrorResponse(error)) throw error
    // It never reached the server, so the server could not report it: the browser does (decision 083).
    reportHandledError(error, { failed: intent, where: 'block-control' })
    return { failed: intent, isBlocked: null } satisfies BlockAnswer
  }
}

export default function BlockMember() {
  const { name, isBlocked, returnTo: loadedReturnTo } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof clientAction>()
  const failed = answer && 'failed' in answer ? answer : null
  const returnTo = (failed && 'returnTo' in failed ? failed.returnTo : undefined) ?? loadedReturnTo
  const { t } = useTranslation('blocking')
  const mode = isBlocked ? 'unblock' : 'block'
  return (
    <section aria-labelledby="block-title">
      <h1 id="block-title">{t(`${mode}.title`, { name })}</h1>
      {failed ? (
        <div className="notice notice--error" role="alert">
          <p>{t(`${failed.failed}.failed`, { name })}</p>
          {/* The state read afresh by the action, else the page's own. */}
          <p>{t((failed.isBlocked ?? isBlocked) ? 'nowBlocked' : 'nowNotBlocked', { name })}</p>
        </div>
      ) : null}
      <BlockExplanation intent={mode} name={name} />
      <Form method="post" className="button-row">
        <input type="hidden" name="returnTo" value={returnTo} />
        <SubmitButton pending="working" pendingText={t(`${mode}.pending`, { name })} name="intent" value={mode} className={mode === 'block' ? 'button button--danger' : 'button'}>
          {t(`${mode}.confirm`, { name })}
        </SubmitButton>
        <Link to={returnTo} className="button button--secondary">
          {t('cancel')}
        </Link>
      </Form>
    </section>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
