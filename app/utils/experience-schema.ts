import { z } from 'zod'

/**
 * The experience JSON of the API (docs/api/experiences.md), parsed by loaders. Kept apart from
 * the display helpers in experience.ts so that zod stays out of the browser bundles.
 */
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
