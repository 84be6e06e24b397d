import { useTranslation } from 'react-i18next'
import type { PublicUser } from '#contract/users.ts'

/** A member's photo, or their initial in a circle named for screen readers. */
export function MemberPhoto({ member, name, size = 'large' }: { member: PublicUser; name: string; size?: 'large' | 'small' }) {
  const { t } = useTranslation('members')
  const className = size === 'large' ? 'member-photo' : 'member-photo member-photo--small'
  if (member.avatar?.url) return <img src={member.avatar.url} alt={t('profile.photoAlt', { name })} className={className} />
  return (
    <span className={`${className} avatar--initial`} role="img" aria-label={t('profile.noPhoto', { name })}>
      {(member.display_name ?? '?').slice(0, 1).toLocaleUpperCase()}
    </span>
  )
}

/** Home town, member since, and the age by decade when the member shows it. */
export function ProfileSummary({ member }: { member: PublicUser }) {
  const { t, i18n } = useTranslation('members')
  const since = member.created_at
    ? new Intl.DateTimeFormat(i18n.language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(member.created_at))
    : null
  return (
    <ul className="plain-list">
      {member.city ? <li>{t('profile.livesIn', { city: member.city })}</li> : null}
      {member.age_decade ? <li>{t('profile.ageDecade', { decade: member.age_decade, end: member.age_decade + 9 })}</li> : null}
      {since ? <li>{t('profile.memberSince', { date: since })}</li> : null}
    </ul>
  )
}
