import { z } from 'zod'
import { bannerSchema } from './banners.ts'

/**
 * Popups (spec §3 "Popup", §7 `v1/users/me/popups`, §9 "popups query stale after 5 minutes, cache
 * 10 minutes"; issue 32 §4; decision 084): one mechanism with types. Each type says what is open
 * for the member and how it is put away:
 * - `EXPERIENCE_ATTENDANCE`: "Did you go to …?" after an activity the member attended (decision 046);
 * - `BANNER`: a banner shown where the member lives, until they put it away (or it changes).
 */

/** How long a client may keep the list (spec §9): fresh for 5 minutes, usable for 10. */
export const popupsFreshSeconds = 5 * 60
export const popupsKeptSeconds = 10 * 60

export const attendancePopupSchema = z.object({
  type: z.literal('EXPERIENCE_ATTENDANCE'),
  experience_id: z.uuid(),
  experience: z.object({
    title: z.string(),
    start_date: z.string().nullable().meta({ description: 'ISO 8601' }),
    timezone: z.string(),
  }),
})
export type AttendancePopup = z.infer<typeof attendancePopupSchema>

export const bannerPopupSchema = z.object({ type: z.literal('BANNER'), banner_id: z.uuid(), banner: bannerSchema })
export type BannerPopup = z.infer<typeof bannerPopupSchema>

/** One open popup. */
export const popupSchema = z.discriminatedUnion('type', [attendancePopupSchema, bannerPopupSchema]).meta({ id: 'Popup' })
export type Popup = z.infer<typeof popupSchema>

export const popupListSchema = z.object({ data: z.array(popupSchema) }).meta({ id: 'PopupList' })
export type PopupList = z.infer<typeof popupListSchema>

/** `PUT v1/users/me/popups`: puts one popup away ("not now"). */
export const dismissPopupSchema = z
  .discriminatedUnion(
    'type',
    [
      z.object({ type: z.literal('EXPERIENCE_ATTENDANCE'), experience_id: z.uuid({ error: 'experience_id_invalid' }) }),
      z.object({ type: z.literal('BANNER'), banner_id: z.uuid({ error: 'banner_id_invalid' }) }),
    ],
    { error: 'type_invalid' },
  )
  .meta({ id: 'DismissPopup' })
export type DismissPopupInput = z.infer<typeof dismissPopupSchema>
