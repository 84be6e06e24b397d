import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { formatStart, type Experience } from '#app/utils/experience.ts'

/** `status`: the page's own status line (My activities says where the member stands). */
export function ExperienceCard({ experience, headingLevel = 2, status }: { experience: Experience; headingLevel?: 2 | 3; status?: string }) {
  const { t, i18n } = useTranslation('activities')
  const when = formatStart(experience.start_date, experience.timezone, i18n.language) ?? t('comingSoon')
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const spotsLeft = experience.max_attendees ? Math.max(experience.max_attendees - experience.attendees_count, 0) : null
  const where =
    experience.venue_type === 'online'
      ? t('online')
      : [experience.location?.city, experience.location?.region].filter(Boolean).join(', ')
  return (
    <article className="experience-card">
      {experience.cover_photo?.thumbnail_url ? (
        <img src={experience.cover_photo.thumbnail_url} alt="" width={450} height={150} loading="lazy" className="experience-card__image" />
      ) : null}
      <div className="experience-card__body">
        <Heading className="experience-card__title">
          <Link to={`/activities/${experience.id}`}>{experience.title}</Link>
        </Heading>
        <p className="experience-card__when">{when}</p>
        <p className="experience-card__where">
          {where}
          {experience.distance_miles != null ? ` · ${t('milesAway', { count: Math.round(experience.distance_miles * 10) / 10 })}` : null}
        </p>
        <p className="experience-card__status">
          {status ??
            (experience.canceled_at
              ? t('status.canceled')
              : experience.viewer?.is_attending
                ? t('status.attending')
                : experience.is_full
                  ? // The API says when the notify list is offered (never to the activity's host).
                    t(experience.viewer && !experience.viewer.can_join_waitlist ? 'status.fullNoOffer' : 'status.full')
                  : spotsLeft !== null
                    ? t('status.spotsLeft', { count: spotsLeft })
                    : t('status.open'))}
          {experience.is_premium ? ` · ${t('premium')}` : null}
        </p>
      </div>
    </article>
  )
}
