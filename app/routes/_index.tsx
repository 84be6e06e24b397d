import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ExperienceCard } from '#app/components/experience-card.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { GuessedPlace } from '#app/components/guessed-place.tsx'
import { ReferralBanner } from '#app/components/referral-banner.tsx'
import { SiteBanner } from '#app/components/site-banner.tsx'
import { SurveyBanner } from '#app/components/survey-banner.tsx'
import { getApi, getOptionalUser } from '#app/utils/auth.server.ts'
import { topNotice } from '#app/utils/banners.server.ts'
import { exploreChoice, placeFromAddress } from '#app/utils/explore.server.ts'
import { isFlagOn } from '#app/utils/flags.server.ts'
import { ignoreUnlessUnavailable, unavailableOnServerError } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { referralBannerFor } from '#app/utils/referrals.server.ts'
import { greetingName } from '#contract/display-name.ts'
import type { User } from '#contract/users.ts'

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request, context)
  const api = getApi(request, context)
  const t = await getT(request, context, 'home')
  // Spec §2's referral banner: the invite the visitor followed (`/i/{code}`, decision 087).
  const referral = await referralBannerFor(request, context, api, Boolean(user))
  const now = new Date().toISOString()
  const near = await homePlace(request, context, user)
  const [mine, nearby, popups] = await Promise.all([
    user ? api.users.experiences(user.id, { type: 'upcoming', page: 1 }) : Promise.resolve(null),
    // Nowhere known: no list of other people's cities, an invitation to choose one instead.
    near ? api.experiences.list({ page: 1, perPage: 6, from: now, datedOnly: true, near: { ...near.origin, miles: 25 } }) : Promise.resolve(null),
    // "Did you go to …?" (decision 046) and banners where the member lives (decision 084).
    user ? api.popups.list().catch(ignoreUnlessUnavailable) : Promise.resolve(null),
  ]).catch(unavailableOnServerError)
  // One notice at a time: the member's first popup, else a banner showing at this place.
  const notice = await topNotice(request, context, user, popups, near?.origin ?? null)
  // "Invite friends" only while the `referrals` flag is on for the member (decision 087).
  const inviteFriends = user ? await isFlagOn(request, context, 'referrals', true) : false
  return data(
    {
      title: t('title'),
      description: t('description'),
      signedIn: Boolean(user),
      inviteFriends,
      referral,
      upcoming: mine?.data.slice(0, 3) ?? [],
      notice,
      nearby: nearby?.data ?? [],
      place: near ? { label: near.label, source: near.source } : null,
      firstName: user ? greetingName(user) : null,
    },
  )
}

type PlaceSource = 'saved' | 'explore' | 'guessed'

/**
 * Where "near the member" is (issue 12 §5): the city saved on their account, else the city they
 * last chose on Explore, else the one their internet address suggests (labelled as a guess);
 * null when none is known.
 */
async function homePlace(request: Request, context: LoaderFunctionArgs['context'], user: User | null) {
  const found = (source: PlaceSource, label: string, { latitude, longitude }: { latitude: number; longitude: number }) => ({
    source,
    label,
    origin: { latitude, longitude },
  })
  if (user?.lat != null && user.long != null) {
    const origin = { latitude: user.lat, longitude: user.long }
    const label = user.city ?? (await getApi(request, context).places.nearest(origin).catch(ignoreUnlessUnavailable))?.label
    if (label) return found('saved', label, origin)
  }
  const chosen = await exploreChoice(request, context)
  if (chosen) return found('explore', chosen.label, chosen)
  const guess = await placeFromAddress(request, context)
  return guess ? found('guessed', guess.label, guess) : null
}

export default function Home() {
  const { signedIn, inviteFriends, referral, upcoming, nearby, place, firstName, notice } = useLoaderData<typeof loader>()
  const { t } = useTranslation('home')
  const name = firstName ?? t('common:member.generic')
  return (
    <>
      {referral ? <ReferralBanner banner={referral} /> : null}
      <section className="hero" aria-labelledby="hero-title">
        <h1 id="hero-title">{signedIn ? t('greeting', { name }) : t('hero.title')}</h1>
        <p className="lead">{t('hero.body')}</p>
        <div className="button-row">
          {signedIn ? (
            <>
              <Link to="/activities" className="button">
                {t('hero.find')}
              </Link>
              <Link to="/create-activity" className="button button--secondary">
                {t('hero.host')}
              </Link>
              {inviteFriends ? (
                <Link to="/referrals" className="button button--secondary">
                  {t('referrals:homeLink')}
                </Link>
              ) : null}
            </>
          ) : (
            <>
              <Link reloadDocument to="/signup" className="button">
                {t('hero.join')}
              </Link>
              <Link to="/activities" className="button button--secondary">
                {t('hero.browse')}
              </Link>
            </>
          )}
        </div>
      </section>
      {notice?.kind === 'survey' ? <SurveyBanner popup={notice.popup} /> : null}
      {notice?.kind === 'banner' ? <SiteBanner key={notice.banner.id} banner={notice.banner} /> : null}
      {signedIn ? (
        <section aria-labelledby="mine-title">
          <h2 id="mine-title">{t('mine.title')}</h2>
          {upcoming.length === 0 ? (
            <div className="card">
              <p>{t('mine.emptyPitch')}</p>
              <Link to="/activities">{t('mine.find')}</Link>
            </div>
          ) : (
            <ul className="experience-list">
              {upcoming.map((experience) => (
                <li key={experience.id}>
                  <ExperienceCard experience={experience} headingLevel={3} />
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
      <section aria-labelledby="nearby-title">
        <h2 id="nearby-title">{place ? t('nearby.titleNear', { place: place.label }) : t('nearby.title')}</h2>
        {place?.source === 'guessed' ? <GuessedPlace label={place.label} /> : null}
        {place?.source === 'saved' ? <p className="hint">{t('nearby.fromAccount')}</p> : null}
        {place?.source === 'explore' ? <p className="hint">{t('nearby.fromExplore')}</p> : null}
        {!place ? (
          <p>{t('nearby.choosePlace')}</p>
        ) : nearby.length === 0 ? (
          <p>{t('nearby.empty')}</p>
        ) : (
          <ul className="experience-list">
            {nearby.map((experience) => (
              <li key={experience.id}>
                <ExperienceCard experience={experience} headingLevel={3} />
              </li>
            ))}
          </ul>
        )}
        <p>
          <Link to="/activities">{place ? t('nearby.more') : t('nearby.chooseCity')}</Link>
        </p>
      </section>
      {signedIn ? null : (
        <section aria-labelledby="how-title" className="prose">
          <h2 id="how-title">{t('how.title')}</h2>
          <ol>
            <li>{t('how.find')}</li>
            <li>{t('how.attend')}</li>
            <li>{t('how.host')}</li>
          </ol>
          <p>
            <Link to="/company/about">{t('how.more')}</Link>
          </p>
        </section>
      )}
    </>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title, loaded?.description)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
