import { createHash } from 'node:crypto'
import { keptQueryParameters, type DeviceClass } from '#contract/analytics.ts'

/**
 * What a page view keeps of a request (decision 081): the path with only the `utm_*` campaign
 * parameters of its query (a search, a token or an email in a query string never reaches the
 * table), the referring site's domain (never its path), and a rough kind of device. The address
 * and the user agent are used for the day's visitor hash and dropped.
 */

const maxPathLength = 2000

/** `/experiences/42?utm_source=mail&token=x#top` → `/experiences/42?utm_source=mail`. */
export function strippedPath(url: string | URL): string {
  const parsed = typeof url === 'string' ? new URL(url, 'http://localhost') : url
  const kept = new URLSearchParams()
  for (const name of keptQueryParameters) {
    const value = parsed.searchParams.get(name)
    if (value) kept.set(name, value.slice(0, 100))
  }
  const query = kept.toString()
  return `${parsed.pathname}${query ? `?${query}` : ''}`.slice(0, maxPathLength)
}

/** Another site's domain from a Referer header; null for none, our own site, or nonsense. */
export function referrerDomain(referrer: string | null | undefined, ownHost: string): string | null {
  if (!referrer) return null
  try {
    const url = new URL(referrer)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
    const host = url.hostname.toLowerCase().replace(/^www\./, '')
    return host === ownHost.toLowerCase().replace(/^www\./, '') ? null : host.slice(0, 255)
  } catch {
    return null
  }
}

/** A rough kind of device from the user agent; null when there is none. */
export function deviceClass(userAgent: string | null | undefined): DeviceClass | null {
  if (!userAgent) return null
  if (/iPad|Tablet|PlayBook|Silk|Android(?!.*Mobile)/i.test(userAgent)) return 'tablet'
  if (/Mobi|iPhone|iPod|Android|Windows Phone/i.test(userAgent)) return 'mobile'
  return 'desktop'
}

/**
 * A visitor for one day: the hash of the day's random salt, the address and the user agent. The
 * salt is new each day and deleted after it, so the same browser hashes differently tomorrow
 * and no hash can be traced back to an address.
 */
export function visitorHash(salt: string, address: string, userAgent: string | null | undefined): string {
  return createHash('sha256').update(`${salt}\n${address}\n${userAgent ?? ''}`).digest('base64url').slice(0, 32)
}
