import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { FeatureFlag, FlagProviderInfo } from '#contract/flags.ts'
import { flagKeyPattern, flagRoles } from '#contract/staff-roles.ts'
import { languages } from '#contract/enums.ts'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
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
 * `/admin/flags` (issue 32 §3, decision 079): every feature flag, each with its own plain form (on
 * or off, the share of members, roles, regions, languages, variants), and a new one. The API
 * decides who may (`manage:flags`, admins) and records each change with its value before and after.
 * With a vendor configured (FLAGS_PROVIDER, decision 080) the flags are edited there: the page says
 * so and lists the keys it defines, with no form.
 */
export const headers = formPageHeaders
const PATH = '/admin/flags'
/** The vendors' names as they write them. */
const vendorNames = { growthbook: 'GrowthBook' } as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const t = await getT(request, context, 'moderation')
  const api = getApi(request, context)
  const provider = await api.flags.provider().catch(notFoundOnMissing)
  return { title: t('admin.flags.title'), provider, flags: provider.editable ? await api.flags.list().catch(notFoundOnMissing) : [] }
}

/** "name:weight, name:weight" → the variants; null when it does not read. */
function variantsFrom(text: string) {
  const parts = text.split(',').map((part) => part.trim()).filter(Boolean)
  const variants = parts.map((part) => {
    const match = /^([a-z][a-z0-9-]{0,29})\s*:\s*(\d{1,4})$/.exec(part)
    return match ? { name: match[1]!, weight: Number(match[2]) } : null
  })
  return variants.every((variant) => variant !== null && variant.weight >= 1 && variant.weight <= 1000) ? (variants as Array<{ name: string; weight: number }>) : null
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData()
  const key = formText(form, 'key').trim()
  const refused = (error: string, status = 400) => refusedForm(context, { key, error: `moderation:admin.flags.errors.${error}` }, status)
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      if (!flagKeyPattern.test(key)) return refused('key_invalid')
      const rollout = Number(formText(form, 'rollout'))
      if (!Number.isInteger(rollout) || rollout < 0 || rollout > 100) return refused('rollout_invalid')
      const variants = variantsFrom(formText(form, 'variants'))
      if (!variants) return refused('variant_invalid')
      const regions = formText(form, 'regions').split(/[\s,;]+/).map((code) => code.trim().toUpperCase()).filter(Boolean)
      if (!regions.every((code) => /^[A-Z]{2}$/.test(code))) return refused('region_invalid')
      try {
        await getApi(request, context).flags.save(key, {
          description: formText(form, 'description').trim(),
          enabled: form.get('enabled') === 'on',
          rollout_percent: rollout,
          variants,
          roles: form.getAll('roles').filter((role): role is (typeof flagRoles)[number] => (flagRoles as readonly unknown[]).includes(role)),
          regions,
          languages: form.getAll('languages').filter((language): language is (typeof languages)[number] => (languages as readonly unknown[]).includes(language)),
        })
      } catch (error) {
        if (error instanceof ApiError && error.status === 422) return refused(Object.values(error.fields)[0]?.[0] ?? 'key_invalid', 422)
        if (error instanceof ApiError && error.code === 'flags_managed_by_vendor') return refused('flags_managed_by_vendor', 409)
        throw error
      }
      return redirectWithToast(context, PATH, 'moderation:admin.flags.saved')
    },
    () => ({ key, error: 'common:errors.notSaved' }),
  )
}

export default function Flags() {
  const { flags, provider } = useLoaderData<typeof loader>()
  const refused = useActionData<typeof action>()
  const { t } = useTranslation('moderation')
  if (provider.provider !== 'builtin') return <VendorFlags provider={provider} vendor={vendorNames[provider.provider]} refused={refused?.error ?? null} />
  return (
    <div className="prose">
      <h1>{t('admin.flags.title')}</h1>
      <p className="lead">{t('admin.flags.intro')}</p>
      {flags.map((flag) => (
        <section key={flag.key} aria-labelledby={`flag-${flag.key}`} className="card" data-testid="flag">
          <h2 id={`flag-${flag.key}`}>
            <code className="flag-key">{flag.key}</code>
          </h2>
          <FlagForm flag={flag} error={refused?.key === flag.key ? refused.error : null} />
        </section>
      ))}
      <section aria-labelledby="new-flag" className="card">
        <h2 id="new-flag">{t('admin.flags.new')}</h2>
        <FlagForm flag={null} error={refused && !flags.some((flag) => flag.key === refused.key) ? refused.error : null} />
      </section>
    </div>
  )
}

/** Flags held by a vendor: where to change them, what its rules can read, and the keys it defines. */
function VendorFlags({ provider, vendor, refused }: { provider: FlagProviderInfo; vendor: string; refused: string | null }) {
  const { t } = useTranslation('moderation')
  return (
    <div className="prose">
      <h1>{t('admin.flags.title')}</h1>
      {refused ? (
        <p className="field-error" role="alert">
          {t(refused)}
        </p>
      ) : null}
      <p className="lead">{t('admin.flags.vendor', { vendor })}</p>
      <p>{t('admin.flags.vendorAttributes')}</p>
      {provider.reachable ? null : <p role="status">{t('admin.flags.vendorUnreachable', { vendor })}</p>}
      <h2>{t('admin.flags.vendorKeys', { vendor })}</h2>
      {provider.keys.length > 0 ? (
        <ul data-testid="vendor-flags">
          {provider.keys.map((key) => (
            <li key={key}>
              <code>{key}</code>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t('admin.flags.vendorNone', { vendor })}</p>
      )}
    </div>
  )
}

function FlagForm({ flag, error }: { flag: FeatureFlag | null; error: string | null }) {
  const { t } = useTranslation('moderation')
  const id = (name: string) => `${flag?.key ?? 'new'}-${name}`
  return (
    <Form method="post">
      {error ? (
        <p className="field-error" role="alert">
          {t(error)}
        </p>
      ) : null}
      {flag ? <input type="hidden" name="key" value={flag.key} /> : <TextField id={id('key')} name="key" label={t('admin.flags.key')} hint={t('admin.flags.keyHint')} autoComplete="off" spellCheck={false} required />}
      <TextField id={id('description')} name="description" label={t('admin.flags.description')} defaultValue={flag?.description ?? ''} autoComplete="off" />
      <div className="choice">
        <input id={id('enabled')} type="checkbox" name="enabled" defaultChecked={flag?.enabled ?? false} />
        <label htmlFor={id('enabled')}>{t('admin.flags.enabled')}</label>
      </div>
      <TextField id={id('rollout')} name="rollout" type="number" min={0} max={100} step={1} inputMode="numeric" label={t('admin.flags.rollout')} hint={t('admin.flags.rolloutHint')} defaultValue={String(flag?.rollout_percent ?? 100)} />
      <fieldset>
        <legend>{t('admin.flags.roles')}</legend>
        {flagRoles.map((role) => (
          <div className="choice" key={role}>
            <input id={id(`role-${role}`)} type="checkbox" name="roles" value={role} defaultChecked={flag?.roles.includes(role) ?? false} />
            <label htmlFor={id(`role-${role}`)}>{t(role === 'member' ? 'admin.flags.member' : `admin.roles.${role}`)}</label>
          </div>
        ))}
      </fieldset>
      <fieldset>
        <legend>{t('admin.flags.languages')}</legend>
        {languages.map((language) => (
          <div className="choice" key={language}>
            <input id={id(`language-${language}`)} type="checkbox" name="languages" value={language} defaultChecked={flag?.languages.includes(language) ?? false} />
            <label htmlFor={id(`language-${language}`)}>{t(`admin.flags.language.${language}`)}</label>
          </div>
        ))}
      </fieldset>
      <TextField id={id('regions')} name="regions" label={t('admin.flags.regions')} hint={t('admin.flags.regionsHint')} defaultValue={flag?.regions.join(', ') ?? ''} autoComplete="off" spellCheck={false} />
      <TextField id={id('variants')} name="variants" label={t('admin.flags.variants')} hint={t('admin.flags.variantsHint')} defaultValue={flag?.variants.map((variant) => `${variant.name}:${variant.weight}`).join(', ') ?? ''} autoComplete="off" spellCheck={false} />
      <SubmitButton className="button" pending="saving">
        {flag ? t('admin.flags.save', { key: flag.key }) : t('admin.flags.create')}
      </SubmitButton>
    </Form>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
