import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { endSession, getApi, requireUser } from '#app/utils/auth.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { setToast } from '#app/utils/toast.server.ts'
import { useDisplayName } from '#app/utils/use-display-name.ts'
import { BreakableText } from '#app/components/ui/breakable-text.tsx'

export const handle = { i18n: ['common', 'account', 'verification'] }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context)
  const t = await getT(request, context, 'account')
  const confirmDelete = new URL(request.url).searchParams.get('confirm') === 'delete'
  return { user, confirmDelete, title: t(confirmDelete ? 'delete.title' : 'title') }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context)
  const form = await request.formData()
  switch (form.get('intent')) {
    case 'delete-account': {
      await getApi(request, context).users.delete(user.id)
      const headers = new Headers()
      headers.append('Set-Cookie', await endSession(request, context))
      headers.append('Set-Cookie', await setToast(context, { kind: 'success', key: 'account:delete.done' }))
      return redirect('/', { headers })
    }
    default:
      throw data({ error: 'Unknown intent' }, { status: 400 })
  }
}

export default function Account() {
  const { user, confirmDelete } = useLoaderData<typeof loader>()
  const { t } = useTranslation('account')
  const name = useDisplayName(user)
  if (confirmDelete) {
    return (
      <div className="prose">
        <h1>{t('delete.title')}</h1>
        <p>{t('delete.body')}</p>
        <Form method="post" className="button-row">
          <input type="hidden" name="intent" value="delete-account" />
          <button type="submit" className="button button--danger">
            {t('delete.confirm')}
          </button>
          <Link to="/account" className="button button--secondary">
            {t('delete.cancel')}
          </Link>
        </Form>
      </div>
    )
  }
  return (
    <div className="prose">
      <h1>{t('title')}</h1>
      <dl className="details">
        <dt>{t('name')}</dt>
        <dd>{name}</dd>
        <dt>{t('email')}</dt>
        <dd>{user.email ? <BreakableText text={user.email} /> : null}</dd>
        <dt>{t('phone')}</dt>
        <dd>{user.formatted_phone ?? t('notGiven')}</dd>
        <dt>{t('age')}</dt>
        <dd>{user.age ?? t('notGiven')}</dd>
      </dl>
      <p>
        <Link to="/get-started">{t('editBasicInfo')}</Link>
      </p>
      <p>
        <Link to="/account/verification">{t('verification:title')}</Link>
      </p>
      {user.admin ? (
        <p>
          <Link to="/admin/verifications">{t('verification:admin.title')}</Link>
        </p>
      ) : null}
      <h2>{t('delete.heading')}</h2>
      <p>{t('delete.intro')}</p>
      <Link to="/account?confirm=delete" className="button button--danger">
        {t('delete.start')}
      </Link>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageTitle(matches, data?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
