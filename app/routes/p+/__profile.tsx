import { Form, Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { BlockControl, useBlockState } from '#app/components/block-control.tsx'
import { ExperienceCard } from '#app/components/experience-card.tsx'
import { MemberPhoto, ProfileSummary } from '#app/components/member-summary.tsx'
import { VerifiedBadge } from '#app/components/verified-badge.tsx'
import type { PublicUser } from '#contract/users.ts'
import type { LoadedProfile } from './__profile.server.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { OnlyTheMember } from '#app/components/only-the-member.tsx'

/** The public profile (issue 13 §3), as the viewer may see it; `own` adds the member's own notice. */
export function ProfileView({ loaded }: { loaded: LoadedProfile }) {
  const { t } = useTranslation('members')
  const { profile, name } = loaded
  // Blocking in place hides Message at once (decision 041); the page's data follows.
  const { isBlocked } = useBlockState(profile.slug, loaded.view === 'member' ? loaded.isBlocked : null)
  if (loaded.view === 'unavailable') {
    return (
      <>
        <h1>{name}</h1>
        <p>{t('profile.unavailable')}</p>
      </>
    )
  }
  if (loaded.view === 'signedOut') {
    const here = `/p/${profile.slug}`
    return (
      <>
        <h1>{name}</h1>
        <div className="notice">
          <p>{t('profile.joinToSee', { name })}</p>
          <div className="button-row">
            <Link reloadDocument to={`/signup?returnTo=${encodeURIComponent(here)}`} className="button">
              {t('profile.join')}
            </Link>
            <Link reloadDocument to={`/login?returnTo=${encodeURIComponent(here)}`}>
              {t('profile.signIn')}
            </Link>
          </div>
        </div>
      </>
    )
  }
  return (
    <>
      {loaded.own ? (
        <div className="notice">
          <p>{t('profile.yours')}</p>
          <p>
            <Link to="/account/edit">{t('profile.edit')}</Link>
          </p>
        </div>
      ) : null}
      <div className="profile-head">
        <MemberPhoto member={profile} name={name} />
        <div>
          <h1>{name}</h1>
          {profile.is_verified ? (
            <p>
              <VerifiedBadge />
            </p>
          ) : null}
          <ProfileSummary member={profile} />
          {loaded.canMessage && !isBlocked ? <MessageButton member={profile} /> : null}
        </div>
      </div>
      <Facts member={profile} name={name} />
      {loaded.prompts.length > 0 ? (
        <section aria-labelledby="prompts-title">
          <h2 id="prompts-title">{t('profile.prompts')}</h2>
          <dl className="prompt-list">
            {loaded.prompts.map((prompt) => (
              <div key={prompt.prompt}>
                <dt>{prompt.question}</dt>
                <dd>{prompt.answer}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}
      {loaded.interests.length > 0 ? (
        <section aria-labelledby="interests-title">
          <h2 id="interests-title">{t('profile.interests')}</h2>
          <ul className="tag-list">
            {loaded.interests.map((interest) => (
              <li key={interest.key}>{interest.name}</li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="hosting-title">
        <h2 id="hosting-title">{t('profile.hosting', { name })}</h2>
        {loaded.hosting.length === 0 ? <p>{t('profile.hostingEmpty', { name })}</p> : <Activities list={loaded.hosting} />}
      </section>
      {loaded.inCommon ? (
        <section aria-labelledby="in-common-title">
          <h2 id="in-common-title">{t('profile.inCommon')}</h2>
          {loaded.inCommon.length === 0 ? <p>{t('profile.inCommonEmpty')}</p> : <Activities list={loaded.inCommon} />}
        </section>
      ) : null}
      {loaded.own ? null : (
        <ul className="detail-links">
          <OnlyTheMember quiet>
            <li>
              <Link to={`/p/${profile.slug}/report`}>{t('profile.report')}</Link>
            </li>
          </OnlyTheMember>
          <li>
            {/* Block or Unblock (decisions 034, 041): in place with JavaScript, else the confirmation page, coming back here. */}
            <BlockControl slug={profile.slug} name={name} isBlocked={loaded.isBlocked} returnTo={`/p/${profile.slug}`} />
          </li>
        </ul>
      )}
    </>
  )
}

/** Opens the conversation with this member, or starts a message request (works without JavaScript). */
function MessageButton({ member }: { member: PublicUser }) {
  const { t } = useTranslation('messenger')
  return (
    <OnlyTheMember quiet>
      <Form method="post" action="/messenger/new">
        <input type="hidden" name="user_id" value={member.id} />
        <input type="hidden" name="slug" value={member.slug} />
        <SubmitButton pending="opening" className="button">
          {t('open.button')}
        </SubmitButton>
      </Form>
    </OnlyTheMember>
  )
}

function Facts({ member, name }: { member: PublicUser; name: string }) {
  const { t } = useTranslation(['members', 'profile'])
  const facts = [
    member.employment ? { label: t('members:profile.work'), value: t(`profile:employment.${member.employment}`) } : null,
    member.relationship ? { label: t('members:profile.relationship'), value: t(`profile:relationship.${member.relationship}`) } : null,
    member.family?.length ? { label: t('members:profile.family'), value: member.family.map((who) => t(`profile:family.${who}`)).join(', ') } : null,
  ].filter((fact) => fact !== null)
  if (facts.length === 0) return null
  return (
    <section aria-labelledby="facts-title">
      <h2 id="facts-title">{t('members:profile.facts', { name })}</h2>
      <dl className="fact-list">
        {facts.map((fact) => (
          <div key={fact.label}>
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}

function Activities({ list }: { list: NonNullable<Extract<LoadedProfile, { view: 'member' }>['inCommon']> }) {
  return (
    <ul className="experience-list">
      {list.map((experience) => (
        <li key={experience.id}>
          <ExperienceCard experience={experience} headingLevel={3} />
        </li>
      ))}
    </ul>
  )
}
