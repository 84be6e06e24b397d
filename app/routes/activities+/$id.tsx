import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { isRouteErrorResponse, Link, useActionData, useLoaderData, type ClientActionFunctionArgs } from '@remix-run/react'
import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { Attendee } from '#app/utils/api/experiences.server.ts'
import { hasStarted } from '#contract/experience-rules.ts'
import { addressWithCity } from '#contract/place-line.ts'
import { ContactSupport } from '#app/components/contact-support.tsx'
import { ReferralBanner } from '#app/components/referral-banner.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { VerifiedBadge } from '#app/components/verified-badge.tsx'
import { getApi, getOptionalUser } from '#app/utils/auth.server.ts'
import { formatCurrency, formatStart, type Experience } from '#app/utils/experience.ts'
import { isFlagOn } from '#app/utils/flags.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { cardSetupToast } from '#app/utils/card-setup.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { referralBannerFor } from '#app/utils/referrals.server.ts'
import { mapsLink, mapsPlatform, type MapsPlatform } from '#app/utils/maps-link.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { useCancellation } from '#app/utils/use-cancellation.ts'
import { useHydrated } from '#app/utils/use-hydrated.ts'
import { runIntent } from './$id.server.ts'
import { Conversations } from './__conversations.tsx'
import { ConfirmCancelActivity, HostTools, InvitedResult } from './__host-tools.tsx'
import { InviteFriend } from './__invite-friend.tsx'
import { ConfirmCancel, Rsvp, useOptimisticExperience, useShownFee } from './__rsvp.tsx'
import { SurveyResults } from './__survey-results.tsx'
import { OnlyTheMember } from '#app/components/only-the-member.tsx'

const previewCount = 6

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  // Back from adding a card to save a seat here (decision 075): said once, the address made plain again.
  const back = new URL(request.url)
  if (back.searchParams.has('setup')) throw await redirectWithToast(context, back.pathname, await cardSetupToast(request, context, back))
  const api = getApi(request, context)
  const experience = await api.experiences.get(params.id ?? '').catch(notFoundOnMissing)
  const user = await getOptionalUser(request, context)
  // "Contact host" shows when the API says the host can be messaged (decision 030: not when either
  // blocked the other or the host is suspended); if that question fails, it shows and a refusal explains.
  const mayContactHost = Boolean(user && experience.host && !experience.is_hostless && !experience.viewer?.is_host)
  // What attendees said (decision 046): for the host (or an admin) once the activity has begun.
  const showSurvey = Boolean(experience.viewer?.can_manage && !experience.canceled_at && hasStarted(experience.start_date))
  const [attendees, waitlist, reach, surveyResults] = user
    ? await Promise.all([
        api.experiences.attendees(experience.id, { page: 1, perPage: 50 }),
        // Spec §4: the notify list is loaded only when max_attendees is above 0.
        (experience.max_attendees ?? 0) > 0
          ? api.experiences.waitlist(experience.id).catch(() => null)
          : Promise.resolve(null),
        mayContactHost && experience.host ? api.blocks.reachability(experience.host.id).catch(() => null) : Promise.resolve(null),
        showSurvey ? api.surveys.results(experience.id).catch(() => null) : Promise.resolve(null),
      ])
    : [null, null, null, null]
  const url = new URL(request.url)
  const t = await getT(request, context, 'activities')
  // A visitor who came by a friend's invite to this activity (decision 087) is told who asked them.
  const referral = await referralBannerFor(request, context, api, Boolean(user))
  // "Invite a friend" only while the `referrals` flag is on for the member (decision 087).
  const inviteFriend = user ? await isFlagOn(request, context, 'referrals', true) : false
  return {
    referral,
    inviteFriend,
    experience,
    attendees,
    waitlist,
    surveyResults,
    signedIn: Boolean(user),
    maps: mapsPlatform(request.headers.get('user-agent')),
    canContactHost: mayContactHost && (reach?.can_message ?? true),
    // The confirmations only while there is something to confirm (issue 29 §4: not once it has begun or was cancelled).
    confirmCancel: url.searchParams.get('confirm') === 'cancel' && Boolean(experience.viewer?.is_attending) && isOn(experience),
    confirmCancelActivity: url.searchParams.get('confirm') === 'cancel-activity' && Boolean(experience.viewer?.can_manage) && isOn(experience),
    title: experience.title,
    description: experience.description.slice(0, 160) || t('detail.title'),
    pageUrl: `${context.services.config.publicUrl}/activities/${experience.id}`,
    supportEmail: context.services.config.supportEmail,
  }
}

/** Neither cancelled nor begun: seats, calendars, directions and the host's changes still make sense. */
const isOn = (experience: Experience) => !experience.canceled_at && !experience.is_past

/** Each form on the page sends an `intent`; `runIntent` hands it to its handler (unknown: 400). */
export async function action(args: ActionFunctionArgs) {
  return runIntent(args)
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

export default function ActivityDetail() {
  const { experience, attendees, waitlist, surveyResults, signedIn, maps, canContactHost, confirmCancel, confirmCancelActivity, pageUrl, supportEmail, referral, inviteFriend } =
    useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t, i18n } = useTranslation('activities')
  const when = formatStart(experience.start_date, experience.timezone, i18n.language) ?? t('comingSoon')
  const canceled = useCancellation(experience)
  // Issue 29 §4: only what can still be done. A cancelled or past activity offers no calendar,
  // sharing, directions or fee; its host keeps Duplicate and the attendee list.
  const on = isOn(experience)
  const shownFee = useShownFee(experience)
  if (confirmCancel) return <ConfirmCancel experience={experience} />
  if (confirmCancelActivity) return <ConfirmCancelActivity experience={experience} />
  return (
    <article>
      {referral ? <ReferralBanner banner={referral} /> : null}
      {experience.cover_photo ? <img src={experience.cover_photo.url} alt="" width={1200} height={600} className="detail-cover" /> : null}
      <h1>{experience.title}</h1>
      {canceled ? (
        <div className="notice notice--error">
          <p>{canceled}</p>
        </div>
      ) : null}
      {actionData && 'invited' in actionData && actionData.invited ? <InvitedResult result={actionData.invited} /> : null}
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
              <Where experience={experience} signedIn={signedIn} maps={maps} ongoing={!experience.canceled_at} />
            </dd>
            <dt>{t('detail.host')}</dt>
            <dd>
              {/* The host's public profile, as attendees' names link to theirs (issue 29 §3); a deleted or suspended host has none to show. */}
              {experience.is_hostless ? (
                t('detail.hostless')
              ) : experience.host?.display_name ? (
                <Link to={`/p/${experience.host.id}`}>{experience.host.display_name}</Link>
              ) : (
                t('common:member.generic')
              )}
              {!experience.is_hostless && experience.host?.is_verified ? <> <VerifiedBadge /></> : null}
            </dd>
            {experience.is_premium ? (
              <>
                <dt>{t('detail.premium')}</dt>
                <dd>{t('detail.premiumMeaning')}</dd>
              </>
            ) : null}
            {shownFee && on ? (
              <>
                <dt>{t('detail.noShowFee')}</dt>
                {/* Only if the member agrees to it when saving a seat (decision 075); nothing while payments are off. */}
                <dd>{t('detail.noShowFeeValue', { fee: formatCurrency(shownFee, i18n.language) })}</dd>
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
              <p>{t(experience.canceled ? 'cancellation.noAttendees' : 'detail.noAttendees')}</p>
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
          {surveyResults ? <SurveyResults results={surveyResults} /> : null}
        </div>
        <aside aria-labelledby="actions-title">
          <h2 id="actions-title" className="visually-hidden">
            {t('detail.actions')}
          </h2>
          <div className="actions">
            <Rsvp experience={experience} signedIn={signedIn} waitlist={waitlist} />
            {on ? (
              <>
                <a href={`/activities/${experience.id}/calendar.ics`} className="button button--secondary" download>
                  {t('detail.addToCalendar')}
                </a>
                <a href={`mailto:?subject=${encodeURIComponent(experience.title)}&body=${encodeURIComponent(pageUrl)}`} className="button button--secondary">
                  {t('detail.share')}
                </a>
              </>
            ) : null}
          </div>
          {inviteFriend && on && (experience.viewer?.is_attending || experience.viewer?.is_host) ? (
            <OnlyTheMember quiet>
              <InviteFriend experience={experience} />
            </OnlyTheMember>
          ) : null}
          {signedIn ? <Conversations experience={experience} canContactHost={canContactHost} /> : null}
          {experience.viewer?.can_manage && !experience.canceled_at ? <HostTools experience={experience} waitlist={waitlist} past={experience.is_past} /> : null}
          <ul className="detail-links" role="list">
            {signedIn && !experience.viewer?.is_host ? (
              <OnlyTheMember quiet>
                <li>
                  <Link to={`/activities/${experience.id}/report`}>{t('detail.report')}</Link>
                </li>
              </OnlyTheMember>
            ) : null}
            {signedIn ? (
              <li>
                <ContactSupport className="button button--link" />
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

/** "3 people going"; once cancelled or past, nobody is going any more: who had signed up. */
function AttendeeCount({ experience }: { experience: Experience }) {
  const { t } = useTranslation('activities')
  const { attendees_count: count } = useOptimisticExperience(experience)
  if (experience.canceled_at) return count > 0 ? <h2>{t('cancellation.hadSignedUp', { count })}</h2> : null
  if (experience.is_past) return <h2>{t('detail.signedUp', { count })}</h2>
  return <h2>{t('detail.attendees', { count })}</h2>
}

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
          {/* Each attendee's public profile (issue 13 §3); a suspended member has none to show. */}
          {attendee.display_name ? <Link to={`/p/${attendee.id}`}>{attendee.display_name}</Link> : t('common:member.generic')}
          {attendee.is_verified ? <VerifiedBadge /> : null}
          {attendee.is_host ? ` (${t('detail.host')})` : null}
          {/* Names only (issue 29 §4): blocking stays on the profile and in conversations (decision 034). */}
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

function Where({ experience, signedIn, maps, ongoing }: { experience: Experience; signedIn: boolean; maps: MapsPlatform; ongoing: boolean }) {
  const { t } = useTranslation('activities')
  if (experience.venue_type === 'online') {
    return experience.url && ongoing ? (
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
  // Issue 12 §6: an address typed without its city ("120 Main St") gets the activity's city, on
  // the page and in the directions, so a maps search never lands in another town's Main St.
  const full = addressWithCity(address, experience.location?.city ?? null, experience.location?.region ?? null)
  // Nothing to go to once cancelled: the address, without directions (a member running late to
  // one that has begun still needs them).
  if (!ongoing) return <>{full}</>
  // The platform's own maps (decision 045): a geo: link opens an app, so it needs no new tab.
  const directions = mapsLink(maps, { address: full, latitude: experience.location?.latitude, longitude: experience.location?.longitude })
  return (
    <>
      {full}
      <br />
      <a href={directions} rel="noopener noreferrer" target={maps === 'android' ? undefined : '_blank'}>
        {t('detail.directions')}
      </a>
    </>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title, loaded?.description)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
