import type { AppLoadContext } from '@remix-run/node'
import { z } from 'zod'
import type { Banner } from '#contract/banners.ts'
import type { Popup } from '#contract/popups.ts'
import type { User } from '#contract/users.ts'
import { getApi } from './auth.server.ts'
import { siteCookie } from './cookies.server.ts'
import { isFlagOn } from './flags.server.ts'
import { ignoreUnlessUnavailable } from './http.server.ts'

/**
 * Which one thing a page shows on top (issue 32 §4, decision 084): the member's first popup
 * ("Did you go?" before a banner where they live), else a banner showing at the page's place. A
 * visitor's dismissals live in a cookie of this site (a functional one: it only hides what they
 * put away), each until the banner changes or its days run out (spec §4 "optionally with expiry").
 * The `banners` feature flag turns banners off (the survey's question stays).
 */

const YEAR_SECONDS = 365 * 24 * 60 * 60
/** At most this many dismissals are kept: the oldest go first. */
const MAX_REMEMBERED = 20

/** `[banner id, content hash, until (epoch seconds; 0: until it changes)]`. */
const dismissalsSchema = z.array(z.tuple([z.string().max(40), z.string().max(40), z.number().int().min(0)])).max(MAX_REMEMBERED)
type Dismissals = z.infer<typeof dismissalsSchema>

const bannersCookie = (context: AppLoadContext) => siteCookie(context, 'banners', YEAR_SECONDS)

async function visitorDismissals(request: Request, context: AppLoadContext, now: Date): Promise<Dismissals> {
  const parsed = dismissalsSchema.safeParse(await bannersCookie(context).parse(request.headers.get('Cookie')))
  const seconds = Math.floor(now.getTime() / 1000)
  return parsed.success ? parsed.data.filter(([, , until]) => until === 0 || until > seconds) : []
}

/** The `Set-Cookie` that remembers a visitor put `banner` away. */
export async function rememberDismissal(request: Request, context: AppLoadContext, banner: { id: string; content_hash: string; dismiss_days: number | null }, now = new Date()) {
  const until = banner.dismiss_days === null ? 0 : Math.floor(now.getTime() / 1000) + banner.dismiss_days * 24 * 60 * 60
  const kept = (await visitorDismissals(request, context, now)).filter(([id]) => id !== banner.id)
  const next: Dismissals = [...kept, [banner.id, banner.content_hash, until] as Dismissals[number]].slice(-MAX_REMEMBERED)
  return bannersCookie(context).serialize(next)
}

export type TopNotice = { kind: 'survey'; popup: Extract<Popup, { type: 'EXPERIENCE_ATTENDANCE' }> } | { kind: 'banner'; banner: Banner }

/**
 * The one notice of the page: `popups` (the member's, already read) first, else the first banner
 * showing at `place` that the caller has not put away. Null when there is none or the API is away.
 */
export async function topNotice(
  request: Request,
  context: AppLoadContext,
  user: User | null,
  popups: Popup[] | null,
  place: { latitude: number; longitude: number } | null,
  now = new Date(),
): Promise<TopNotice | null> {
  const first = popups?.[0]
  if (first?.type === 'EXPERIENCE_ATTENDANCE') return { kind: 'survey', popup: first }
  // The `banners` flag off: no banner at all (decision 084).
  if (!(await isFlagOn(request, context, 'banners', true))) return null
  if (first?.type === 'BANNER') return { kind: 'banner', banner: first.banner }
  // The member's popups already hold the banners where they live.
  const saved = user?.lat != null && user.long != null && popups !== null
  if (!place || saved) return null
  const banners = await getApi(request, context).popups.bannersAt(place).catch(ignoreUnlessUnavailable)
  if (!banners) return null
  const dismissed = user ? [] : await visitorDismissals(request, context, now)
  const shown = banners.find((banner) => !dismissed.some(([id, hash]) => id === banner.id && hash === banner.content_hash))
  return shown ? { kind: 'banner', banner: shown } : null
}
