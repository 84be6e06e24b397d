import { Form, Link, useFetcher } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ExperienceInvitation } from '#contract/experiences.ts'
import { lateCancelWindowHours } from '#contract/limits.ts'
import { formatCurrency, formatMoment, type Experience } from '#app/utils/experience.ts'
import type { Waitlist } from '#app/utils/api/experiences.server.ts'
// The page's action is `runIntent` ($id.tsx's `action` returns it): typed from there, not from
// the page that renders this part (decision 067).
import type { runIntent } from './$id.server.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { useRootData } from '#app/utils/root-data.ts'
import { OnlyTheMember } from '#app/components/only-the-member.tsx'

/**
 * The activity page's RSVP part: attend, cancel (with the late-cancel warning), the notify list,
 * and an invitation to accept or decline (decision 019).
 */

type RsvpIntent = 'attend' | 'cancel' | 'join-waitlist' | 'leave-waitlist' | 'accept-invitation' | 'decline-invitation'

/** The RSVP fetcher, shared by the buttons and the attendee count so both update together. */
function useRsvpFetcher() {
  return useFetcher<typeof runIntent>({ key: 'rsvp' })
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
    case 'accept-invitation':
      return { ...experience, attendees_count: experience.attendees_count + 1, viewer: { ...viewer, is_attending: true, invitation: null } }
    case 'decline-invitation':
      return { ...experience, viewer: { ...viewer, invitation: null } }
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
      <SubmitButton pending="saving" className={secondary ? 'button button--secondary' : 'button'} disabled={fetcher.state !== 'idle'}>
        {label}
      </SubmitButton>
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
  const { t } = useTranslation('activities')
  const fetcher = useRsvpFetcher()
  const experience = useOptimisticExperience(loaded)
  const fee = useShownFee(loaded)
  // With JavaScript the late-cancel confirmation is shown in place (without, it is its own page).
  const [confirmingLateCancel, setConfirmingLateCancel] = useState(false)
  const failed = fetcher.state === 'idle' && fetcher.data && 'error' in fetcher.data ? fetcher.data.error : null
  const error = failed ? (
    <div className="notice notice--error" role="alert">
      <p>{t(failed)}</p>
    </div>
  ) : null
  // Nothing is left to do about a seat: a cancelled activity says so at the top of the page.
  if (experience.canceled_at) return null
  if (experience.is_past) return <p>{t('detail.past')}</p>
  if (!signedIn) {
    return (
      <>
        <BeforeSeat experience={experience} />
        <Link reloadDocument to={`/login?returnTo=${encodeURIComponent(`/activities/${experience.id}`)}`} className="button">
          {t('detail.signInToAttend')}
        </Link>
      </>
    )
  }
  const viewer = experience.viewer
  // The API says whether cancelling now is late (spec §4); the page does not recompute it.
  const cancelIsLate = viewer?.cancel_is_late ?? false
  if (viewer?.is_host) return <p>{t('detail.youHost')}</p>
  // Premium activities (decision 074): what premium gives and how to get it, instead of the seat.
  if (viewer?.premium_required && !viewer.is_attending) {
    return (
      <div className="notice">
        <p>{t('detail.premiumOnly')}</p>
        <Link to="/pricing" className="button">
          {t('detail.seePremium')}
        </Link>
      </div>
    )
  }
  if (viewer?.is_attending) {
    if (confirmingLateCancel) {
      return (
        <div className="notice notice--error" role="alert">
          <p>{t('confirmCancel.body', { title: experience.title })}</p>
          <LateCancelNote experience={experience} />
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
          <SubmitButton pending="working" className="button button--secondary" disabled={fetcher.state !== 'idle'}>
            {t('detail.cancelRsvp')}
          </SubmitButton>
        </fetcher.Form>
        {cancelIsLate ? (
          <p>
            {t('detail.lateWarningShort', { hours: lateCancelWindowHours })} <FeeOnSeat experience={experience} />
          </p>
        ) : null}
      </>
    )
  }
  // Invited: the invitation says who asked; Accept takes the seat (Save my seat's place), Decline
  // answers no. A full activity offers the notify list below it, as to anyone.
  const invitation = viewer?.invitation ? (
    <Invitation experience={experience} invitation={viewer.invitation} canAccept={!experience.is_full} />
  ) : null
  if (experience.is_full) {
    const position = viewer?.waitlist_position ?? null
    return position ? (
      <>
        {error}
        {invitation}
        <p className="notice" role="status">
          {t('detail.onWaitlist', { position, count: waitlist?.metadata?.total_count ?? position })}
        </p>
        <RsvpButton intent="leave-waitlist" secondary label={t('detail.leaveWaitlist')} />
      </>
    ) : viewer?.can_join_waitlist ? (
      // The API says whether the notify list is offered (never to the host of the activity).
      <>
        {error}
        {invitation}
        <p>{t('detail.fullOffer')}</p>
        <BeforeSeat experience={experience} />
        <RsvpButton intent="join-waitlist" label={t('detail.joinWaitlist')} />
      </>
    ) : (
      <>
        {invitation}
        <p>{t('status.fullNoOffer')}</p>
      </>
    )
  }
  return (
    <>
      {error}
      <BeforeSeat experience={experience} />
      {invitation ?? (fee ? <AttendWithFee experience={experience} /> : <RsvpButton intent="attend" label={t('detail.attend')} />)}
    </>
  )
}

/** The activity's fee as the pages show it: none while payments are off (decision 073). */
export function useShownFee(experience: Experience) {
  return useRootData()?.payments === false ? null : experience.no_show_fee
}

/**
 * Saving a seat at an activity with a no-show fee (issue 31 §3, decision 075): the member agrees
 * next to the button, in a box left unticked, naming the amount, the 12 hours and the card; with
 * no card to charge, they add one first (the hosted card page brings them back here).
 */
function AttendWithFee({ experience }: { experience: Experience }) {
  const { t, i18n } = useTranslation(['activities', 'payments'])
  const fetcher = useRsvpFetcher()
  const card = experience.viewer?.fee_card
  const fee = formatCurrency(experience.no_show_fee!, i18n.language)
  if (!card) {
    return (
      <OnlyTheMember>
        <Form method="post" className="notice">
          <p>{t('payments:fee.needCard', { fee, hours: lateCancelWindowHours })}</p>
          <input type="hidden" name="intent" value="add-card" />
          <SubmitButton pending="opening" className="button">
            {t('payments:fee.addCard')}
          </SubmitButton>
        </Form>
      </OnlyTheMember>
    )
  }
  const cardName = t('payments:cardShort', { brand: t(`payments:brands.${card.brand}`), last4: card.last4 })
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="attend" />
      <div className="choice">
        {/* Not `required`: the page's own message (in the member's language) says what to do, not the browser's. */}
        <input type="checkbox" id="fee-consent" name="feeConsent" />
        <label htmlFor="fee-consent">{t('payments:fee.consent', { fee, hours: lateCancelWindowHours, card: cardName })}</label>
      </div>
      <SubmitButton pending="saving" className="button" disabled={fetcher.state !== 'idle'}>
        {t('detail.attend')}
      </SubmitButton>
    </fetcher.Form>
  )
}

/**
 * "<Host> invited you", when, and the answer: Accept (when a seat is free) and Decline, plain
 * forms with a hidden intent that work without JavaScript. Nothing is saved until the member
 * answers; declining is not told to the host.
 */
function Invitation({ experience, invitation, canAccept }: { experience: Experience; invitation: ExperienceInvitation; canAccept: boolean }) {
  const { t, i18n } = useTranslation('activities')
  // The host, or a member who used "Invite a friend" (decision 087): named; the team is not.
  const byHost = invitation.by.role !== 'team'
  const name = invitation.by.display_name ?? t('common:member.generic')
  const date = formatMoment(invitation.at, experience.timezone, i18n.language)
  return (
    <section className="notice" aria-labelledby="invitation-title">
      <h3 id="invitation-title">{byHost ? t('invitation.byHost', { name }) : t('invitation.byTeam')}</h3>
      <p>{t('invitation.sent', { date })}</p>
      <p>{t(canAccept ? 'invitation.notYet' : 'invitation.full')}</p>
      {byHost ? <p>{t('invitation.private', { name })}</p> : null}
      <div className="button-row">
        {canAccept ? <RsvpButton intent="accept-invitation" label={t('invitation.accept')} /> : null}
        <RsvpButton intent="decline-invitation" secondary label={t('invitation.decline')} />
      </div>
    </section>
  )
}

/**
 * Said before a seat is saved (issue 12 §6, issue 29 §4), next to the button that saves it: when
 * the activity starts within 12 hours, that cancelling now tells the host you cannot come; the
 * host's no-show fee, if any, and that no fee is charged yet (payments do not exist yet).
 */
function BeforeSeat({ experience }: { experience: Experience }) {
  const { t, i18n } = useTranslation('activities')
  const fee = useShownFee(experience)
  // The API says whether it is late (spec §4); a visitor not signed in is told of the fee only.
  const late = experience.viewer?.cancel_is_late ?? false
  if (!late && !fee) return null
  return (
    <p>
      {t(late ? 'detail.lateBeforeSeat' : 'detail.cancelBeforeSeat', { hours: lateCancelWindowHours })}
      {fee ? <> {t('payments:fee.before', { fee: formatCurrency(fee, i18n.language), hours: lateCancelWindowHours })}</> : null}{' '}
      <Link to="/company/attendance-policy">{t('detail.attendancePolicy')}</Link>
    </p>
  )
}

/** What cancelling late does today, on the confirmation (in place or its own page). */
function LateCancelNote({ experience }: { experience: Experience }) {
  const { t } = useTranslation('activities')
  return (
    <p>
      {t('confirmCancel.told')} <FeeOnSeat experience={experience} />
    </p>
  )
}

/** Whether the member's seat is bound by the fee they agreed to, said where they may cancel late. */
function FeeOnSeat({ experience }: { experience: Experience }) {
  const { t, i18n } = useTranslation('payments')
  const shown = useShownFee(experience)
  if (!shown) return null
  const fee = formatCurrency(shown, i18n.language)
  return <>{experience.viewer?.fee_bound ? t('fee.lateBound', { fee }) : t('fee.notBound')}</>
}

/** Without JavaScript, cancelling close to the start is confirmed on a page of its own. */
export function ConfirmCancel({ experience }: { experience: Experience }) {
  const { t } = useTranslation('activities')
  return (
    <div className="prose">
      <h1>{t('confirmCancel.title')}</h1>
      <p>{t('confirmCancel.body', { title: experience.title })}</p>
      <div className="notice">
        <LateCancelNote experience={experience} />
      </div>
      <Form method="post" action={`/activities/${experience.id}`} className="button-row">
        <input type="hidden" name="intent" value="cancel" />
        <input type="hidden" name="confirmed" value="yes" />
        <SubmitButton pending="working" className="button button--danger">
          {t('confirmCancel.confirm')}
        </SubmitButton>
        <Link to={`/activities/${experience.id}`} className="button button--secondary">
          {t('confirmCancel.keep')}
        </Link>
      </Form>
    </div>
  )
}
