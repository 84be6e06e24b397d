import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import {
  PREMIUM_PRICE_CENTS,
  dollars,
  regionCodePattern,
  type AdminPartnership,
} from '#contract/subscriptions.ts'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { TextField } from '#app/components/ui/field.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formAction } from '#app/utils/form-action.server.ts'
import { formPageHeaders } from '#app/utils/forms.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { setToast } from '#app/utils/toast.server.ts'
import { useZodForm } from '#app/utils/use-zod-form.ts'

/**
 * `/admin/partners` (issue 31 §4, decision 074): the partners who pay for premium in their
 * regions; add one, or change one's name, regions (state codes, comma separated) and whether it
 * is offered (`?edit={id}`). The API decides who may (`manage:partnerships`, admins) and audits
 * every change.
 */
export const headers = formPageHeaders

const PATH = '/admin/partners'
const f = (code: string) => `subscriptions:admin.fields.${code}`

const schema = z.object({
  id: z.string().optional(),
  name: z
    .string({ error: f('name_required') })
    .trim()
    .min(1, f('name_required'))
    .max(100, f('name_too_long')),
  regions: z
    .string({ error: f('regions_required') })
    .transform((text) => [
      ...new Set(
        text
          .split(/[\s,;]+/)
          .map((code) => code.trim().toUpperCase())
          .filter(Boolean),
      ),
    ])
    .refine((codes) => codes.length > 0, f('regions_required'))
    .refine((codes) => codes.every((code) => regionCodePattern.test(code)), f('regions_invalid'))
    .refine((codes) => codes.length <= 100, f('regions_over_limit')),
  active: z.literal('on').optional(),
})

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const t = await getT(request, context, 'subscriptions')
  const api = getApi(request, context).subscriptions
  const partners = await api.adminPartnerships().catch(notFoundOnMissing)
  const editId = new URL(request.url).searchParams.get('edit')
  const editing = editId ? (partners.find((partner) => partner.id === editId) ?? null) : null
  return { title: t('admin.title'), partners, editing }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await request.formData(), { schema })
  const api = getApi(request, context).subscriptions
  return formAction({ request, context }, submission, {
    notSaved: 'subscriptions:errors.notSaved',
    apiErrors: { prefix: 'subscriptions:admin.fields.' },
    save: async (value) => {
      const body = { name: value.name, regions: value.regions, active: value.active === 'on' }
      if (value.id) await api.updatePartnership(value.id, body)
      else await api.createPartnership(body)
      await setToast(context, {
        kind: 'success',
        key: value.id ? 'subscriptions:admin.saved' : 'subscriptions:admin.created',
      })
      return redirect(PATH)
    },
  })
}

export default function AdminPartners() {
  const { partners, editing } = useLoaderData<typeof loader>()
  const { t } = useTranslation('subscriptions')
  return (
    <div className="prose">
      <h1>{t('admin.title')}</h1>
      <p className="lead">{t('admin.intro', { price: dollars(0) })}</p>
      {partners.length === 0 ? (
        <p>{t('admin.none')}</p>
      ) : (
        <ul className="review-list">
          {partners.map((partner) => (
            <li key={partner.id} className="card">
              <p>
                <strong>{partner.name}</strong>
              </p>
              <p>
                {t('admin.regions')}: {partner.regions.join(', ')}
              </p>
              <p>{partner.active ? t('admin.offered') : t('admin.notOffered')}</p>
              <p>
                <Link to={`${PATH}?edit=${partner.id}`}>
                  {t('admin.edit', { name: partner.name })}
                </Link>
              </p>
            </li>
          ))}
        </ul>
      )}
      <PartnerForm key={editing?.id ?? 'new'} partner={editing} />
    </div>
  )
}

function PartnerForm({ partner }: { partner: AdminPartnership | null }) {
  const { t } = useTranslation('subscriptions')
  const lastResult = useActionData<typeof action>()
  const [form, fields] = useZodForm({
    id: 'partner',
    lastResult,
    schema,
    defaultValue: partner
      ? {
          name: partner.name,
          regions: partner.regions.join(', '),
          active: partner.active ? 'on' : undefined,
        }
      : { active: 'on' },
  })
  const initial = (value: unknown) => (typeof value === 'string' ? value : '')
  return (
    <section aria-labelledby="partner-form">
      <h2 id="partner-form">{partner ? t('admin.editTitle') : t('admin.newTitle')}</h2>
      <ErrorSummary
        errors={summaryFrom({ name: fields.name.errors, regions: fields.regions.errors }, [
          'name',
          'regions',
        ])}
        formErrors={form.errors}
      />
      <Form method="post" {...getFormProps(form)}>
        {partner ? <input type="hidden" name="id" value={partner.id} /> : null}
        <TextField
          id="name"
          name="name"
          label={t('admin.name')}
          errors={fields.name.errors}
          defaultValue={initial(fields.name.initialValue)}
          autoComplete="off"
        />
        <TextField
          id="regions"
          name="regions"
          label={t('admin.regions')}
          hint={t('admin.regionsHint')}
          errors={fields.regions.errors}
          defaultValue={initial(fields.regions.initialValue)}
          autoComplete="off"
          spellCheck={false}
        />
        <div className="field">
          <div className="choice">
            <input
              id="active"
              type="checkbox"
              name="active"
              defaultChecked={fields.active.initialValue === 'on'}
            />
            <label htmlFor="active">{t('admin.active')}</label>
          </div>
        </div>
        <p className="hint">{t('pricing.premiumPrice', { price: dollars(PREMIUM_PRICE_CENTS) })}</p>
        <div className="button-row">
          <SubmitButton className="button" pending="saving">
            {t('admin.save')}
          </SubmitButton>
          {partner ? (
            <Link to={PATH} className="button button--secondary">
              {t('admin.back')}
            </Link>
          ) : null}
        </div>
      </Form>
    </section>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) =>
  pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
