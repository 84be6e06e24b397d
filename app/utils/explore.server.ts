import { createCookie, type AppLoadContext } from '@remix-run/node'
import { z } from 'zod'
import { cookieSecurity, getApi, getOptionalUser } from './auth.server.ts'
import { dateFilters, dateRange, dateWindow, distanceFilters, nextDateFilter } from './date-range.ts'
import { ignoreUnlessUnavailable, unavailableOnServerError } from './http.server.ts'
import { detectLanguage } from './i18next.server.ts'
import { queryInteger } from '#contract/input-validation.ts'
import type { Place } from '#contract/places.ts'

/** Explore's filters are remembered in a cookie so they work without JavaScript too. */
export const exploreCookie = createCookie('explore', { path: '/', sameSite: 'lax', httpOnly: true, maxAge: 180 * 24 * 60 * 60 })

const savedSchema = z.object({
  date: z.enum(dateFilters).optional(),
  distance: z.enum(distanceFilters).optional(),
  place: z.string().max(100).optional(),
})

export const defaultTimeZone = 'America/New_York'

const dateParam = z.enum(dateFilters).catch('any-day')
const distanceParam = z.enum(distanceFilters).catch('25')
/** Plain decimal digits only (`page=0x10` is not page 16); anything else is the first page. */
const pageParam = queryInteger('page_invalid', (page) => page.min(1).max(500)).catch(1)

export async function loadExplore(request: Request, context: AppLoadContext) {
  const url = new URL(request.url)
  const params = url.searchParams
  const filtered = ['date', 'distance', 'place', 'q'].some((key) => params.has(key))
  const saved = savedSchema.safeParse(await exploreCookie.parse(request.headers.get('Cookie')))
  const remembered = !filtered && saved.success ? saved.data : {}
  const date = dateParam.parse(params.get('date') ?? remembered.date)
  const distance = distanceParam.parse(params.get('distance') ?? remembered.distance)
  const page = pageParam.parse(params.get('page') ?? '1')
  const query = (params.get('q') ?? '').trim().slice(0, 100)
  const api = getApi(request, context)
  const user = await getOptionalUser(request, context)

  let place: Place | null = null
  let matches: Place[] = []
  let placeError: 'unknown_place' | null = null
  const placeId = params.get('place') ?? remembered.place
  if (query && !params.get('place')) {
    // Without JavaScript: search, take the best match, and offer the others to pick from.
    matches = await api.places.search(query, 6).catch(unavailableOnServerError)
    place = matches[0] ?? null
    if (!place) placeError = 'unknown_place'
  } else if (placeId) {
    place = await api.places.get(placeId).catch(ignoreUnlessUnavailable)
  }

  // "Use my current location" searched at once (issue 29 §4). When the browser could not tell
  // (or was refused), the city came from the internet address: said as a guess, as below, and
  // the refusal said first.
  const located = params.get('located')
  let guessed = Boolean(place && params.get('place') && (located === 'ip' || located === 'denied'))
  const locationDenied = guessed && located === 'denied'

  // Nothing chosen and no saved location: start from the city the visitor's connection is in.
  if (!place && !placeError && (user?.lat == null || user.long == null)) {
    place = await placeFromAddress(request, context)
    guessed = Boolean(place)
  }

  const origin = place
    ? { latitude: place.latitude, longitude: place.longitude }
    : user?.lat != null && user.long != null
      ? { latitude: user.lat, longitude: user.long }
      : null
  const timeZone = place?.timeZone ?? defaultTimeZone
  const now = new Date()
  const window = dateWindow(date, timeZone, now)
  // The days the filter covers, and the ones to offer when nothing is left in them (issue 29 §4).
  const range = dateRange(date, timeZone, now, await detectLanguage(request, context))
  const nextDate = nextDateFilter(date, timeZone, now)
  const experiences = await api.experiences
    .list({
      page,
      perPage: 12,
      from: window.gte.toISOString(),
      until: window.lte?.toISOString(),
      datedOnly: true,
      ...(origin ? { near: { ...origin, miles: Number(distance) } } : {}),
    })
    .catch(unavailableOnServerError)
  // A guessed city is not remembered as the member's choice.
  const cookie = await exploreCookie.serialize({ date, distance, place: guessed ? undefined : place?.id }, cookieSecurity(context))
  return {
    date,
    distance,
    page,
    query,
    place,
    guessed,
    locationDenied,
    matches: matches.slice(1),
    placeError,
    hasOrigin: Boolean(origin),
    range,
    nextDate,
    experiences,
    cookie,
  }
}

/**
 * The city the visitor last chose on Explore (the remembered filter), or null: none chosen, a
 * guess (never remembered), or a place that no longer exists.
 */
export async function exploreChoice(request: Request, context: AppLoadContext): Promise<Place | null> {
  const saved = savedSchema.safeParse(await exploreCookie.parse(request.headers.get('Cookie')))
  const placeId = saved.success ? saved.data.place : undefined
  if (!placeId) return null
  return getApi(request, context).places.get(placeId).catch(ignoreUnlessUnavailable)
}

/**
 * The US city nearest to where the request comes from (offline IP data, city level), or null:
 * unknown, private or non-US addresses, or any failure (a guess is never worth an error page),
 * except the API being unavailable, which the page's next call would wait for all over again.
 */
export async function placeFromAddress(request: Request, context: AppLoadContext): Promise<Place | null> {
  try {
    const point = await context.services.locate(context.clientAddress)
    if (!point) return null
    return await getApi(request, context).places.nearest({ latitude: point.lat, longitude: point.lng })
  } catch (error) {
    ignoreUnlessUnavailable(error)
    context.services.log('warn', 'Locating the visitor by address failed', { error: String(error) })
    return null
  }
}
