import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import type { AdminMedicarePartner } from '#contract/medicare.ts'
import { maxEmailLength } from '#contract/limits.ts'
import { medicarePartnerLimits } from '#contract/medicare-rules.ts'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { TextAreaField, TextField } from '#app/components/ui/field.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formAction } from '#app/utils/form-action.server.ts'
import { formPageHeaders } from '#app/utils/forms.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { useZodForm } from '#app/utils/use-zod-form.ts'

/**
 * `/admin/medicare` (issue 33 §2, decision 086): the one licensed agency that may call members who
 * ask, its details (what members read before agreeing), how many consents to it are in force, and
 * its list to download, where its stop notices go and how many went (each stop is emailed to it at
 * once, decision 086). The API decides who may (`manage:medicare_partner` and
 * `export:medicare_consents`: finance and admins), audits every change and every download.
 */
export const headers = formPageHeaders

const PATH = '/admin/medicare'
const f = (code: string) => `medicare:admin.fields.${code}`
const count = (code: string, max: number) =>
  z.coerce
    .number({ error: f(code) })
    .int(f(code))
    .min(1, f(code))
    .max(max, f(code))

const schema = z.object({
  name: z.string({ error: f('name_required') }).trim().min(1, f('name_required')).max(medicarePartnerLimits.name, f('name_too_long')),
  license: z.string({ error: f('license_required') }).trim().min(1, f('license_required')).max(medicarePartnerLimits.license, f('license_too_long')),
  phone: z.string({ error: f('phone_required') }).trim().min(1, f('phone_required')).max(40, f('phone_invalid')),
  disclaimer: z.string({ error: f('disclaimer_required') }).trim().min(1, f('disclaimer_required')).max(medicarePartnerLimits.disclaimer, f('disclaimer_too_long')),
  organization_count: count('organization_count_invalid', medicarePartnerLimits.count.max),
  plan_count: count('plan_count_invalid', medicarePartnerLimits.count.max),
  callback_days: count('callback_days_invalid', medicarePartnerLimits.callbackDays.max),
  notices_email: z
    .string({ error: f('notices_email_required') })
    .trim()
    .min(1, f('notices_email_required'))
    .max(maxEmailLength, f('notices_email_invalid'))
    .pipe(z.email({ error: f('notices_email_invalid') })),
  active: z.literal('on').optional(),
  new_agency: z.literal('on').optional(),
})
const fieldOrder = ['name', 'license', 'phone', 'disclaimer', 'organization_count', 'plan_count', 'callback_days', 'notices_email'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const t = await getT(request, context, 'medicare')
  const medicare = await getApi(request, context).medicare.admin().catch(notFoundOnMissing)
  return { title: t('admin.title'), ...medicare }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema })
  return formAction({ request, context }, submission, {
    notSaved: 'medicare:errors.notSaved',
    apiErrors: { prefix: 'medicare:admin.fields.' },
    save: async (value) => {
      await getApi(request, context).medicare.savePartner({
        name: value.name,
        license: value.license,
        phone: value.phone,
        disclaimer: value.disclaimer,
        organization_count: value.organization_count,
        plan_count: value.plan_count,
        callback_days: value.callback_days,
        notices_email: value.notices_email,
        active: value.active === 'on',
        new_agency: value.new_agency === 'on',
      })
      return redirectWithToast(context, PATH, { kind: 'success', key: 'medicare:admin.saved' })
    },
  })
}

export default function AdminMedicare() {
  const { partner, consents_in_force: inForce, stop_notices: stopNotices } = useLoaderData<typeof loader>()
  const { t, i18n } = useTranslation('medicare')
  const day = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeZone: 'America/New_York' }).format(new Date(iso))
  return (
    <div className="prose">
      <h1>{t('admin.title')}</h1>
      <p className="lead">{t('admin.intro')}</p>
      {partner ? (
        <section aria-labelledby="medicare-current" className="card" data-testid="medicare-partner">
          <h2 id="medicare-current">{t('admin.current')}</h2>
          <p>
            <strong>{partner.name}</strong>
          </p>
          <p>{partner.active ? t('admin.offered') : t('admin.paused')}</p>
          <p>{t('admin.revision', { revision: partner.revision, date: day(partner.updated_at) })}</p>
          <p data-testid="medicare-in-force">{t('admin.inForce', { count: inForce })}</p>
          {partner.notices_email ? (
            <p data-testid="medicare-stop-notices">
              {t('admin.stopNotices', { count: stopNotices.last_30_days })}
              {stopNotices.not_delivered > 0 ? <strong> {t('admin.stopNoticesFailed', { count: stopNotices.not_delivered })}</strong> : null}
            </p>
          ) : (
            <p className="notice notice--error" data-testid="medicare-no-notices-email">
              <strong>{t('admin.noNoticesEmail')}</strong>
            </p>
          )}
        </section>
      ) : (
        <p>{t('admin.none')}</p>
      )}
      <PartnerForm key={partner ? `${partner.id}-${partner.revision}` : 'new'} partner={partner} />
      {partner ? (
        <section aria-labelledby="medicare-export">
          <h2 id="medicare-export">{t('admin.exportHeading')}</h2>
          <p>{t('admin.exportIntro')}</p>
          <p>
            <a href={`${PATH}/export`} download className="button button--secondary">
              {t('admin.download')}
            </a>
          </p>
        </section>
      ) : null}
    </div>
  )
}

function PartnerForm({ partner }: { partner: AdminMedicarePartner | null }) {
  const { t } = useTranslation('medicare')
  const lastResult = useActionData<typeof action>()
  const [form, fields] = useZodForm({
    id: 'medicare-partner',
    lastResult,
    schema,
    defaultValue: partner
      ? {
          name: partner.name,
          license: partner.license,
          phone: partner.formatted_phone,
          disclaimer: partner.disclaimer,
          organization_count: String(partner.organization_count),
          plan_count: String(partner.plan_count),
          callback_days: String(partner.callback_days),
          notices_email: partner.notices_email ?? '',
          active: partner.active ? 'on' : undefined,
        }
      : { callback_days: '2', active: 'on' },
  })
  const value = (name: keyof typeof fields) => {
    const initial = fields[name].initialValue
    return typeof initial === 'string' ? initial : ''
  }
  const errors = Object.fromEntries(fieldOrder.map((name) => [name, fields[name].errors]))
  return (
    <section aria-labelledby="medicare-partner-form">
      <h2 id="medicare-partner-form">{t('admin.formHeading')}</h2>
      <ErrorSummary errors={summaryFrom(errors, [...fieldOrder])} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)}>
        <TextField id="name" name="name" label={t('admin.name')} errors={fields.name.errors} defaultValue={value('name')} autoComplete="off" />
        <TextField id="license" name="license" label={t('admin.license')} hint={t('admin.licenseHint')} errors={fields.license.errors} defaultValue={value('license')} autoComplete="off" />
        <TextField id="phone" name="phone" type="tel" label={t('admin.phone')} errors={fields.phone.errors} defaultValue={value('phone')} autoComplete="off" />
        <TextAreaField id="disclaimer" name="disclaimer" label={t('admin.disclaimer')} hint={t('admin.disclaimerHint')} errors={fields.disclaimer.errors} defaultValue={value('disclaimer')} rows={4} />
        <TextField id="organization_count" name="organization_count" type="number" min={1} max={medicarePartnerLimits.count.max} step={1} inputMode="numeric" label={t('admin.organizations')} errors={fields.organization_count.errors} defaultValue={value('organization_count')} />
        <TextField id="plan_count" name="plan_count" type="number" min={1} max={medicarePartnerLimits.count.max} step={1} inputMode="numeric" label={t('admin.plans')} hint={t('admin.plansHint')} errors={fields.plan_count.errors} defaultValue={value('plan_count')} />
        <TextField id="callback_days" name="callback_days" type="number" min={1} max={medicarePartnerLimits.callbackDays.max} step={1} inputMode="numeric" label={t('admin.callbackDays')} errors={fields.callback_days.errors} defaultValue={value('callback_days')} />
        <TextField id="notices_email" name="notices_email" type="email" label={t('admin.noticesEmail')} hint={t('admin.noticesEmailHint')} errors={fields.notices_email.errors} defaultValue={value('notices_email')} autoComplete="off" />
        <div className="field">
          <div className="choice">
            <input id="active" type="checkbox" name="active" defaultChecked={value('active') === 'on'} />
            <label htmlFor="active">{t('admin.active')}</label>
          </div>
        </div>
        {partner ? (
          <div className="field">
            <div className="choice">
              <input id="new_agency" type="checkbox" name="new_agency" defaultChecked={value('new_agency') === 'on'} />
              <label htmlFor="new_agency">{t('admin.newAgency')}</label>
            </div>
          </div>
        ) : null}
        <div className="button-row">
          <SubmitButton className="button" pending="saving">
            {t('admin.save')}
          </SubmitButton>
        </div>
      </Form>
    </section>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
