import { z } from 'zod'
import { venueTypes } from '#contract/enums.ts'
import { hasControlCharacters, isCalendarDate, memberText } from '#contract/input-validation.ts'
import {
  maxAddressLength,
  maxCapacity,
  maxDescriptionLength,
  maxDurationMinutes,
  maxTitleLength,
  maxUrlLength,
  noShowFeePattern,
  startMinuteStep,
} from '#contract/limits.ts'
import { memberTextMessages } from './form-messages.ts'

/**
 * The activity form (spec §5), shared by the browser (conform) and the server. Messages are
 * translation keys; the English texts are the spec's. Its limits are the API's (contract/limits.ts).
 */
const e = (key: string) => `activities:form.errors.${key}`
const noControlCharacters = (value: string) => !hasControlCharacters(value)
const optionalUrl = z
  .string()
  .trim()
  .max(maxUrlLength, e('url_invalid'))
  .refine((value) => /^https?:\/\/[^\s/$.?#].[^\s]*$/i.test(value) && noControlCharacters(value), e('url_invalid'))
  .optional()

export const activityFormSchema = z
  .object({
    // A title of only invisible characters (zero-width spaces…) would look blank: it counts as missing.
    title: memberText(z.string({ error: e('title_required') }).trim(), memberTextMessages)
      .min(1, e('title_required'))
      .max(maxTitleLength, e('title_too_long')),
    description: memberText(z.string().trim(), memberTextMessages, { multiline: true }).max(maxDescriptionLength, e('description_too_long')).optional(),
    venueType: z.enum(venueTypes, { error: e('venue_type_required') }),
    place: z.string().max(100).refine(noControlCharacters, e('location_required')).optional(),
    q: z.string().max(100).refine(noControlCharacters, e('location_required')).optional(),
    address: memberText(z.string().trim(), memberTextMessages).max(maxAddressLength).optional(),
    url: optionalUrl,
    startDate: z
      .string({ error: e('start_date_required') })
      .regex(/^\d{4}-\d{2}-\d{2}$/, e('start_date_required'))
      .refine(isCalendarDate, e('start_date_invalid')),
    startTime: z
      .string({ error: e('start_time_required') })
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, e('start_time_required'))
      .refine((value) => Number(value.slice(3, 5)) % startMinuteStep === 0, e('start_time_step')),
    // The two selects the start time is chosen with (see withStartTime); startTime is what counts.
    startHour: z.string().optional(),
    startMinute: z.string().optional(),
    durationMinutes: z.coerce.number().int().min(15).max(maxDurationMinutes).optional(),
    maxAttendees: z.coerce.number({ error: e('capacity_positive') }).int(e('capacity_positive')).min(1, e('capacity_positive')).max(maxCapacity, e('capacity_too_large')).optional(),
    ticketUrl: optionalUrl,
    noShowFee: z.string().trim().regex(noShowFeePattern, e('currency_invalid')).optional(),
    isHostless: z.literal('on').optional(),
    isPremium: z.literal('on').optional(),
  })
  .superRefine(
    (value, ctx) => {
      if (value.venueType === 'in_person' && !value.place) {
        ctx.addIssue({ code: 'custom', path: ['place'], message: e('location_required') })
      }
      if (value.venueType === 'online' && !value.url) {
        ctx.addIssue({ code: 'custom', path: ['url'], message: e('url_invalid') })
      }
    },
    // Also when other fields are wrong, so the member sees every problem at once.
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  )
export type ActivityForm = z.infer<typeof activityFormSchema>

/** API field codes → form fields. */
export const apiFieldToFormField: Record<string, string> = {
  title: 'title',
  description: 'description',
  venue_type: 'venueType',
  place_id: 'place',
  formatted_address: 'address',
  url: 'url',
  start_date: 'startDate',
  start_time: 'startTime',
  max_attendees: 'maxAttendees',
  ticket_url: 'ticketUrl',
  no_show_fee: 'noShowFee',
  cover_photo: 'cover',
}

export const activityFieldOrder = ['title', 'description', 'venueType', 'place', 'address', 'url', 'startDate', 'startTime', 'maxAttendees', 'ticketUrl', 'noShowFee', 'cover']

/**
 * The start time is chosen with two selects (hour, then minutes in 5-minute steps) so it reads
 * in the member's 12- or 24-hour convention without JavaScript; they become `startTime` (HH:MM)
 * before validation, in the browser and on the server alike.
 */
export function withStartTime(formData: FormData): FormData {
  const hour = formData.get('startHour')
  const minute = formData.get('startMinute')
  if (typeof hour !== 'string' || typeof minute !== 'string' || !hour || !minute) return formData
  const merged = new FormData()
  for (const [key, value] of formData) merged.append(key, value)
  merged.set('startTime', `${hour.padStart(2, '0')}:${minute.padStart(2, '0')}`)
  return merged
}

export const startHours = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'))
export const startMinutes = Array.from({ length: 60 / startMinuteStep }, (_, index) => String(index * startMinuteStep).padStart(2, '0'))
