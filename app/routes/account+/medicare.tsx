import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { OnlyTheMember, useViewingAs } from '#app/components/only-the-member.tsx'
import { getApi, isImpersonationRefusal, requireUser } from '#app/utils/auth.server.ts'
import { formPageHeaders, formText, loadFormPage } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { MedicareForm, MedicareGiven, MedicareHelp, MedicareNoOffer } from './__medicare-parts.tsx'
import { giveMedicare, loadMedicare } from './__medicare.server.ts'

/**
 * `/account/medicare` (spec §3 "Medicare registration", issue 33 §2, decision 086): the member lets
 * one named, licensed insurance agency call them about Medicare plans and the topics they choose,
 * or, once they have, sees what they agreed to, when and to whom, and stops it with one press.
 * Optional, never a condition of anything; plain forms. While the team views Circle 55 as the
 * member, only what they agreed to shows (the API refuses the rest anyway).
 */
export const headers = formPageHeaders

const PATH = '/account/medicare'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, 'medicare')
  return loadFormPage(
    context,
    async () => ({ ...(await loadMedicare(request, context)), title: t('title') }),
    async () => ({ consent: null, offer: null, phone: null, title: t('title') }),
  )
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData()
  switch (formText(form, 'intent')) {
    case 'give':
      return giveMedicare(request, context, form, () => redirectWithToast(context, PATH, { kind: 'success', key: 'medicare:done.given' }))
    case 'stop': {
      await requireUser(request, context)
      try {
        await getApi(request, context).medicare.stop()
      } catch (error) {
        // Only the member stops it (decision 086): the team viewing as them is told so.
        if (isImpersonationRefusal(error)) return redirectWithToast(context, PATH, { kind: 'error', key: 'common:impersonation.refused' })
        throw error
      }
      return redirectWithToast(context, PATH, { kind: 'success', key: 'medicare:done.stopped' })
    }
    default:
      throw data({ error: 'Unknown intent' }, { status: 400 })
  }
}

export default function AccountMedicare() {
  const { consent, offer, phone } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation('medicare')
  const viewingAs = useViewingAs()
  return (
    <div className="prose">
      <h1>{t('title')}</h1>
      {consent ? (
        <MedicareGiven consent={consent} canStop={!viewingAs} />
      ) : offer ? (
        <>
          <p className="lead">{t('intro', { agency: offer.partner.name })}</p>
          <OnlyTheMember>
            <MedicareForm offer={offer} phone={phone} lastResult={lastResult} />
          </OnlyTheMember>
        </>
      ) : (
        <MedicareNoOffer lastResult={lastResult} />
      )}
      {consent ? <OnlyTheMember>{null}</OnlyTheMember> : null}
      <MedicareHelp />
      <p>
        <Link to="/account">{t('account.back')}</Link>
      </p>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
