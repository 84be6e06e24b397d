import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, isRouteErrorResponse, Link, useActionData, useFetcher, useLoaderData, type ClientActionFunctionArgs } from '@remix-run/react'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { ApiError, pageOf } from '#app/utils/api.server.ts'
import { getApi, getOptionalUser, requireUser } from '#app/utils/auth.server.ts'
import { experienceSchema } from '#app/utils/experience-schema.ts'
import { formatCurrency, formatStart, type Experience } from '#app/utils/experience.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { formText } from '#app/utils/forms.server.ts'
import { setToast } from '#app/utils/toast.server.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'

export const handle = { i18n: ['common', 'activities'] }

const experienceResponse = z.object({ data: z.array(experienceSchema) })
const attendeeSchema = z.object({
  id: z.string(),
  display_name: z.string().nullable(),
  avatar: z.object({ url: z.string() }).nullable(),
  is_host: z.boolean().optional(),
})
const addByEmailsResponse = z.object({
  data: z.array(z.object({ added: z.array(z.string()), already_attending: z.array(z.string()), not_found: z.array(z.string()), full: z.array(z.string()) })),
})
const waitlistSchema = z.object({
  data: z.array(z.object({ user_id: z.string(), position: z.number(), display_name: z.string().nullable().optional() })),
  metadata: z.object({ total_count: z.number().optional() }).optional(),
})

/** Spec §4: cancelling within 12 hours of the start warns of the no-show fee. */
const lateCancelWindowMs = 12 * 60 * 60 * 1000

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const api = getApi(request, context)
  const id = encodeURIComponent(params.id ?? '')
  const result = await api.get(`v1/experiences/${id}`, { schema: experienceResponse }).catch(notFoundOnMissing)
  const experience = result.data[0]
  if (!experience) throw data(null, { status: 404 })
  const user = await getOptionalUser(request, context)
  const [attendees, waitlist] = user
    ? await Promise.all([
        api.get(`v1/experiences/${experience.id}/attendees`, { query: { page: 1, per_page: 50 }, schema: pageOf(attendeeSchema) }),
        // Spec §4: the notify list is loaded only when max_attendees is above 0.
        (experience.max_attendees ?? 0) > 0
          ? api.get(`v1/experiences/${experience.id}/waitlist`, { schema: waitlistSchema }).catch(() => null)
          : Promise.resolve(null),
      ])
    : [null, null]
  const url = new URL(request.url)
  const t = await getT(request, context, 'activities')
  const startsSoon =
    experience.start_date !== null && new Date(experience.start_date).getTime() - Date.now() < lateCancelWindowMs
  return {
    experience,
    attendees,
    waitlist,
    signedIn: Boolean(user),
    confirmCancel: url.searchParams.get('confirm') === 'cancel' && Boolean(experience.viewer?.is_attending),
    confirmCancelActivity: url.searchParams.get('confirm') === 'cancel-activity' && Boolean(experience.viewer?.can_manage),
    startsSoon,
    title: experience.title,
    description: experience.description.slice(0, 160) || t('detail.title'),
    pageUrl: `${context.services.config.publicUrl}/activities/${experience.id}`,
    supportEmail: context.services.config.supportEmail,
  }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context)
  const form = await request.formData()
  const api = getApi(request, context)
  const id = encodeURIComponent(params.id ?? '')
  const intent = form.get('intent')
  try {
    switch (intent) {
      case 'attend':
        await api.post(`v1/experiences/${id}/attendees`, { body: { user_id: user.id } })
        return toast(request, context, 'activities:toast.attending')
      case 'cancel': {
        if (form.get('confirmed') !== 'yes') {
          const current = await api.get(`v1/experiences/${id}`, { schema: experienceResponse })
          const start = current.data[0]?.start_date
          if (start && new Date(start).getTime() - Date.now() < lateCancelWindowMs) {
            // Without JavaScript the confirmation is its own page.
            throw redirect(`/activities/${params.id ?? ''}?confirm=cancel`)
          }
        }
        await api.delete(`v1/experiences/${id}/attendees/${user.id}`)
        return toast(request, context, 'activities:toast.canceled')
      }
      case 'join-waitlist':
        await api.post(`v1/experiences/${id}/waitlist`)
        return toast(request, context, 'activities:toast.waitlistJoined')
      case 'leave-waitlist':
        await api.delete(`v1/experiences/${id}/waitlist`)
        return toast(request, context, 'activities:toast.waitlistLeft')
      case 'add-by-emails': {
        const emails = formText(form, 'emails')
          .split(/[\s,;]+/)
          .map((email) => email.trim())
          .filter(Boolean)
        if (emails.length === 0) return data({ error: 'activities:host.emailsRequired', emails: '' }, { status: 400 })
        try {
          const result = await api.post(`v1/experiences/${id}/attendees/create-by-emails`, { body: { emails }, schema: addByEmailsResponse })
          return data({ added: result.data[0] ?? null })
        } catch (error) {
          // Over the API's limit of 50 at a time, or an address it cannot read: say which, keep the list.
          if (error instanceof ApiError && error.status === 422) {
            const tooMany = Object.values(error.fields).flat().includes('too_many_emails')
            return data({ error: tooMany ? 'activities:host.tooManyEmails' : 'activities:host.emailsInvalid', emails: formText(form, 'emails') }, { status: 400 })
          }
          throw error
        }
      }
      case 'cancel-activity':
        if (form.get('confirmed') !== 'yes') throw redirect(`/activities/${params.id ?? ''}?confirm=cancel-activity`)
        await api.delete(`v1/experiences/${id}`)
        return toast(request, context, 'activities:toast.activityCanceled')
      default:
        throw data({ error: 'Unknown intent' }, { status: 400 })
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      return data({ error: `activities:errors.${error.code ?? 'conflict'}` }, { status: 409 })
    }
    if (error instanceof ApiError && error.status >= 500) {
      return data({ error: 'common:errors.notSaved' }, { status: 503 })
    }
    // Someone else's activity (the host's actions) answers 403, a gone one 404: nothing changed.
    notFoundOnMissing(error)
  }
}

/**
 * With JavaScript, a request that never reaches the action (connection lost, a proxy's error
 * page) becomes an inline message: the optimistic change rolls back instead of the page being
 * replaced by the error page.
 */
export async function clientAction({ serverAction }: ClientActionFunctionArgs) {
  try {
    return await serverAction<typeof action>()
  } catch (error) {
    if (error instanceof Response || isRouteErrorResponse(error)) throw error
    return { error: 'common:errors.notSent' }
  }
}

async function toast(request: Request, context: ActionFunctionArgs['context'], key: string) {
  const url = new URL(request.url)
  return redirect(url.pathname, { headers: { 'Set-Cookie': await setToast(context, { kind: 'success', key }) } })
}

export default function ActivityDetail() {
  const { experience, attendees, waitlist, signedIn, confirmCancel, confirmCancelActivity, startsSoon, pageUrl, supportEmail } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t, i18n } = useTranslation('activities')
  const when = formatStart(experience.start_date, experience.timezone, i18n.language) ?? t('comingSoon')
  if (confirmCancel) return <ConfirmCancel experience={experience} />
  if (confirmCancelActivity) return <ConfirmCancelActivity experience={experience} />
  return (
    <article>
      {experience.cover_photo ? <img src={experience.cover_photo.url} alt="" width={1200} height={600} className="detail-cover" /> : null}
      <h1>{experience.title}</h1>
      {experience.canceled_at ? (
        <div className="notice notice--error">
          <p>{t('detail.canceled')}</p>
        </div>
      ) : null}
      {actionData && 'added' in actionData && actionData.added ? <AddedResult result={actionData.added} /> : null}
      {actionData && 'error' in actionData ? (
        <div className="notice notice--error" role="alert">
          <p>{t(actionData.error)}</p>
        </div>
      ) : null}
      <div className="detail-grid">
        <div>
          <dl className="details">
            <dt>{t('detail.when')}</dt>
            <dd>{when}</dd>
            <dt>{t('detail.where')}</dt>
            <dd>
              <Where experience={experience} signedIn={signedIn} />
            </dd>
            <dt>{t('detail.host')}</dt>
            <dd>{experience.is_hostless ? t('detail.hostless') : (experience.host?.display_name ?? t('common:member.generic'))}</dd>
            {experience.no_show_fee ? (
              <>
                <dt>{t('detail.noShowFee')}</dt>
                <dd>{formatCurrency(experience.no_show_fee, i18n.language)}</dd>
              </>
            ) : null}
            {experience.ticket_url ? (
              <>
                <dt>{t('detail.tickets')}</dt>
                <dd>
                  <a href={experience.ticket_url} rel="noopener noreferrer" target="_blank">
                    {t('detail.ticketLink')}
                  </a>
                </dd>
              </>
            ) : null}
          </dl>
          <h2>{t('detail.about')}</h2>
          {experience.description.split(/\n{2,}/).map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          <AttendeeCount experience={experience} />
          {attendees ? (
            attendees.data.length === 0 ? (
              <p>{t('detail.noAttendees')}</p>
            ) : (
              <AttendeeList attendees={attendees.data} total={attendees.metadata.total_count ?? attendees.data.length} />
            )
          ) : (
            <div className="notice">
              <p>{t('detail.registerToSee')}</p>
              <Link reloadDocument to={`/signup?returnTo=${encodeURIComponent(`/activities/${experience.id}`)}`} className="button">
                {t('detail.register')}
              </Link>
            </div>
          )}
        </div>
        <aside aria-labelledby="actions-title">
          <h2 id="actions-title" className="visually-hidden">
            {t('detail.actions')}
          </h2>
          <div className="actions">
            <Rsvp experience={experience} signedIn={signedIn} waitlist={waitlist} startsSoon={startsSoon} />
            <a href={`/activities/${experience.id}/calendar.ics`} className="button button--secondary" download>
              {t('detail.addToCalendar')}
            </a>
            <a href={`mailto:?subject=${encodeURIComponent(experience.title)}&body=${encodeURIComponent(pageUrl)}`} className="button button--secondary">
              {t('detail.share')}
            </a>
          </div>
          {experience.viewer?.can_manage && !experience.canceled_at ? <HostTools experience={experience} waitlist={waitlist} /> : null}
          <ul className="detail-links" role="list">
            {signedIn && !experience.viewer?.is_host ? (
              <li>
                <Link to={`/activities/${experience.id}/report`}>{t('detail.report')}</Link>
              </li>
            ) : null}
            <li>
              <a href={`mailto:${supportEmail}?subject=${encodeURIComponent(experience.title)}&body=${encodeURIComponent(pageUrl)}`}>{t('detail.contactUs')}</a>
            </li>
          </ul>
        </aside>
      </div>
    </article>
  )
}

function AttendeeCount({ experience }: { experience: Experience }) {
  const { t } = useTranslation('activities')
  const { attendees_count: count } = useOptimisticExperience(experience)
  return <h2>{t('detail.attendees', { count })}</h2>
}

type Attendee = z.infer<typeof attendeeSchema>

/** Without JavaScript every attendee is listed; with it, the first few and the rest in a dialog. */
function AttendeeList({ attendees, total }: { attendees: Attendee[]; total: number }) {
  const { t } = useTranslation('activities')
  const hydrated = useHydrated()
  const dialog = useRef<HTMLDialogElement>(null)
  const shown = hydrated ? attendees.slice(0, previewCount) : attendees
  const names = (list: Attendee[]) => (
    <ul className="attendee-list">
      {list.map((attendee) => (
        <li key={attendee.id}>
          {attendee.display_name ?? t('common:member.generic')}
          {attendee.is_host ? ` (${t('detail.host')})` : null}
        </li>
      ))}
    </ul>
  )
  return (
    <>
      {names(shown)}
      {hydrated && attendees.length > shown.length ? (
        <>
          <button type="button" className="button button--secondary" onClick={() => dialog.current?.showModal()}>
            {t('detail.seeEveryone', { count: total })}
          </button>
          <dialog ref={dialog} className="dialog" aria-labelledby="attendees-title">
            <h2 id="attendees-title">{t('detail.attendees', { count: total })}</h2>
            {names(attendees)}
            <form method="dialog">
              <button type="submit" className="button">
                {t('detail.close')}
              </button>
            </form>
          </dialog>
        </>
      ) : null}
    </>
  )
}

const previewCount = 6

function Where({ experience, signedIn }: { experience: Experience; signedIn: boolean }) {
  const { t } = useTranslation('activities')
  if (experience.venue_type === 'online') {
    return experience.url ? (
      <>
        {t('online')}:{' '}
        <a href={experience.url} rel="noopener noreferrer" target="_blank">
          {t('detail.joinOnline')}
        </a>
      </>
    ) : (
      <>{t('online')}</>
    )
  }
  const city = [experience.location?.city, experience.location?.region].filter(Boolean).join(', ')
  const address = experience.location?.formattedAddress
  if (!signedIn || !address) return <>{city}{!signedIn ? ` · ${t('detail.addressForMembers')}` : null}</>
  const directions = `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(address)}`
  return (
    <>
      {address}
      <br />
      <a href={directions} rel="noopener noreferrer" target="_blank">
        {t('detail.directions')}
      </a>
    </>
  )
}

type RsvpIntent = 'attend' | 'cancel' | 'join-waitlist' | 'leave-waitlist'

/** The RSVP fetcher, shared by the buttons and the attendee count so both update together. */
function useRsvpFetcher() {
  return useFetcher<typeof action>({ key: 'rsvp' })
}

/**
 * The experience as it will be once the pending RSVP succeeds (optimistic UI). When the action
 * answers with an error the loader data is unchanged, so the page rolls back by itself.
 */
function useOptimisticExperience(experience: Experience): Experience {
  const fetcher = useRsvpFetcher()
  const intent = fetcher.formData?.get('intent') as RsvpIntent | undefined
  const viewer = experience.viewer
  if (!intent || !viewer) return experience
  switch (intent) {
    case 'attend':
      return { ...experience, attendees_count: experience.attendees_count + 1, viewer: { ...viewer, is_attending: true } }
    case 'cancel':
      if (fetcher.formData?.get('confirmed') !== 'yes') return experience
      return { ...experience, attendees_count: Math.max(0, experience.attendees_count - 1), viewer: { ...viewer, is_attending: false } }
    case 'join-waitlist':
      return { ...experience, viewer: { ...viewer, waitlist_position: viewer.waitlist_position ?? 1 } }
    case 'leave-waitlist':
      return { ...experience, viewer: { ...viewer, waitlist_position: null } }
  }
}

function RsvpButton({ intent, label, secondary, confirmed }: { intent: RsvpIntent; label: string; secondary?: boolean; confirmed?: boolean }) {
  const fetcher = useRsvpFetcher()
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value={intent} />
      {confirmed ? <input type="hidden" name="confirmed" value="yes" /> : null}
      <button type="submit" className={secondary ? 'button button--secondary' : 'button'} disabled={fetcher.state !== 'idle'}>
        {label}
      </button>
    </fetcher.Form>
  )
}

function Rsvp({
  experience: loaded,
  signedIn,
  waitlist,
  startsSoon,
}: {
  experience: Experience
  signedIn: boolean
  waitlist: { data: { user_id: string; position: number }[]; metadata?: { total_count?: number } } | null
  startsSoon: boolean
}) {
  const { t, i18n } = useTranslation('activities')
  const fetcher = useRsvpFetcher()
  const experience = useOptimisticExperience(loaded)
  // With JavaScript the late-cancel confirmation is shown in place (without, it is its own page).
  const [confirmingLateCancel, setConfirmingLateCancel] = useState(false)
  const failed = fetcher.state === 'idle' && fetcher.data && 'error' in fetcher.data ? fetcher.data.error : null
  const error = failed ? (
    <div className="notice notice--error" role="alert">
      <p>{t(failed)}</p>
    </div>
  ) : null
  if (experience.canceled_at || experience.is_past) return <p>{experience.is_past ? t('detail.past') : null}</p>
  if (!signedIn) {
    return (
      <Link reloadDocument to={`/login?returnTo=${encodeURIComponent(`/activities/${experience.id}`)}`} className="button">
        {t('detail.signInToAttend')}
      </Link>
    )
  }
  const viewer = experience.viewer
  if (viewer?.is_host) return <p>{t('detail.youHost')}</p>
  if (viewer?.is_attending) {
    if (confirmingLateCancel) {
      return (
        <div className="notice notice--error" role="alert">
          <p>{t('confirmCancel.body', { title: experience.title })}</p>
          {experience.no_show_fee ? <p>{t('confirmCancel.fee', { fee: formatCurrency(experience.no_show_fee, i18n.language) })}</p> : null}
          <RsvpButton intent="cancel" confirmed label={t('confirmCancel.confirm')} />
          <button type="button" className="button button--secondary" onClick={() => setConfirmingLateCancel(false)}>
            {t('confirmCancel.keep')}
          </button>
        </div>
      )
    }
    return (
      <>
        {error}
        <p className="notice notice--success" role="status">
          {t('detail.youAttend')}
        </p>
        <fetcher.Form
          method="post"
          onSubmit={(event) => {
            if (!startsSoon) return
            event.preventDefault()
            setConfirmingLateCancel(true)
          }}
        >
          <input type="hidden" name="intent" value="cancel" />
          <button type="submit" className="button button--secondary" disabled={fetcher.state !== 'idle'}>
            {t('detail.cancelRsvp')}
          </button>
        </fetcher.Form>
        {startsSoon && experience.no_show_fee ? <p>{t('detail.lateWarningShort')}</p> : null}
      </>
    )
  }
  if (experience.is_full) {
    const position = viewer?.waitlist_position ?? null
    return position ? (
      <>
        {error}
        <p className="notice" role="status">
          {t('detail.onWaitlist', { position, count: waitlist?.metadata?.total_count ?? position })}
        </p>
        <RsvpButton intent="leave-waitlist" secondary label={t('detail.leaveWaitlist')} />
      </>
    ) : (
      <>
        {error}
        <p>{t('detail.fullOffer')}</p>
        <RsvpButton intent="join-waitlist" label={t('detail.joinWaitlist')} />
      </>
    )
  }
  return (
    <>
      {error}
      <RsvpButton intent="attend" label={t('detail.attend')} />
    </>
  )
}

function HostTools({
  experience,
  waitlist,
}: {
  experience: Experience
  waitlist: { data: { user_id: string; position: number; display_name?: string | null }[] } | null
}) {
  const { t } = useTranslation('activities')
  const actionData = useActionData<typeof action>()
  const typedEmails = actionData && 'emails' in actionData && typeof actionData.emails === 'string' ? actionData.emails : undefined
  return (
    <section aria-labelledby="host-tools" className="card">
      <h2 id="host-tools">{t('host.title')}</h2>
      <ul className="actions" role="list">
        <li>
          <Link to={`/activities/${experience.id}/edit`}>{t('host.edit')}</Link>
        </li>
        <li>
          <Link to={`/duplicate-activity?from=${experience.id}`}>{t('host.duplicate')}</Link>
        </li>
        <li>
          <a href={`/activities/${experience.id}/attendees.csv`} download>
            {t('host.csv')}
          </a>
        </li>
        <li>
          <Link to={`/activities/${experience.id}?confirm=cancel-activity`}>{t('host.cancel')}</Link>
        </li>
      </ul>
      {(experience.max_attendees ?? 0) > 0 ? (
        <>
          <h3>{t('host.waitlist')}</h3>
          {waitlist && waitlist.data.length > 0 ? (
            <ol>
              {waitlist.data.map((entry) => (
                <li key={entry.user_id}>{entry.display_name ?? t('common:member.generic')}</li>
              ))}
            </ol>
          ) : (
            <p>{t('host.waitlistEmpty')}</p>
          )}
        </>
      ) : null}
      <h3>{t('host.addTitle')}</h3>
      <Form method="post">
        <input type="hidden" name="intent" value="add-by-emails" />
        <div className="field">
          <label htmlFor="emails">{t('host.emails')}</label>
          <span className="hint" id="emails-hint">
            {t('host.emailsHint')}
          </span>
          <textarea id="emails" name="emails" rows={3} aria-describedby="emails-hint" defaultValue={typedEmails} />
        </div>
        <button type="submit" className="button button--secondary">
          {t('host.add')}
        </button>
      </Form>
    </section>
  )
}

function AddedResult({ result }: { result: { added: string[]; already_attending: string[]; not_found: string[]; full: string[] } }) {
  const { t } = useTranslation('activities')
  return (
    <div className="notice notice--success" role="status">
      {(['added', 'already_attending', 'not_found', 'full'] as const).map((key) =>
        result[key].length > 0 ? <p key={key}>{t(`host.result.${key}`, { emails: result[key].join(', ') })}</p> : null,
      )}
    </div>
  )
}

function ConfirmCancelActivity({ experience }: { experience: Experience }) {
  const { t } = useTranslation('activities')
  return (
    <div className="prose">
      <h1>{t('host.confirmTitle')}</h1>
      <p>{t('host.confirmBody', { title: experience.title, count: experience.attendees_count })}</p>
      <Form method="post" action={`/activities/${experience.id}`} className="button-row">
        <input type="hidden" name="intent" value="cancel-activity" />
        <input type="hidden" name="confirmed" value="yes" />
        <button type="submit" className="button button--danger">
          {t('host.confirm')}
        </button>
        <Link to={`/activities/${experience.id}`} className="button button--secondary">
          {t('host.keep')}
        </Link>
      </Form>
    </div>
  )
}

function ConfirmCancel({ experience }: { experience: Experience }) {
  const { t, i18n } = useTranslation('activities')
  return (
    <div className="prose">
      <h1>{t('confirmCancel.title')}</h1>
      <p>{t('confirmCancel.body', { title: experience.title })}</p>
      {experience.no_show_fee ? (
        <div className="notice notice--error">
          <p>{t('confirmCancel.fee', { fee: formatCurrency(experience.no_show_fee, i18n.language) })}</p>
        </div>
      ) : null}
      <Form method="post" action={`/activities/${experience.id}`} className="button-row">
        <input type="hidden" name="intent" value="cancel" />
        <input type="hidden" name="confirmed" value="yes" />
        <button type="submit" className="button button--danger">
          {t('confirmCancel.confirm')}
        </button>
        <Link to={`/activities/${experience.id}`} className="button button--secondary">
          {t('confirmCancel.keep')}
        </Link>
      </Form>
    </div>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title, loaded?.description)
