import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { staffRoles, type StaffRole } from '#contract/staff-roles.ts'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { BreakableText } from '#app/components/ui/breakable-text.tsx'
import { TextField } from '#app/components/ui/field.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { ApiError } from '#app/utils/api.server.ts'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { refusedForm } from '#app/utils/form-action.server.ts'
import { formPageHeaders, formText, keepFormOnOutage } from '#app/utils/forms.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/**
 * `/admin/staff` (issue 32 §1, decision 077): the team and what each role may do; an admin adds a
 * member by their email with a role, changes a role, or takes someone off the team. The API
 * decides who may (`manage:staff`, admins) and records each change; anyone else gets its 403.
 */
export const headers = formPageHeaders
const PATH = '/admin/staff'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const me = await requireUser(request, context)
  const t = await getT(request, context, 'moderation')
  return { title: t('admin.staff.title'), team: await getApi(request, context).staff.list().catch(notFoundOnMissing), me: me.id }
}

const isRole = (value: string): value is StaffRole => (staffRoles as readonly string[]).includes(value)

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData()
  const id = formText(form, 'id')
  const email = formText(form, 'email').trim()
  const role = formText(form, 'role')
  const intent = form.get('intent')
  const refused = (field: 'email' | 'role' | 'form', code: string, status = 400) =>
    refusedForm(context, { id, email, role, field, error: `moderation:admin.staff.errors.${code}` }, status)
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      const api = getApi(request, context).staff
      if (intent === 'add' && !email) return refused('email', 'email_required')
      if (intent !== 'remove' && !isRole(role)) return refused('role', 'role_invalid')
      try {
        if (intent === 'add') await api.grant(email, role as StaffRole)
        else await api.change(id, intent === 'remove' ? null : (role as StaffRole))
      } catch (error) {
        if (error instanceof ApiError && error.status === 422) return refused('email', error.fields.email?.[0] ?? 'email_invalid', 422)
        if (error instanceof ApiError && error.status === 409 && error.code) return refused('form', error.code, 409)
        throw error
      }
      return redirectWithToast(context, PATH, intent === 'remove' ? 'moderation:admin.staff.removed' : 'moderation:admin.staff.saved')
    },
    () => ({ id, email, role, field: 'form' as const, error: 'common:errors.notSaved' }),
  )
}

export default function Staff() {
  const { team, me } = useLoaderData<typeof loader>()
  const refused = useActionData<typeof action>()
  const { t } = useTranslation('moderation')
  const adding = refused && !refused.id ? refused : null
  return (
    <div className="prose">
      <h1>{t('admin.staff.title')}</h1>
      <p className="lead">{t('admin.staff.intro')}</p>
      <h2>{t('admin.staff.rolesHeading')}</h2>
      <dl className="role-list">
        {staffRoles.map((role) => (
          <div key={role}>
            <dt>{t(`admin.roles.${role}`)}</dt>
            <dd>{t(`admin.roleHints.${role}`)}</dd>
          </div>
        ))}
      </dl>
      <h2>{t('admin.staff.members')}</h2>
      <ul className="review-list">
        {team.map((member) => {
          const failed = refused && refused.id === member.id ? refused : null
          return (
            <li key={member.id} className="card" data-testid="staff-member">
              <p>
                <strong>
                  <BreakableText text={t('admin.staff.member', { name: member.name, email: member.email ?? '' })} />
                </strong>
              </p>
              {member.id === me ? (
                <p>
                  {t(`admin.roles.${member.role}`)}. {t('admin.staff.you')}
                </p>
              ) : (
                <Form method="post">
                  <input type="hidden" name="id" value={member.id} />
                  {failed ? (
                    <p className="field-error" role="alert">
                      {t(failed.error)}
                    </p>
                  ) : null}
                  <div className="field">
                    <label htmlFor={`role-${member.id}`}>{t('admin.staff.roleFor', { name: member.name })}</label>
                    <RoleSelect id={`role-${member.id}`} value={member.role} />
                  </div>
                  <div className="button-row">
                    <SubmitButton className="button button--secondary" name="intent" value="change" pending="saving">
                      {t('admin.staff.save')}
                    </SubmitButton>
                    <SubmitButton className="button button--secondary" name="intent" value="remove" pending="saving">
                      {t('admin.staff.remove')}
                    </SubmitButton>
                  </div>
                </Form>
              )}
            </li>
          )
        })}
      </ul>
      <section aria-labelledby="add-staff">
        <h2 id="add-staff">{t('admin.staff.addHeading')}</h2>
        <Form method="post">
          <input type="hidden" name="intent" value="add" />
          {adding?.field === 'form' ? (
            <p className="field-error" role="alert">
              {t(adding.error)}
            </p>
          ) : null}
          <TextField
            id="email"
            name="email"
            type="email"
            label={t('admin.staff.email')}
            hint={t('admin.staff.emailHint')}
            errors={adding?.field === 'email' ? [adding.error] : undefined}
            defaultValue={adding?.email ?? ''}
            autoComplete="off"
            spellCheck={false}
          />
          <div className="field">
            <label htmlFor="new-role">{t('admin.staff.role')}</label>
            {adding?.field === 'role' ? (
              <p className="field-error" id="new-role-error">
                {t(adding.error)}
              </p>
            ) : null}
            <RoleSelect id="new-role" value={adding && isRole(adding.role) ? adding.role : 'support'} describedBy={adding?.field === 'role' ? 'new-role-error' : undefined} />
          </div>
          <SubmitButton className="button" pending="saving">
            {t('admin.staff.add')}
          </SubmitButton>
        </Form>
      </section>
    </div>
  )
}

function RoleSelect({ id, value, describedBy }: { id: string; value: StaffRole; describedBy?: string | undefined }) {
  const { t } = useTranslation('moderation')
  return (
    <select id={id} name="role" defaultValue={value} aria-describedby={describedBy}>
      {staffRoles.map((role) => (
        <option key={role} value={role}>
          {t(`admin.roles.${role}`)}
        </option>
      ))}
    </select>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
