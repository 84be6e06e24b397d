import { z } from 'zod'
import { hasControlCharacters } from './input-validation.ts'
import { latitude, longitude } from './places.ts'

/**
 * Banners by location (spec §3 "Banners: fetched by latitude and longitude", §4 "viewed banners can
 * be dismissed and remembered, optionally with expiry", §7 `GET v1/cms/banners`; issue 32 §4;
 * decision 084). Admins write a banner in the three languages, for an area (a circle around a
 * place, some US states, or everywhere), an audience and a period; members see at most one at a
 * time and may put it away, until it changes or, when the banner says so, for some days.
 */

export const bannerAudiences = ['everyone', 'members', 'premium'] as const
export type BannerAudience = (typeof bannerAudiences)[number]

export const maxBannerTitleLength = 80
export const maxBannerBodyLength = 300
export const maxBannerRadiusMiles = 500
export const maxBannerDays = 365
export const maxBannerLinkLength = 500

/** A banner's words in each language. */
const wordsSchema = z.object({ en: z.string(), fr: z.string(), nl: z.string() })

/** A banner as a member or visitor gets it (`GET v1/cms/banners`). */
export const bannerSchema = z
  .object({
    id: z.uuid(),
    title: wordsSchema,
    body: wordsSchema,
    link_url: z.string().nullable().meta({ description: 'An https address or a path on Circle 55.' }),
    content_hash: z.string().meta({ description: 'Changes when the words or the link do: a banner put away comes back then.' }),
    dismiss_days: z.number().int().nullable().meta({ description: 'How many days a dismissal holds; null: until the banner changes.' }),
  })
  .meta({ id: 'Banner' })
export type Banner = z.infer<typeof bannerSchema>

/** `GET v1/cms/banners`: both are required (spec §7: the call runs only when both are present). */
export const bannerQuerySchema = z.object({ latitude, longitude })

/** Where a banner shows. */
export const bannerAreaSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('everywhere') }),
    z.object({
      kind: z.literal('circle'),
      latitude: z.number({ error: 'area_invalid' }).min(-90, 'area_invalid').max(90, 'area_invalid'),
      longitude: z.number({ error: 'area_invalid' }).min(-180, 'area_invalid').max(180, 'area_invalid'),
      radius_miles: z.number({ error: 'radius_invalid' }).int('radius_invalid').min(1, 'radius_invalid').max(maxBannerRadiusMiles, 'radius_invalid'),
    }),
    z.object({
      kind: z.literal('states'),
      states: z.array(z.string().regex(/^[A-Z]{2}$/, 'states_invalid'), { error: 'states_invalid' }).min(1, 'states_required').max(60, 'states_invalid'),
    }),
  ],
  { error: 'area_invalid' },
)
export type BannerArea = z.infer<typeof bannerAreaSchema>

const words = (max: number, required: string, tooLong: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, tooLong)
    // No control characters and no markup: banners are plain words.
    .refine((value) => !hasControlCharacters(value) && !/[<>]/.test(value), 'text_invalid')
const titles = z.object({
  en: words(maxBannerTitleLength, 'title_required', 'title_too_long'),
  fr: words(maxBannerTitleLength, 'title_required', 'title_too_long'),
  nl: words(maxBannerTitleLength, 'title_required', 'title_too_long'),
})
const bodies = z.object({
  en: words(maxBannerBodyLength, 'body_required', 'body_too_long'),
  fr: words(maxBannerBodyLength, 'body_required', 'body_too_long'),
  nl: words(maxBannerBodyLength, 'body_required', 'body_too_long'),
})

/** An https address, or a path on Circle 55 (`/activities`), never `//elsewhere` or `javascript:`. */
export function isBannerLink(value: string) {
  if (/^\/(?![/\\])/.test(value)) return !/\s/.test(value) && !hasControlCharacters(value)
  try {
    const url = new URL(value)
    return url.protocol === 'https:' && url.hostname.includes('.') && !url.username && !url.password
  } catch {
    return false
  }
}

const instant = (code: string) =>
  z
    .string({ error: code })
    .refine((value) => !Number.isNaN(Date.parse(value)) && /^\d{4}-\d{2}-\d{2}T/.test(value), code)

/** `POST v1/admin/banners` and `PUT v1/admin/banners/{id}`: a banner as admins write it. */
export const bannerInputSchema = z
  .object({
    title: titles,
    body: bodies,
    link_url: z.string().trim().max(maxBannerLinkLength, 'link_invalid').refine(isBannerLink, 'link_invalid').nullable().default(null),
    starts_at: instant('starts_at_invalid').optional().meta({ description: 'ISO 8601; now when left out.' }),
    ends_at: instant('ends_at_invalid').meta({ description: 'ISO 8601, after the start and within a year of it.' }),
    area: bannerAreaSchema,
    audience: z.enum(bannerAudiences, { error: 'audience_invalid' }).default('everyone'),
    dismiss_days: z.number({ error: 'dismiss_days_invalid' }).int('dismiss_days_invalid').min(1, 'dismiss_days_invalid').max(maxBannerDays, 'dismiss_days_invalid').nullable().default(null),
  })
  .superRefine((banner, context) => {
    const start = banner.starts_at ? Date.parse(banner.starts_at) : Date.now()
    const end = Date.parse(banner.ends_at)
    if (end <= start) context.addIssue({ code: 'custom', path: ['ends_at'], message: 'ends_before_start' })
    else if (end - start > maxBannerDays * 24 * 60 * 60 * 1000) context.addIssue({ code: 'custom', path: ['ends_at'], message: 'ends_too_late' })
  })
  .meta({ id: 'BannerInput' })
export type BannerInput = z.input<typeof bannerInputSchema>
/** A banner as the API reads it (defaults applied). */
export type BannerChange = z.output<typeof bannerInputSchema>

/** A banner as admins see it (`GET v1/admin/banners`). */
export const adminBannerSchema = bannerSchema
  .extend({
    starts_at: z.string(),
    ends_at: z.string().nullable(),
    area: bannerAreaSchema,
    audience: z.enum(bannerAudiences),
    state: z.enum(['scheduled', 'showing', 'ended']),
    dismissals: z.number().int().meta({ description: 'How many members have put it away (this version).' }),
    created_at: z.string(),
  })
  .meta({ id: 'AdminBanner' })
export type AdminBanner = z.infer<typeof adminBannerSchema>
