import { useTranslation } from 'react-i18next'
import { formatMoment, type Experience } from './experience.ts'

/**
 * "Walter K., the host, cancelled this activity on Tuesday, June 5 at 10:00 AM PDT" (issue 12
 * §2): who and when, as the API says (`canceled`), in the activity's time zone and the member's
 * language; null while the activity is on.
 */
export function useCancellation(experience: Pick<Experience, 'canceled' | 'timezone' | 'viewer'>) {
  const { t, i18n } = useTranslation('activities')
  const canceled = experience.canceled
  if (!canceled) return null
  const when = formatMoment(canceled.at, experience.timezone, i18n.language)
  if (canceled.by.role === 'team') return t('cancellation.byTeam', { when })
  if (experience.viewer?.is_host) return t('cancellation.byYou', { when })
  return t('cancellation.byHost', { when, name: canceled.by.display_name ?? t('common:member.generic') })
}
