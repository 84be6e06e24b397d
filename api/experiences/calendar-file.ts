/**
 * The activity as an iCalendar file (RFC 5545): "Add to calendar", and the files the change and
 * cancellation emails carry. Pure: it reads nothing, so the emails of api/notifications/types can
 * use it without reaching the activities service (decision 070, no import circles).
 */
import { defaultDurationMinutes as DEFAULT_DURATION_MINUTES } from '#contract/limits.ts'
import type { Experience } from '../db/schema.ts'

const MINUTE = 60_000

function icalText(value: string) {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r\n|\r|\n/g, '\\n')
}

function icalDate(date: Date) {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
}

/** Folds a content line at 75 octets (UTF-8), never inside a character. */
export function foldLine(line: string) {
  const encoder = new TextEncoder()
  if (encoder.encode(line).length <= 75) return line
  const parts: string[] = []
  let current = ''
  let bytes = 0
  let limit = 75
  for (const char of line) {
    const size = encoder.encode(char).length
    if (bytes + size > limit) {
      parts.push(current)
      current = ''
      bytes = 0
      limit = 74 // continuation lines start with a space
    }
    current += char
    bytes += size
  }
  parts.push(current)
  return parts.join('\r\n ')
}

/**
 * The calendar file of a dated activity. `details`: the address or the online link (for members
 * only). `method: 'REQUEST'` is the update a changed activity's email carries (decision 050): the
 * UID is the activity's, and SEQUENCE (seconds between its creation and its last change) grows
 * with each change, so calendars update the event they already hold instead of adding one.
 */
export function activityIcal(
  experience: Omit<Experience, 'start_at'> & { start_at: Date },
  publicUrl: string,
  options: { details: boolean; method?: 'PUBLISH' | 'REQUEST' | 'CANCEL' },
) {
  const start = experience.start_at
  const end = experience.end_at ?? new Date(start.getTime() + DEFAULT_DURATION_MINUTES * MINUTE)
  const pageUrl = `${publicUrl}/activities/${experience.id}`
  const cityLine = [experience.city, experience.region].filter(Boolean).join(', ')
  let location: string
  const { details } = options
  if (experience.venue_type === 'online') location = details && experience.url ? experience.url : 'Online'
  else location = (details ? experience.formatted_address : null) || cityLine
  const description = [experience.description, pageUrl].filter(Boolean).join('\n\n')
  const sequence = Math.max(0, Math.floor((experience.updated_at.getTime() - experience.created_at.getTime()) / 1000))
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Circle 55//Activities//EN',
    'CALSCALE:GREGORIAN',
    `METHOD:${options.method ?? 'PUBLISH'}`,
    'BEGIN:VEVENT',
    `UID:${experience.id}@${new URL(publicUrl).hostname}`,
    `SEQUENCE:${sequence}`,
    `DTSTAMP:${icalDate(new Date())}`,
    `DTSTART:${icalDate(start)}`,
    `DTEND:${icalDate(end)}`,
    `SUMMARY:${icalText(experience.title)}`,
    `DESCRIPTION:${icalText(description)}`,
    ...(location ? [`LOCATION:${icalText(location)}`] : []),
    ...(experience.venue_type === 'in_person' && experience.latitude !== null && experience.longitude !== null && details
      ? [`GEO:${experience.latitude};${experience.longitude}`]
      : []),
    `URL:${pageUrl}`,
    `STATUS:${experience.canceled_at ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ]
  return lines.map(foldLine).join('\r\n') + '\r\n'
}
