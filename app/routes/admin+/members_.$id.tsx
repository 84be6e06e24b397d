import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useSearchParams } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { BreakableText } from '#app/components/ui/breakable-text.tsx'
import { TextAreaField } from '#app/components/ui/field.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { refusedForm } from '#app/utils/form-action.server.ts'
import { formPageHeaders, formText, keepFormOnOutage } from '#app/utils/forms.server.ts'
import { ignoreUnlessUnavailable, notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { commitSession, getSession } from '#app/utils/session.server.ts'

/**
 * `/admin/members/{id}` (issue 32 §2, decision 078): a member as the team sees them, and, for a
 * role that may, "View Circle 55 as them" with a required reason. A staff member who signed in
 * more than 15 minutes ago signs in again first, the reason kept in the address; then every page
 * is the member's, under the banner, until they stop or 30 minutes pass.
 */
export const headers = formPageHeaders

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const t = await getT(request, context, 'moderation')
  const api = getApi(request, context).staff
  // The link to the audit log only for a role the API lets read it (its tool, `read:audit`: admins).
  const [member, overview] = await Promise.all([api.member(params.id!).catch(notFoundOnMissing), api.overview().catch(ignoreUnlessUnavailable)])
  return { title: t('admin.member.title', { name: member.name }), member, canReadAudit: overview?.tools.includes('audit') ?? false }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const form = await request.formData()
  const reason = formText(form, 'reason').trim()
  const id = params.id!
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      if (!reason) return refusedForm(context, { error: 'moderation:admin.member.reasonRequired', reason }, 400)
      try {
        const impersonation = await getApi(request, context).staff.impersonate(id, reason)
        const session = await getSession(request, context)
        session.set('impersonation', impersonation.id)
        await commitSession(session, context)
        context.api = undefined
        return redirect('/')
      } catch (error) {
        if (error instanceof ApiError && error.code === 'fresh_sign_in_required') {
          const back = `/admin/members/${id}?reason=${encodeURIComponent(reason)}`
          return redirect(`/login?fresh=1&returnTo=${encodeURIComponent(back)}`)
        }
        if (error instanceof ApiError && error.status === 409) return refusedForm(context, { error: `moderation:admin.member.refused.${error.code}`, reason }, 409)
        throw error
      }
    },
    () => ({ error: 'common:errors.notSaved', reason }),
  )
}

export default function AdminMember() {
  const { member, canReadAudit } = useLoaderData<typeof loader>()
  const refused = useActionData<typeof action>()
  const [searchParams] = useSearchParams()
  const { t, i18n } = useTranslation('moderation')
  const day = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeZone: 'America/New_York' }).format(new Date(iso))
  const dayAndTime = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeStyle: 'short', timeZone: 'America/New_York' }).format(new Date(iso))
  return (
    <div className="prose">
      <h1>{member.name || t('common:member.generic')}</h1>
      <dl>
        <dt>{t('admin.member.email')}</dt>
        <dd>{member.email ? <BreakableText text={member.email} /> : '—'}</dd>
        <dt>{t('admin.member.place')}</dt>
        <dd>{[member.city, member.region].filter(Boolean).join(', ') || '—'}</dd>
        <dt>{t('admin.member.joined')}</dt>
        <dd>{day(member.joined_at)}</dd>
        <dt>{t('admin.member.lastSignIn')}</dt>
        <dd>{member.last_sign_in_at ? day(member.last_sign_in_at) : '—'}</dd>
        {member.role ? (
          <>
            <dt>{t('admin.member.role')}</dt>
            <dd>{t(`admin.roles.${member.role}`)}</dd>
          </>
        ) : null}
        {member.suspended ? (
          <>
            <dt>{t('admin.member.status')}</dt>
            <dd>{t('admin.member.suspended')}</dd>
          </>
        ) : null}
      </dl>
      {member.viewed_as.length > 0 ? (
        <section aria-labelledby="viewed-heading">
          <h2 id="viewed-heading">{t('admin.member.viewedHeading')}</h2>
          <ul>
            {member.viewed_as.map((view) => (
              <li key={view.started_at}>
                {t(view.ended_at ? 'admin.member.viewed' : 'admin.member.viewing', { name: view.staff_name || t('common:member.generic'), when: dayAndTime(view.started_at), reason: view.reason })}
                {view.acting_reason ? ` ${t('admin.member.acted', { reason: view.acting_reason })}` : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {canReadAudit ? (
        <p>
          <Link to={`/admin/audit?member=${member.id}`}>{t('admin.member.auditLink')}</Link>
        </p>
      ) : null}
      {member.can_impersonate ? (
        <section aria-labelledby="impersonate-heading">
          <h2 id="impersonate-heading">{t('admin.member.impersonateHeading')}</h2>
          <p>{t('admin.member.impersonateIntro')}</p>
          <Form method="post">
            <TextAreaField
              id="reason"
              name="reason"
              label={t('admin.member.reason')}
              hint={t('admin.member.reasonHint')}
              errors={refused ? [refused.error] : undefined}
              rows={3}
              maxLength={500}
              required
              defaultValue={refused?.reason ?? searchParams.get('reason') ?? ''}
            />
            <SubmitButton className="button" pending="saving">
              {t('admin.member.impersonate', { name: member.display_name ?? t('common:member.generic') })}
            </SubmitButton>
          </Form>
        </section>
      ) : null}
      <p>
        <Link to="/admin/members">{t('admin.members.back')}</Link>
      </p>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
