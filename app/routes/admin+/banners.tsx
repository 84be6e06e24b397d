import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { AdminBanner, BannerArea, BannerInput } from '#contract/banners.ts'
import { bannerAudiences } from '#contract/banners.ts'
import { languages } from '#contract/enums.ts'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { ChoiceGroup, TextAreaField, TextField } from '#app/components/ui/field.tsx'
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
 * `/admin/banners` (issue 32 §4, decision 084): the banners, newest first, each with "End it now"
 * and its own form to change it, and a form for a new one. Plain forms; the API decides who may
 * (`manage:banners`, admins) and audits each change. An area "around a city" is found with the
 * places search, so admins write "Portland, OR", not coordinates.
 */
export const headers = formPageHeaders
const PATH = '/admin/banners'

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const t = await getT(request, context, 'banners')
  return { title: t('admin.title'), banners: await getApi(request, context).popups.adminList().catch(notFoundOnMissing) }
}

/** The form's fields as typed, kept when it is refused. */
type Typed = Record<string, string>
type Refused = { id: string; typed: Typed; fieldErrors: Record<string, string[]> }

const fieldNames = ['title_en', 'title_fr', 'title_nl', 'body_en', 'body_fr', 'body_nl', 'link', 'starts_at', 'ends_at', 'area', 'city', 'latitude', 'longitude', 'radius', 'states', 'audience', 'dismiss_days'] as const

/** `2026-12-24T09:00` (what `datetime-local` sends), read as UTC. */
const utcInstant = (value: string) => (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) ? `${value.length === 16 ? `${value}:00` : value}Z` : value)
/** An instant as `datetime-local` shows it, in UTC. */
const localValue = (iso: string | null) => (iso ? iso.slice(0, 16) : '')

/** Where the API's field paths land on this form. */
const fieldOfPath: Record<string, string> = {
  'title.en': 'title_en', 'title.fr': 'title_fr', 'title.nl': 'title_nl',
  'body.en': 'body_en', 'body.fr': 'body_fr', 'body.nl': 'body_nl',
  link_url: 'link', starts_at: 'starts_at', ends_at: 'ends_at',
  area: 'area', 'area.kind': 'area', 'area.radius_miles': 'radius', 'area.states': 'states', 'area.latitude': 'city', 'area.longitude': 'city',
  audience: 'audience', dismiss_days: 'dismiss_days',
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData()
  const intent = formText(form, 'intent')
  const id = formText(form, 'id')
  const typed: Typed = Object.fromEntries(fieldNames.map((name) => [name, formText(form, name)]))
  const refuse = (fieldErrors: Record<string, string[]>, status = 400) => refusedForm(context, { id: intent === 'create' ? 'new' : id, typed, fieldErrors } satisfies Refused, status)
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      const api = getApi(request, context)
      if (intent === 'end') {
        await api.popups.end(id).catch(notFoundOnMissing)
        return redirectWithToast(context, PATH, 'banners:admin.ended')
      }
      const fieldErrors: Record<string, string[]> = {}
      const area = await areaFrom(typed, api, fieldErrors)
      const days = typed.dismiss_days!.trim()
      if (days && !/^\d{1,3}$/.test(days)) fieldErrors.dismiss_days = ['banners:admin.errors.dismiss_days_invalid']
      if (Object.keys(fieldErrors).length > 0 || !area) return refuse(fieldErrors)
      const input: BannerInput = {
        title: { en: typed.title_en!, fr: typed.title_fr!, nl: typed.title_nl! },
        body: { en: typed.body_en!, fr: typed.body_fr!, nl: typed.body_nl! },
        link_url: typed.link!.trim() || null,
        ...(typed.starts_at ? { starts_at: utcInstant(typed.starts_at) } : {}),
        ends_at: utcInstant(typed.ends_at!),
        area,
        audience: (bannerAudiences as readonly string[]).includes(typed.audience!) ? (typed.audience as BannerInput['audience']) : ('' as never),
        dismiss_days: days ? Number(days) : null,
      }
      try {
        if (intent === 'create') await api.popups.create(input)
        else await api.popups.update(id, input)
      } catch (error) {
        if (error instanceof ApiError && error.status === 422) {
          for (const [path, codes] of Object.entries(error.fields)) {
            const field = fieldOfPath[path] ?? fieldOfPath[path.split('.')[0]!] ?? 'title_en'
            fieldErrors[field] = [...(fieldErrors[field] ?? []), ...codes.map((code) => `banners:admin.errors.${code}`)]
          }
          return refuse(fieldErrors, 422)
        }
        throw error
      }
      return redirectWithToast(context, PATH, intent === 'create' ? 'banners:admin.created' : 'banners:admin.saved')
    },
    () => ({ id: intent === 'create' ? 'new' : id, typed, fieldErrors: { title_en: ['common:errors.notSaved'] } }) satisfies Refused,
  )
}

/** The area as the API takes it; null (with the field's error) when it does not read. */
async function areaFrom(typed: Typed, api: ReturnType<typeof getApi>, fieldErrors: Record<string, string[]>): Promise<BannerArea | null> {
  switch (typed.area) {
    case 'everywhere':
      return { kind: 'everywhere' }
    case 'circle': {
      const radius = Number(typed.radius)
      if (!/^\d{1,3}$/.test(typed.radius!.trim()) || radius < 1 || radius > 500) fieldErrors.radius = ['banners:admin.errors.radius_invalid']
      // A banner's circle stays where it was unless another city is written.
      const query = typed.city!.trim()
      const kept = !query && typed.latitude && typed.longitude ? { latitude: Number(typed.latitude), longitude: Number(typed.longitude) } : null
      const [place] = kept ? [kept] : query.length >= 2 ? await api.places.search(query, 1) : []
      if (!place) fieldErrors.city = ['banners:admin.errors.city_not_found']
      return place && !fieldErrors.radius ? { kind: 'circle', latitude: place.latitude, longitude: place.longitude, radius_miles: radius } : null
    }
    case 'states': {
      const states = typed.states!.split(/[\s,;]+/).map((code) => code.trim().toUpperCase()).filter(Boolean)
      if (states.length === 0) fieldErrors.states = ['banners:admin.errors.states_required']
      else if (!states.every((code) => /^[A-Z]{2}$/.test(code))) fieldErrors.states = ['banners:admin.errors.states_invalid']
      return fieldErrors.states ? null : { kind: 'states', states }
    }
    default:
      fieldErrors.area = ['banners:admin.errors.area_invalid']
      return null
  }
}

export default function Banners() {
  const { banners } = useLoaderData<typeof loader>()
  const refused = useActionData<typeof action>()
  const { t } = useTranslation('banners')
  const refusedFor = (id: string) => (refused && 'typed' in refused && refused.id === id ? refused : null)
  return (
    <div className="prose">
      <h1>{t('admin.title')}</h1>
      <p className="lead">{t('admin.intro')}</p>
      <section aria-labelledby="new-banner" className="card">
        <h2 id="new-banner">{t('admin.new')}</h2>
        <BannerForm banner={null} refused={refusedFor('new')} />
      </section>
      {banners.length === 0 ? <p>{t('admin.none')}</p> : null}
      {banners.map((banner) => (
        // An article, not a landmark: two banners may share a title.
        <article key={banner.id} aria-labelledby={`banner-${banner.id}`} className="card" data-testid="admin-banner">
          <h2 id={`banner-${banner.id}`}>{banner.title.en}</h2>
          <BannerFacts banner={banner} />
          {banner.state !== 'ended' ? (
            <Form method="post">
              <input type="hidden" name="id" value={banner.id} />
              <SubmitButton pending="working" name="intent" value="end" className="button button--secondary" aria-describedby={`banner-${banner.id}`}>
                {t('admin.end')}
              </SubmitButton>
            </Form>
          ) : null}
          <details open={refusedFor(banner.id) !== null}>
            <summary>{t('admin.edit')}</summary>
            <BannerForm banner={banner} refused={refusedFor(banner.id)} />
          </details>
        </article>
      ))}
    </div>
  )
}

function BannerFacts({ banner }: { banner: AdminBanner }) {
  const { t, i18n } = useTranslation('banners')
  const when = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso))
  const area = banner.area
  return (
    <dl className="facts">
      <dt>{t('admin.state.' + banner.state)}</dt>
      <dd>{t('admin.period', { start: when(banner.starts_at), end: banner.ends_at ? when(banner.ends_at) : '…' })}</dd>
      <dt>{t('admin.area')}</dt>
      <dd>
        {area.kind === 'everywhere'
          ? t('admin.whereEverywhere')
          : area.kind === 'circle'
            ? t('admin.whereCircle', { count: area.radius_miles, latitude: area.latitude.toFixed(3), longitude: area.longitude.toFixed(3) })
            : t('admin.whereStates', { states: area.states.join(', ') })}
      </dd>
      <dt>{t('admin.audience')}</dt>
      <dd>{t(`admin.audience${banner.audience[0]!.toUpperCase()}${banner.audience.slice(1)}`)}</dd>
      <dt>{t('admin.hidden')}</dt>
      <dd>{t('admin.dismissals', { count: banner.dismissals })}</dd>
    </dl>
  )
}

function BannerForm({ banner, refused }: { banner: AdminBanner | null; refused: Refused | null }) {
  const { t } = useTranslation('banners')
  const key = banner?.id ?? 'new'
  const id = (name: string) => `${key}-${name}`
  const area = banner?.area
  const saved: Typed = banner
    ? {
        title_en: banner.title.en, title_fr: banner.title.fr, title_nl: banner.title.nl,
        body_en: banner.body.en, body_fr: banner.body.fr, body_nl: banner.body.nl,
        link: banner.link_url ?? '',
        starts_at: localValue(banner.starts_at),
        ends_at: localValue(banner.ends_at),
        area: area?.kind ?? 'everywhere',
        city: '',
        radius: area?.kind === 'circle' ? String(area.radius_miles) : '25',
        states: area?.kind === 'states' ? area.states.join(', ') : '',
        audience: banner.audience,
        dismiss_days: banner.dismiss_days === null ? '' : String(banner.dismiss_days),
      }
    : { area: 'everywhere', audience: 'everyone', radius: '25' }
  const value = (name: string) => refused?.typed[name] ?? saved[name] ?? ''
  const errors = (name: string) => refused?.fieldErrors[name] ?? null
  return (
    // A new key after each refusal: the fields show what was typed, not what React kept.
    <Form method="post" key={refused ? JSON.stringify(refused.typed) : key}>
      {banner ? <input type="hidden" name="id" value={banner.id} /> : null}
      {area?.kind === 'circle' ? (
        <>
          <input type="hidden" name="latitude" value={area.latitude} />
          <input type="hidden" name="longitude" value={area.longitude} />
        </>
      ) : null}
      {languages.map((language) => (
        <TextField key={`title-${language}`} id={id(`title_${language}`)} name={`title_${language}`} label={t('admin.titleField', { language: t(`admin.language.${language}`) })} defaultValue={value(`title_${language}`)} errors={errors(`title_${language}`)} maxLength={80} required lang={language} autoComplete="off" />
      ))}
      {languages.map((language) => (
        <TextAreaField key={`body-${language}`} id={id(`body_${language}`)} name={`body_${language}`} label={t('admin.bodyField', { language: t(`admin.language.${language}`) })} defaultValue={value(`body_${language}`)} errors={errors(`body_${language}`)} maxLength={300} rows={3} required lang={language} />
      ))}
      <TextField id={id('link')} name="link" label={t('admin.link')} hint={t('admin.linkHint')} defaultValue={value('link')} errors={errors('link')} autoComplete="off" spellCheck={false} />
      <TextField id={id('starts_at')} name="starts_at" type="datetime-local" label={t('admin.startsAt')} hint={t('admin.periodHint')} defaultValue={value('starts_at')} errors={errors('starts_at')} />
      <TextField id={id('ends_at')} name="ends_at" type="datetime-local" label={t('admin.endsAt')} hint={t('admin.periodHint')} defaultValue={value('ends_at')} errors={errors('ends_at')} required />
      <ChoiceGroup
        id={id('area')}
        name="area"
        type="radio"
        legend={t('admin.area')}
        errors={errors('area')}
        defaultValue={value('area')}
        options={[
          { value: 'everywhere', label: t('admin.areaEverywhere') },
          { value: 'circle', label: t('admin.areaCircle') },
          { value: 'states', label: t('admin.areaStates') },
        ]}
      />
      <TextField id={id('city')} name="city" label={t('admin.city')} defaultValue={value('city')} errors={errors('city')} autoComplete="off" />
      <TextField id={id('radius')} name="radius" type="number" min={1} max={500} step={1} inputMode="numeric" label={t('admin.radius')} defaultValue={value('radius')} errors={errors('radius')} />
      <TextField id={id('states')} name="states" label={t('admin.states')} hint={t('admin.statesHint')} defaultValue={value('states')} errors={errors('states')} autoComplete="off" spellCheck={false} />
      <ChoiceGroup
        id={id('audience')}
        name="audience"
        type="radio"
        legend={t('admin.audience')}
        errors={errors('audience')}
        defaultValue={value('audience')}
        options={[
          { value: 'everyone', label: t('admin.audienceEveryone') },
          { value: 'members', label: t('admin.audienceMembers') },
          { value: 'premium', label: t('admin.audiencePremium') },
        ]}
      />
      <TextField id={id('dismiss_days')} name="dismiss_days" type="number" min={1} max={365} step={1} inputMode="numeric" label={t('admin.dismissDays')} hint={t('admin.dismissDaysHint')} defaultValue={value('dismiss_days')} errors={errors('dismiss_days')} />
      <SubmitButton className="button" pending="saving" name="intent" value={banner ? 'update' : 'create'}>
        {banner ? t('admin.save') : t('admin.create')}
      </SubmitButton>
    </Form>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
