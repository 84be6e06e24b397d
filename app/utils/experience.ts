import { z } from 'zod'

/** An experience as the API returns it (docs/api/experiences.md). */
export const experienceSchema = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  cover_photo: z.object({ url: z.string(), thumbnail_url: z.string().nullable() }).nullable(),
  max_attendees: z.number().nullable(),
  attendees_count: z.number(),
  is_full: z.boolean(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  timezone: z.string(),
  venue_type: z.enum(['in_person', 'online']),
  location: z
    .object({
      latitude: z.number().nullable(),
      longitude: z.number().nullable(),
      formattedAddress: z.string().nullable(),
      placeId: z.string().nullable(),
      city: z.string().nullable(),
      region: z.string().nullable(),
    })
    .nullable(),
  url: z.string().nullable(),
  ticket_url: z.string().nullable(),
  no_show_fee: z.string().nullable(),
  is_hostless: z.boolean(),
  is_premium: z.boolean(),
  host: z
    .object({ id: z.string(), display_name: z.string().nullable(), avatar: z.object({ url: z.string() }).nullable() })
    .nullable(),
  canceled_at: z.string().nullable(),
  is_past: z.boolean(),
  distance_miles: z.number().nullable().optional(),
  viewer: z
    .object({
      is_attending: z.boolean(),
      is_host: z.boolean(),
      can_manage: z.boolean(),
      waitlist_position: z.number().nullable(),
    })
    .nullable(),
})
export type Experience = z.infer<typeof experienceSchema>

/** Spec §4: full when max_attendees > 0 and attendees_count has reached it. */
export function isFull(experience: Pick<Experience, 'max_attendees' | 'attendees_count'>) {
  return (experience.max_attendees ?? 0) > 0 && experience.attendees_count >= (experience.max_attendees ?? 0)
}

/**
 * Spec §9 date display: "Mon, Jan 1 • 3:00 PM TZ" in the activity's time zone, localized;
 * null when there is no date (the caller shows "Coming soon").
 */
export function formatStart(iso: string | null, timeZone: string, language: string) {
  if (!iso) return null
  const date = new Date(iso)
  const { day, time } = startFormats(language, timeZone)
  return `${day.format(date)} • ${time.format(date)}`
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
