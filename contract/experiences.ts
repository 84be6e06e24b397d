import { z } from 'zod'
import { feeConsentFields } from './fees.ts'
import { pageQuerySchema } from './common.ts'
import { venueTypes } from './enums.ts'
import { hasControlCharacters, isCalendarDate, memberText, memberTextCodes, queryDecimal } from './input-validation.ts'
import {
  maxAddressLength,
  maxCapacity,
  maxDescriptionLength,
  maxDurationMinutes,
  maxEmailLength,
  maxEmailsPerAdd,
  maxTitleLength,
  maxUrlLength,
  minDurationMinutes,
} from './limits.ts'

/**
 * Activities (spec §3 "Experience", §7 `v1/experiences`): what the API accepts and answers. The
 * API validates with these schemas and the web parses its answers with them.
 */

const nullableString = z.string().nullable()
const avatar = z.object({ url: z.string() }).nullable()

// Answers ---------------------------------------------------------------------------------------

/**
 * Who acted on an activity for members to read: its host (named by the display-name rule), or
 * the Circle 55 team when an admin did it (an admin is never named to members, decision 021).
 */
export const experienceActorSchema = z.object({
  role: z.enum(['host', 'team', 'member']).meta({ description: '`member`: an attendee or the host who sent “Invite a friend” (invitations only, decision 087).' }),
  display_name: nullableString.meta({ description: 'The host’s (or the inviting member’s) display name; null for the team or a deleted member.' }),
})
export type ExperienceActor = z.infer<typeof experienceActorSchema>

/** An invitation the caller holds and has not answered yet (issue 12 §3, decision 019). */
export const experienceInvitationSchema = z.object({
  at: z.string().meta({ description: 'When the invitation was sent (ISO 8601, UTC).' }),
  by: experienceActorSchema,
})
export type ExperienceInvitation = z.infer<typeof experienceInvitationSchema>

/** What applies to the signed-in caller; null for anonymous callers. */
export const experienceViewerSchema = z.object({
  is_attending: z.boolean(),
  is_host: z.boolean(),
  can_manage: z.boolean().meta({ description: 'May edit, cancel, add attendees and see the whole notify list (the host or an admin).' }),
  waitlist_position: z.number().int().min(1).nullable().meta({ description: 'The place on the notify list, from 1; null when not on it.' }),
  can_join_waitlist: z.boolean().meta({
    description: 'The notify list is offered: the activity is full, open and upcoming, and the caller neither hosts it, holds a seat nor is on the list.',
  }),
  invitation: experienceInvitationSchema.nullable().meta({
    description:
      'An invitation to this activity the caller may still accept or decline (`POST …/invitations/accept`, `…/decline`); null when there is none, it was answered, the caller hosts or attends it, or the activity has started or been canceled.',
  }),
  cancel_is_late: z.boolean().meta({
    description:
      'Canceling a seat now would be late: the activity starts within 12 hours (spec §4), so the host is told and the web warns first. False for an undated activity.',
  }),
  fee_bound: z.boolean().meta({ description: 'The caller’s seat is bound by the no-show fee: they agreed to it when they saved the seat.' }),
  premium_required: z.boolean().meta({
    description: 'The activity is premium and the caller has no premium membership: saving a seat or joining its notify list is refused (403 premium_required).',
  }),
  fee_card: z
    .object({ brand: z.string(), last4: z.string() })
    .nullable()
    .meta({ description: 'When the activity has a fee: the caller’s default card the fee would be charged to (null: none usable, add one first).' }),
})
export type ExperienceViewer = z.infer<typeof experienceViewerSchema>

/** Who cancelled an activity: its host (named), or the Circle 55 team (an admin, never named). */
export const experienceCancellationSchema = z.object({
  at: z.string().meta({ description: 'When it was canceled (ISO 8601, UTC).' }),
  by: experienceActorSchema,
})
export type ExperienceCancellation = z.infer<typeof experienceCancellationSchema>

export const experienceSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    description: z.string(),
    cover_photo: z.object({ url: z.string(), thumbnail_url: nullableString }).nullable(),
    max_attendees: z.number().int().nullable().meta({ description: 'Capacity; null or 0 means no limit.' }),
    attendees_count: z.number().int(),
    is_full: z.boolean(),
    start_date: nullableString.meta({ description: 'The start (ISO 8601, UTC); null for "Coming soon".' }),
    end_date: nullableString,
    timezone: z.string(),
    venue_type: z.enum(venueTypes),
    location: z
      .object({
        latitude: z.number().nullable(),
        longitude: z.number().nullable(),
        formattedAddress: nullableString.meta({ description: 'Signed-in callers only (null otherwise).' }),
        placeId: nullableString,
        city: nullableString,
        region: nullableString,
      })
      .nullable()
      .meta({ description: 'Null for online activities. Anonymous callers get coordinates rounded to 2 decimals.' }),
    url: nullableString.meta({ description: 'The online activity’s link; signed-in callers only.' }),
    ticket_url: nullableString,
    no_show_fee: nullableString.meta({ description: 'Dollars and cents ("5.00"); null when none.' }),
    is_hostless: z.boolean(),
    is_premium: z.boolean(),
    host: z
      .object({
        id: z.string(),
        display_name: nullableString,
        avatar,
        is_verified: z.boolean().meta({
          description: 'The host’s identity check was approved (the "Verified" badge); false for a deleted, suspended or banned host.',
        }),
      })
      .nullable(),
    canceled_at: nullableString,
    canceled: experienceCancellationSchema.nullable().meta({ description: 'When and by whom the activity was canceled; null while it is on.' }),
    is_past: z.boolean(),
    distance_miles: z.number().nullable(),
    viewer: experienceViewerSchema.nullable(),
  })
  .meta({ id: 'Experience' })
export type Experience = z.infer<typeof experienceSchema>

/** One attendee of an activity (`GET …/attendees`). */
export const attendeeSchema = z
  .object({
    id: z.string(),
    display_name: nullableString,
    avatar,
    is_host: z.boolean(),
    is_verified: z.boolean().meta({
      description:
        'The member’s identity check was approved (the "Verified" badge); false for a member shown under the generic member label (deleted, suspended or banned).',
    }),
  })
  .meta({ id: 'Attendee' })
export type Attendee = z.infer<typeof attendeeSchema>

/** One entry of the notify list (`GET …/waitlist`). */
export const waitlistEntrySchema = z
  .object({ user_id: z.string(), position: z.number().int().min(1), display_name: nullableString, joined_at: z.string() })
  .meta({ id: 'WaitlistEntry' })
export type WaitlistEntry = z.infer<typeof waitlistEntrySchema>

/**
 * The outcome of inviting members by email (decision 019): nobody is seated by it; each member
 * found gets an invitation to accept. The answer never tells an address that belongs to a member
 * from one that does not (issue 29 §5, decision 066): every address typed is in
 * `invited_if_member`, or in `full` when the activity has no seat (then nobody is invited).
 */
export const addByEmailsResultSchema = z.object({
  invited_if_member: z.array(z.string()).meta({
    description:
      'Every address given, once: an invitation went to it (now, or earlier: not sent again) if it belongs to a member others may see who does not hold a seat yet. Whether it does is not said.',
  }),
  full: z.array(z.string()).meta({ description: 'Not invited: the activity is full (then every address is here).' }),
})
export type AddByEmailsResult = z.infer<typeof addByEmailsResultSchema>

/** `DELETE …/attendees/{userId}`: the activity as it is now, and whether the cancellation was late. */
export const cancelAttendanceResponseSchema = z.object({
  data: z.tuple([experienceSchema]),
  metadata: z.object({ late_cancellation: z.boolean() }),
})

// Requests --------------------------------------------------------------------------------------

/** A string that is not member text (links, ids): a control character makes it invalid. */
const plainString = (code: string) =>
  z
    .string({ error: code })
    .trim()
    .refine((value) => !hasControlCharacters(value), code)
const urlField = plainString('url_invalid').max(maxUrlLength, 'url_invalid')

/**
 * `POST` and `PUT v1/experiences`: create, or change the fields sent. Unknown fields are dropped.
 * A title of only invisible characters becomes '' and is refused as missing (title_required).
 * The rules that need the stored activity or the places search (a place that exists, a start in
 * the future, capacity not below the attendees, the fee's amount) are the API service's.
 */
export const experienceInputSchema = z
  .object({
    title: memberText(z.string({ error: 'title_required' }).trim(), memberTextCodes).max(maxTitleLength, 'title_too_long').optional(),
    description: memberText(z.string({ error: 'description_invalid' }).trim(), memberTextCodes, { multiline: true })
      .max(maxDescriptionLength, 'description_too_long')
      .nullable()
      .optional(),
    start_date: z
      .string({ error: 'start_date_required' })
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'start_date_required')
      // 2027-02-30 is no day at all: Date.parse would read it as 2 March.
      .refine(isCalendarDate, 'start_date_invalid')
      .optional()
      .meta({ description: 'The local date in the activity’s time zone (YYYY-MM-DD).' }),
    start_time: z
      .string({ error: 'start_time_required' })
      .trim()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'start_time_required')
      .optional()
      .meta({ description: 'The local time (HH:MM, 24-hour), in 5-minute steps.' }),
    duration_minutes: z
      .number({ error: 'duration_invalid' })
      .int('duration_invalid')
      .min(minDurationMinutes, 'duration_invalid')
      .max(maxDurationMinutes, 'duration_invalid')
      .optional(),
    max_attendees: z
      .number({ error: 'capacity_positive' })
      .int('capacity_positive')
      .positive('capacity_positive')
      .max(maxCapacity, 'capacity_too_large')
      .nullable()
      .optional()
      .meta({ description: 'Capacity; null for no limit.' }),
    venue_type: z.enum(venueTypes, { error: 'venue_type_required' }).optional(),
    place_id: plainString('location_required').max(200, 'location_required').nullable().optional(),
    formatted_address: memberText(z.string({ error: 'address_invalid' }).trim(), memberTextCodes)
      .max(maxAddressLength, 'address_too_long')
      .nullable()
      .optional(),
    url: urlField.nullable().optional(),
    ticket_url: urlField.nullable().optional(),
    no_show_fee: z
      .union([z.string(), z.number()], { error: 'currency_invalid' })
      .nullable()
      .optional()
      .meta({ description: 'Dollars, numbers only ("5", "5.00"; at most 9999.99); null or "" for none (currency_invalid otherwise).' }),
    cover_photo: plainString('cover_photo_invalid').nullable().optional().meta({ description: 'The id of an uploaded `experience_cover` photo.' }),
    is_hostless: z.boolean({ error: 'boolean_invalid' }).optional().meta({ description: 'Admins only (admin_only otherwise).' }),
    is_premium: z.boolean({ error: 'boolean_invalid' }).optional().meta({ description: 'Admins only (admin_only otherwise).' }),
  })
export type ExperienceInput = z.infer<typeof experienceInputSchema>

const isoInstant = z.iso.datetime({ offset: true, error: 'date_invalid' })

/** `GET v1/experiences`: upcoming and past activities, filtered. */
export const experienceListQuerySchema = pageQuerySchema.extend({
  'start_date[gte]': isoInstant.optional(),
  'start_date[lte]': isoInstant.optional(),
  'start_date[not]': z.literal('null', { error: 'filter_invalid' }).optional().meta({ description: '`null` leaves out undated activities.' }),
  'distance[lte]': queryDecimal('distance_invalid', (miles) => miles.positive('distance_invalid').max(5000, 'distance_invalid'))
    .optional()
    .meta({ type: 'number', exclusiveMinimum: 0, maximum: 5000, description: 'Miles from the origin (`latitude`/`longitude`, or the caller’s place).' }),
  latitude: queryDecimal('latitude_invalid', (degrees) => degrees.min(-90, 'latitude_invalid').max(90, 'latitude_invalid'))
    .optional()
    .meta({ type: 'number', minimum: -90, maximum: 90 }),
  longitude: queryDecimal('longitude_invalid', (degrees) => degrees.min(-180, 'longitude_invalid').max(180, 'longitude_invalid'))
    .optional()
    .meta({ type: 'number', minimum: -180, maximum: 180 }),
  venue_type: z.enum(venueTypes, { error: 'venue_type_invalid' }).optional(),
})
export type ExperienceListQuery = z.infer<typeof experienceListQuerySchema>

/** `GET v1/experiences/{idOrSlug}`: JSON, or an iCalendar file. */
export const experienceDetailQuerySchema = z.object({ format: z.enum(['json', 'ical'], { error: 'format_invalid' }).optional() })

/** `GET v1/users/{id}/experiences`: a member's activities. */
export const userExperiencesQuerySchema = pageQuerySchema.extend({
  type: z.enum(['upcoming', 'past'], { error: 'type_invalid' }).default('upcoming'),
  hosting: z.enum(['true', 'false'], { error: 'hosting_invalid' }).optional().meta({ description: '`true`: only those the member hosts.' }),
  in_common: z
    .enum(['true', 'false'], { error: 'in_common_invalid' })
    .optional()
    .meta({ description: '`true`: the activities the caller and this member both attend or host, past and upcoming (`type` and `hosting` are ignored).' }),
})
export type UserExperiencesQuery = z.infer<typeof userExperiencesQuerySchema>

/** `GET …/attendees`: a page of attendees, or (`format=csv`, host or admin) the CSV file. */
export const attendeesQuerySchema = pageQuerySchema.extend({
  format: z.enum(['json', 'csv'], { error: 'format_invalid' }).optional(),
})

/** `GET …/waitlist`. */
export const waitlistQuerySchema = pageQuerySchema

/** `POST …/attendees`: who takes the seat (the caller; admins may seat anyone). */
export const attendBodySchema = z.object({ user_id: z.uuid({ error: 'user_id_invalid' }), ...feeConsentFields })

/** `POST …/attendees/create-by-emails`. */
export const addByEmailsBodySchema = z.object({
  emails: z
    .array(plainString('email_invalid').toLowerCase().max(maxEmailLength, 'email_invalid'), { error: 'emails_required' })
    .min(1, 'emails_required')
    .max(maxEmailsPerAdd, 'too_many_emails'),
})
