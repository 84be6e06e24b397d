import type { Experience } from '#contract/experiences.ts'
import { withUsZoneName } from '#contract/zoned-time.ts'

/** An experience as the API returns it (docs/api/experiences.md). */
export type { Experience }

/**
 * Spec §9 date display: "Mon, Jan 1 • 3:00 PM TZ" in the activity's time zone, localized, the
 * zone named as in the US in every language ("jeu. 31 déc. • 14:10 PST", issue 29 §4); null when
 * there is no date (the caller shows "Coming soon").
 */
export function formatStart(iso: string | null, timeZone: string, language: string) {
  if (!iso) return null
  const date = new Date(iso)
  const { day, time } = startFormats(language, timeZone)
  return `${day.format(date)} • ${withUsZoneName(time, date, timeZone)}`
}

/**
 * A moment in a sentence ("Tuesday, June 3 at 10:00 AM EDT"): in the activity's time zone, in
 * the member's language (when it was cancelled, for example).
 */
export function formatMoment(iso: string, timeZone: string, language: string) {
  const date = new Date(iso)
  const formatter = new Intl.DateTimeFormat(language, {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  })
  return withUsZoneName(formatter, date, timeZone)
}

/** Building an Intl formatter costs far more than using one: keep them per language and zone. */
const startFormatCache = new Map<string, { day: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>()
function startFormats(language: string, timeZone: string) {
  const key = `${language}|${timeZone}`
  let formats = startFormatCache.get(key)
  if (!formats) {
    formats = {
      day: new Intl.DateTimeFormat(language, { weekday: 'short', month: 'short', day: 'numeric', timeZone }),
      time: new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit', timeZone, timeZoneName: 'short' }),
    }
    if (startFormatCache.size > 500) startFormatCache.clear()
    startFormatCache.set(key, formats)
  }
  return formats
}

/** Spec §9: whole dollars, or two decimals when there are cents. */
export function formatCurrency(amount: string | number, language: string) {
  const value = typeof amount === 'string' ? Number(amount) : amount
  const whole = Number.isInteger(value)
  return new Intl.NumberFormat(language, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(value)
}
