import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { useRootData } from '#app/utils/root-data.ts'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { BreakableText } from '#app/components/ui/breakable-text.tsx'
import { endSession, getApi, isImpersonating, isImpersonationRefusal, requireUser } from '#app/utils/auth.server.ts'
import { isFlagOn } from '#app/utils/flags.server.ts'
import { ignoreUnlessUnavailable } from '#app/utils/http.server.ts'
import { isLanguage, languageNames } from '#app/utils/i18n.ts'
import { detectLanguage, getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { unsubscribeFromPush } from '#app/utils/push.client.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { useDisplayName } from '#app/utils/use-display-name.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context)
  const t = await getT(request, context, 'account')
  // Deleting the account is the member's alone: not offered while the team views Circle 55 as them.
  const confirmDelete = new URL(request.url).searchParams.get('confirm') === 'delete' && !(await isImpersonating(request, context))
  const payments = context.services.config.payments !== false
  const [referrals, medicare] = await Promise.all([isFlagOn(request, context, 'referrals', true), showMedicareLink(request, context)])
  return { user, confirmDelete, payments, links: { referrals, medicare }, title: t(confirmDelete ? 'delete.title' : 'title') }
}

/**
 * "Calls about Medicare plans" is linked while they are offered (the `medicare-calls` flag, decision
 * 086) and, whatever the flag, while the member has a consent in force: they must always be able to
 * see it and stop it. (The API cannot answer: linked, the page says what it can.)
 */
async function showMedicareLink(request: Request, context: LoaderFunctionArgs['context']) {
  if (await isFlagOn(request, context, 'medicare-calls', true)) return true
  const state = await getApi(request, context)
    .medicare.state(await detectLanguage(request, context))
    .catch(ignoreUnlessUnavailable)
  return state === null || state.consent !== null
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context)
  const form = await request.formData()
  try {
    switch (form.get('intent')) {
      case 'delete-account': {
        await getApi(request, context).users.delete(user.id)
        return endAndGoHome(request, context, 'account:delete.done')
      }
      case 'sign-out-everywhere': {
        await getApi(request, context).account.signOutEverywhere()
        return endAndGoHome(request, context, 'account:signOutEverywhere.done')
      }
      default:
        throw data({ error: 'Unknown intent' }, { status: 400 })
    }
  } catch (error) {
    if (isImpersonationRefusal(error)) return redirectWithToast(context, '/account', { kind: 'error', key: 'common:impersonation.refused' })
    throw error
  }
}

/** Ends this session too (the API has ended the others) and goes home with a toast. */
async function endAndGoHome(request: Request, context: ActionFunctionArgs['context'], toastKey: string) {
  const headers = new Headers()
  headers.append('Set-Cookie', await endSession(request, context))
  return redirectWithToast(context, '/', toastKey, headers)
}

export default function Account() {
  const { user, confirmDelete, payments, links } = useLoaderData<typeof loader>()
  return confirmDelete ? <ConfirmDelete /> : <AccountOverview user={user} payments={payments} links={links} />
}

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>

function AccountOverview({ user, payments, links }: { user: Loaded['user']; payments: boolean; links: Loaded['links'] }) {
  const { t } = useTranslation('account')
  const name = useDisplayName(user)
  const language = isLanguage(user.locale) ? languageNames[user.locale] : null
  const viewingAs = useRootData()?.impersonation ?? null
  return (
    <div className="prose">
      <h1>{t('title')}</h1>
      {user.avatar ? <img src={user.avatar.url} alt={t('photoAlt')} className="avatar avatar--large" width={96} height={96} /> : null}
      <dl className="details">
        <dt>{t('name')}</dt>
        <dd>{name}</dd>
        <dt>{t('emailLabel')}</dt>
        <dd>{user.email ? <BreakableText text={user.email} /> : t('notGiven')}</dd>
        <dt>{t('phone')}</dt>
        <dd>{user.formatted_phone ?? t('notGiven')}</dd>
        <dt>{t('city')}</dt>
        <dd>{user.city ?? t('notGiven')}</dd>
        <dt>{t('language')}</dt>
        <dd lang={isLanguage(user.locale) ? user.locale : undefined}>{language ?? t('notGiven')}</dd>
      </dl>
      {/* Buttons, not text links: each at least 44px tall and easy to tell apart (issue 12 §6). */}
      <ul className="actions" role="list">
        <li>
          <Link to="/notifications" className="button button--secondary">
            {t('common:nav.notifications')}
          </Link>
        </li>
        <li>
          <Link to="/account/edit" className="button button--secondary">
            {t('links.edit')}
          </Link>
        </li>
        <li>
          <Link to="/account/notification-settings" className="button button--secondary">
            {t('links.notifications')}
          </Link>
        </li>
        {viewingAs ? null : (
          <>
            <li>
              <Link to="/account/phone" className="button button--secondary">
                {t('links.phone')}
              </Link>
            </li>
            <li>
              <Link to="/account/email" className="button button--secondary">
                {t('links.email')}
              </Link>
            </li>
          </>
        )}
        {payments ? (
          <>
            {viewingAs ? null : (
              <li>
                <Link to="/account/payments" className="button button--secondary">
                  {t('links.payments')}
                </Link>
              </li>
            )}
            <li>
              <Link to="/account/fees" className="button button--secondary">
                {t('links.fees')}
              </Link>
            </li>
          </>
        ) : null}
        <li>
          <Link to="/account/subscription" className="button button--secondary">
            {t('subscriptions:account.title')}
          </Link>
        </li>
        {links.medicare ? (
          <li>
            <Link to="/account/medicare" className="button button--secondary">
              {t('medicare:account.link')}
            </Link>
          </li>
        ) : null}
        {links.referrals ? (
          <li>
            <Link to="/referrals" className="button button--secondary">
              {t('referrals:accountLink')}
            </Link>
          </li>
        ) : null}
        <li>
          <a href="#language-select" className="button button--secondary">
            {t('links.language')}
          </a>
        </li>
        <li>
          <Link to="/p" className="button button--secondary">
            {t('links.publicProfile')}
          </Link>
        </li>
        <li>
          <Link to="/account/verification" className="button button--secondary" aria-describedby="verification-hint">
            {t('links.verification')}
          </Link>
          <p id="verification-hint">{t('links.verificationHint')}</p>
        </li>
        {user.staff_role ? (
          <li>
            <Link to="/admin" className="button button--secondary">
              {t('moderation:admin.home.title')}
            </Link>
          </li>
        ) : null}
      </ul>

      {viewingAs ? (
        // Never done by the team as the member (decision 078): their sign-in, email, phone, cards and account.
        <p className="notice">{t('common:impersonation.accountHidden')}</p>
      ) : (
        <>
          <h2>{t('signOutEverywhere.heading')}</h2>
          <p>{t('signOutEverywhere.intro')}</p>
          <Form method="post" onSubmit={() => void unsubscribeFromPush()}>
            <input type="hidden" name="intent" value="sign-out-everywhere" />
            <SubmitButton pending="signingOut" className="button button--secondary">
              {t('signOutEverywhere.submit')}
            </SubmitButton>
          </Form>

          <h2>{t('delete.heading')}</h2>
          <p>{t('delete.intro')}</p>
          <Link to="/account?confirm=delete" className="button button--danger">
            {t('delete.start')}
          </Link>
        </>
      )}
    </div>
  )
}

/** The confirmation page (works without JavaScript): says plainly what deleting does. */
function ConfirmDelete() {
  const { t } = useTranslation('account')
  return (
    <div className="prose">
      <h1>{t('delete.title')}</h1>
      <p>{t('delete.body')}</p>
      <ul>
        <li>{t('delete.hosted')}</li>
        <li>{t('delete.seats')}</li>
        <li>{t('delete.erased')}</li>
        <li>{t('delete.history')}</li>
      </ul>
      <p>
        <strong>{t('delete.final')}</strong>
      </p>
      <Form method="post" className="button-row">
        <input type="hidden" name="intent" value="delete-account" />
        <SubmitButton pending="deleting" className="button button--danger">
          {t('delete.confirm')}
        </SubmitButton>
        <Link to="/account" className="button button--secondary">
          {t('delete.cancel')}
        </Link>
      </Form>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
