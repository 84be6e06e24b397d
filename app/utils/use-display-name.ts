import { useTranslation } from 'react-i18next'
import { displayName, greetingName, type NamedUser } from '#contract/display-name.ts'

/** The display-name rule (spec §3) with the translated generic label for suspended members. */
export function useDisplayName(user: NamedUser | null | undefined) {
  const { t } = useTranslation()
  if (!user) return ''
  return displayName(user) ?? t('member.generic')
}

/** The name greetings use ("Hello, Walter"): the first name, with the same fallbacks. */
export function useGreetingName(user: NamedUser | null | undefined) {
  const { t } = useTranslation()
  if (!user) return ''
  return greetingName(user) ?? t('member.generic')
}
