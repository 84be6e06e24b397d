import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { TextAreaField } from '#app/components/ui/field.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { ApiError } from '#app/utils/api.server.ts'
import { endImpersonationInSession, getApi, requireUser } from '#app/utils/auth.server.ts'
import { refusedForm } from '#app/utils/form-action.server.ts'
import { formPageHeaders, formText, keepFormOnOutage } from '#app/utils/forms.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/**
 * `/impersonation` (issue 32 §2, decision 078): while a staff member views Circle 55 as a member,
 * whom, why and until when; "Stop" (also on the banner of every page), and, for a role that may,
 * switching to acting on the member's behalf with a stated reason. Nothing to see otherwise (404).
 */
export const headers = formPageHeaders

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const t = await getT(request, context)
  const impersonation = await getApi(request, context)
    .staff.impersonation()
    .catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) throw new Response(null, { status: 404 })
      throw error
    })
  return { title: t('impersonation.title'), impersonation }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData()
  const reason = formText(form, 'reason').trim()
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      const api = getApi(request, context).staff
      if (form.get('intent') === 'act') {
        if (!reason) return refusedForm(context, { error: 'impersonation.reasonRequired', reason }, 400)
        await api.act(reason)
        return redirectWithToast(context, '/impersonation', 'impersonation.actingNow')
      }
      const { subject } = await api.impersonation().catch(() => ({ subject: null }))
      await api.stopImpersonating().catch((error: unknown) => {
        // Already over (run out meanwhile): stopping is done either way.
        if (!(error instanceof ApiError && (error.status === 403 || error.status === 404))) throw error
      })
      await endImpersonationInSession(request, context)
      const back = subject ? `/admin/members/${subject.id}` : '/admin'
      return redirectWithToast(context, back, 'impersonation.stopped')
    },
    () => ({ error: 'errors.notSaved', reason }),
  )
}

export default function Impersonation() {
  const { impersonation } = useLoaderData<typeof loader>()
  const refused = useActionData<typeof action>()
  const { t, i18n } = useTranslation()
  const name = impersonation.subject.display_name ?? t('member.generic')
  const time = (iso: string) => new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short', timeZone: 'America/New_York' }).format(new Date(iso))
  return (
    <div className="prose">
      <h1>{t('impersonation.title')}</h1>
      <p className="lead">{t(impersonation.mode === 'acting' ? 'impersonation.acting' : 'impersonation.viewing', { name, time: time(impersonation.expires_at) })}</p>
      <dl>
        <dt>{t('impersonation.reasonShown')}</dt>
        <dd>{impersonation.reason}</dd>
        <dt>{t('impersonation.since')}</dt>
        <dd>{time(impersonation.started_at)}</dd>
        <dt>{t('impersonation.endsAt')}</dt>
        <dd>{time(impersonation.expires_at)}</dd>
      </dl>
      <p>{t(impersonation.mode === 'acting' ? 'impersonation.actingRules' : 'impersonation.viewingRules')}</p>
      {impersonation.mode === 'viewing' && impersonation.can_act ? (
        <section aria-labelledby="act-heading">
          <h2 id="act-heading">{t('impersonation.actHeading')}</h2>
          <Form method="post">
            <input type="hidden" name="intent" value="act" />
            <TextAreaField
              id="reason"
              name="reason"
              label={t('impersonation.actReason')}
              hint={t('impersonation.actHint')}
              errors={refused ? [refused.error] : undefined}
              rows={3}
              maxLength={500}
              defaultValue={refused?.reason ?? ''}
            />
            <SubmitButton className="button button--secondary" pending="saving">
              {t('impersonation.act')}
            </SubmitButton>
          </Form>
        </section>
      ) : null}
      <Form method="post">
        <SubmitButton className="button" name="intent" value="stop" pending="saving">
          {t('impersonation.stop')}
        </SubmitButton>
      </Form>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
