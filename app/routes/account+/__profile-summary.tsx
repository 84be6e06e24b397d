import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { BreakableText } from '#app/components/ui/breakable-text.tsx'
import { familyMembers, joinReasons } from '#contract/enums.ts'
import type { User } from '#contract/users.ts'
import { languageNames } from '#app/utils/i18n.ts'
import { preferNotToSay, profileSections, sectionAnchor, sectionPath, type ProfileSection } from '#app/utils/profile-sections.ts'
import { SavedNote } from './__profile-sections.tsx'

/**
 * `/account/edit`'s list of what the profile says (issue 29 §4, the GOV.UK "check answers"
 * pattern): each section's heading, what is saved, and "Change" to its own short page. The
 * section just saved carries its message ("Your name is saved.") in its row, which the page
 * scrolls to (and, with JavaScript, focuses): where the member's eyes are when they come back.
 */
export function ProfileSummary({ user, headings, savedSection }: { user: User; headings: Record<ProfileSection | 'email', string>; savedSection: ProfileSection | null }) {
  const { t } = useTranslation('profile')
  return (
    <section aria-labelledby="profile-details">
      <h2 id="profile-details">{t('edit.summary.heading')}</h2>
      <dl className="summary-list">
        {profileSections.map((section) => (
          <Row key={section} id={sectionAnchor(section)} heading={headings[section]} to={sectionPath(section)} saved={savedSection === section ? t(`edit.${section}.saved`) : null}>
            <SectionValue section={section} user={user} />
          </Row>
        ))}
        <Row id="email-section" heading={headings.email} to="/account/email">
          {user.email ? (
            <p>
              <BreakableText text={user.email} />
            </p>
          ) : (
            <Empty />
          )}
        </Row>
      </dl>
    </section>
  )
}

function Row({ id, heading, to, saved = null, children }: { id: string; heading: string; to: string; saved?: string | null; children: ReactNode }) {
  const { t } = useTranslation('profile')
  return (
    <div id={id} className={saved ? 'summary-list__row summary-list__row--saved' : 'summary-list__row'} tabIndex={-1}>
      <dt>{heading}</dt>
      <dd className="summary-list__value">
        {saved ? <SavedNote text={saved} /> : null}
        {children}
      </dd>
      <dd className="summary-list__action">
        <Link to={to}>
          {t('edit.summary.change')}
          <span className="visually-hidden"> {heading}</span>
        </Link>
      </dd>
    </div>
  )
}

function Empty() {
  const { t } = useTranslation('profile')
  return <p className="summary-list__empty">{t('edit.summary.empty')}</p>
}

/** "Label: value" lines (the privacy choices, the answers about you). */
function Pairs({ pairs }: { pairs: [string, string | null][] }) {
  const { t } = useTranslation('profile')
  const given = pairs.filter((pair): pair is [string, string] => Boolean(pair[1]))
  if (given.length === 0) return <Empty />
  return (
    <ul className="plain-list">
      {given.map(([label, value]) => (
        <li key={label}>{t('edit.summary.pair', { label, value, interpolation: { escapeValue: false } })}</li>
      ))}
    </ul>
  )
}

function SectionValue({ section, user }: { section: ProfileSection; user: User }) {
  const { t, i18n } = useTranslation(['profile', 'onboarding', 'blocking'])
  const list = (values: string[]) => (values.length ? values.join(', ') : null)
  /** The choices ticked, in the order the form lists them. */
  const ticked = <T extends string>(choices: readonly T[], chosen: readonly T[]) => choices.filter((choice) => chosen.includes(choice))
  switch (section) {
    case 'name': {
      const name = [user.first_name, user.last_name].filter(Boolean).join(' ')
      return name ? <p>{name}</p> : <Empty />
    }
    case 'about': {
      // A member who has been through onboarding and gave no gender chose "Prefer not to say".
      const gender = user.gender ?? (user.onboarded ? preferNotToSay : null)
      return (
        <Pairs
          pairs={[
            [t('edit.summary.gender'), gender ? t(`onboarding:gender.${gender}`) : null],
            [t('edit.summary.relationship'), user.relationship ? t(`relationship.${user.relationship}`) : null],
            [t('edit.summary.employment'), user.employment ? t(`employment.${user.employment}`) : null],
            [t('edit.summary.family'), list(ticked(familyMembers, user.family).map((value) => t(`family.${value}`)))],
            [t('edit.summary.reasons'), list(ticked(joinReasons, user.join_reasons).map((value) => t(`onboarding:reasons.${value}`)))],
          ]}
        />
      )
    }
    case 'interests': {
      const chosen = list(user.interests.map((value) => t(`interests.${value}`)))
      return chosen ? <p>{chosen}</p> : <Empty />
    }
    case 'prompts':
      return user.prompts.length ? (
        <dl className="prompt-list">
          {user.prompts.map(({ prompt, answer }) => (
            <div key={prompt}>
              <dt>{t(`prompts.${prompt}`)}</dt>
              <dd className="prewrap">{answer}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <Empty />
      )
    case 'city':
      return user.city ? <p>{user.city}</p> : <Empty />
    case 'phone':
      return user.formatted_phone ? <p>{user.formatted_phone}</p> : <Empty />
    case 'privacy':
      return (
        <Pairs
          pairs={[
            [t('edit.privacy.age'), t(`showAge.${user.show_age ? 'yes' : 'no'}`)],
            [t('edit.summary.nearby'), t(`nearbyVisibility.${user.nearby_visibility}`)],
            [t('blocking:privacy.legend'), t(`blocking:privacy.${user.show_blocked_in_chat_search ? 'show' : 'hide'}`)],
          ]}
        />
      )
    case 'language':
      return <p>{languageNames[user.locale ?? (i18n.language as keyof typeof languageNames)] ?? languageNames.en}</p>
  }
}
