/**
 * Wall-clock time in IANA time zones with nothing but Intl (DST-safe), shared by the API (activity
 * times, demo data) and the web app (Explore's date filters). Not date-fns-tz: it models a zoned
 * time as a Date in the process's own zone, so its answers change with the machine's TZ and a
 * time in a spring-forward gap moves back instead of forward (decision 011).
 */

const HOUR = 3_600_000
const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string) {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    formatters.set(timeZone, f)
  }
  return f
}

export function isValidTimeZone(timeZone: string) {
  try {
    formatter(timeZone)
    return true
  } catch {
    return false
  }
}

/** The wall-clock parts of `instant` in `timeZone`. */
export function zonedParts(instant: number, timeZone: string) {
  const parts: Record<string, number> = {}
  for (const part of formatter(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value)
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: (parts.hour ?? 0) % 24,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  }
}

/** Milliseconds to add to UTC to get the wall-clock time of `timeZone` at `instant`. */
function zoneOffset(instant: number, timeZone: string) {
  const p = zonedParts(instant, timeZone)
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second)
  return wall - Math.floor(instant / 1000) * 1000
}

/**
 * The UTC instant of a wall-clock time in `timeZone`. A time that does not exist (spring-forward
 * gap) moves forward by the gap; an ambiguous one (fall-back) takes the first occurrence.
 */
export function zonedTime(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day, hour, minute)
  // Try both offsets around the wall time; prefer the earliest candidate that maps back exactly.
  const offsets = new Set([zoneOffset(wall - 12 * HOUR, timeZone), zoneOffset(wall + 12 * HOUR, timeZone)])
  const exact = [...offsets]
    .map((offset) => wall - offset)
    .filter((utc) => wall - zoneOffset(utc, timeZone) === utc)
    .sort((a, b) => a - b)
  if (exact[0] !== undefined) return new Date(exact[0])
  // In a gap: use the offset in force before the transition (moves the time forward).
  return new Date(wall - zoneOffset(wall - 12 * HOUR, timeZone))
}

/** `zonedTime` for a local date (`YYYY-MM-DD`) and time (`HH:MM`). */
export function zonedTimeToUtc(date: string, time: string, timeZone: string): Date {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number)
  const [hour = 0, minute = 0] = time.split(':').map(Number)
  return zonedTime(year, month, day, hour, minute, timeZone)
}

/**
 * `instant` as people read it in `language`, on the wall clock of `timeZone` (an activity's own
 * zone, wherever the reader or the server is) with the zone's name as members in the US know it,
 * whatever the language (`withUsZoneName`): "Saturday, March 14 at 3:00 PM PDT",
 * « samedi 14 mars à 15:00 PDT », "zaterdag 14 maart om 15:00 PDT".
 */
export function formatZonedDateTime(instant: Date | number, timeZone: string, language: string) {
  const formatter = new Intl.DateTimeFormat(language, {
    timeZone,
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  })
  return withUsZoneName(formatter, instant, timeZone)
}

/** Building an Intl formatter costs far more than using one: one per zone. */
const usZoneFormats = new Map<string, Intl.DateTimeFormat>()

/**
 * The zone's short name as the US writes it at `instant` ("PST" in winter, "PDT" in summer,
 * "EST", "CDT", "MST", "AKST", "HST", "AST"), or null for a zone the US has no such name for
 * (Paris: "GMT+1").
 */
export function usZoneName(instant: Date | number, timeZone: string): string | null {
  let format = usZoneFormats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' })
    if (usZoneFormats.size > 500) usZoneFormats.clear()
    usZoneFormats.set(timeZone, format)
  }
  const name = format.formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value ?? ''
  return /^[A-Z]{2,5}$/.test(name) ? name : null
}

/**
 * What `formatter` (which shows `timeZoneName: 'short'`) writes, with the zone named as members
 * in the US know it in every language (issue 29 §4): French otherwise writes "UTC−8" where
 * English and Dutch write "PST". A zone without a US name keeps the language's own ("UTC+1").
 */
export function withUsZoneName(formatter: Intl.DateTimeFormat, instant: Date | number, timeZone: string) {
  const name = usZoneName(instant, timeZone)
  if (!name) return formatter.format(instant)
  return (
    formatter
      .formatToParts(instant)
      .map((part) => (part.type === 'timeZoneName' ? name : part.value))
      .join('')
      // As `format()` writes it in V8 (Node and Chromium alike, so the page hydrates unchanged):
      // a plain space where ICU puts a narrow no-break space ("3:00 PM").
      .replaceAll('\u202f', ' ')
  )
}
