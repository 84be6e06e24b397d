import { Form, Link, useFetcher } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { lateCancelWindowHours } from '#contract/limits.ts'
import { formatCurrency, type Experience } from '#app/utils/experience.ts'
import type { Waitlist } from '#app/utils/api/experiences.server.ts'
import type { action } from './$id.tsx'

/** The activity page's RSVP part: attend, cancel (with the late-cancel warning), the notify list. */

type RsvpIntent = 'attend' | 'cancel' | 'join-waitlist' | 'leave-waitlist'

/** The RSVP fetcher, shared by the buttons and the attendee count so both update together. */
function useRsvpFetcher() {
  return useFetcher<typeof action>({ key: 'rsvp' })
}

/**
 * The experience as it will be once the pending RSVP succeeds (optimistic UI). When the action
 * answers with an error the loader data is unchanged, so the page rolls back by itself.
 */
export function useOptimisticExperience(experience: Experience): Experience {
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

export function Rsvp({
  experience: loaded,
  signedIn,
  waitlist,
}: {
  experience: Experience
  signedIn: boolean
  waitlist: Waitlist | null
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
      <>
        <Link reloadDocument to={`/login?returnTo=${encodeURIComponent(`/activities/${experience.id}`)}`} className="button">
          {t('detail.signInToAttend')}
        </Link>
        <FeeBeforeSeat experience={experience} />
      </>
    )
  }
  const viewer = experience.viewer
  // The API says whether cancelling now is late (spec §4); the page does not recompute it.
  const cancelIsLate = viewer?.cancel_is_late ?? false
  if (viewer?.is_host) return <p>{t('detail.youHost')}</p>
  if (viewer?.is_attending) {
    if (confirmingLateCancel) {
      return (
        <div className="notice notice--error" role="alert">
          <p>{t('confirmCancel.body', { title: experience.title })}</p>
          {experience.no_show_fee ? <p>{t('confirmCancel.fee', { fee: formatCurrency(experience.no_show_fee, i18n.language) })}</p> : null}
          <div className="button-row">
            <RsvpButton intent="cancel" confirmed label={t('confirmCancel.confirm')} />
            <button type="button" className="button button--secondary" onClick={() => setConfirmingLateCancel(false)}>
              {t('confirmCancel.keep')}
            </button>
          </div>
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
            if (!cancelIsLate) return
            event.preventDefault()
            setConfirmingLateCancel(true)
          }}
        >
          <input type="hidden" name="intent" value="cancel" />
          <button type="submit" className="button button--secondary" disabled={fetcher.state !== 'idle'}>
            {t('detail.cancelRsvp')}
          </button>
        </fetcher.Form>
        {cancelIsLate && experience.no_show_fee ? <p>{t('detail.lateWarningShort')}</p> : null}
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
    ) : viewer?.can_join_waitlist ? (
      // The API says whether the notify list is offered (never to the host of the activity).
      <>
        {error}
        <p>{t('detail.fullOffer')}</p>
        <RsvpButton intent="join-waitlist" label={t('detail.joinWaitlist')} />
        <FeeBeforeSeat experience={experience} />
      </>
    ) : (
      <p>{t('status.fullNoOffer')}</p>
    )
  }
  return (
    <>
      {error}
      <RsvpButton intent="attend" label={t('detail.attend')} />
      <FeeBeforeSeat experience={experience} />
    </>
  )
}

/** Issue 12 §6: the no-show fee is said before a seat is saved (or given from the notify list). */
function FeeBeforeSeat({ experience }: { experience: Experience }) {
  const { t, i18n } = useTranslation('activities')
  if (!experience.no_show_fee) return null
  return (
    <p>
      {t('detail.feeBeforeSeat', { hours: lateCancelWindowHours, fee: formatCurrency(experience.no_show_fee, i18n.language) })}{' '}
      <Link to="/company/attendance-policy">{t('detail.attendancePolicy')}</Link>
    </p>
  )
}

/** Without JavaScript, cancelling close to the start is confirmed on a page of its own. */
export function ConfirmCancel({ experience }: { experience: Experience }) {
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
