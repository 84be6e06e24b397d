import type { ActivityFormDefaults } from '#app/components/activity-form.tsx'
import type { Experience } from './experience.ts'

/** The form's starting values from an existing activity (edit and duplicate). */
export function defaultsFrom(experience: Experience, options: { keepDate: boolean }): ActivityFormDefaults {
  const local = experience.start_date ? localParts(experience.start_date, experience.timezone) : null
  const label = [experience.location?.city, experience.location?.region].filter(Boolean).join(', ')
  return {
    title: experience.title,
    description: experience.description,
    venueType: experience.venue_type,
    place: experience.location?.placeId ? { id: experience.location.placeId, label } : null,
    address: experience.location?.formattedAddress ?? undefined,
    url: experience.url ?? undefined,
    startDate: options.keepDate ? local?.date : undefined,
    startTime: local?.time,
    maxAttendees: experience.max_attendees ? String(experience.max_attendees) : undefined,
    ticketUrl: experience.ticket_url ?? undefined,
    noShowFee: experience.no_show_fee ?? undefined,
    isHostless: experience.is_hostless,
    isPremium: experience.is_premium,
    hasCover: Boolean(experience.cover_photo),
  }
}

function localParts(iso: string, timeZone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(iso))
      .map((part) => [part.type, part.value]),
  ) as Record<string, string>
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` }
}
