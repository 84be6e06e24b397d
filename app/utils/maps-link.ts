/**
 * "Open in maps" (issue 15 §5): the platform's own maps. Android opens a `geo:` link in the maps
 * app the member chose; iPhones, iPads and Macs open Apple Maps; everything else (and any device
 * we cannot tell) gets Google Maps' web directions, which work in every browser. Decided on the
 * server from the User-Agent, so it works without JavaScript (decision 045).
 */
export type MapsPlatform = 'android' | 'apple' | 'web'

export function mapsPlatform(userAgent: string | null | undefined): MapsPlatform {
  if (!userAgent) return 'web'
  if (/\bAndroid\b/i.test(userAgent)) return 'android'
  // iPadOS presents itself as a Mac ("Macintosh"), so Macs and iPads are told apart by nothing here.
  if (/\b(iPhone|iPad|iPod|Macintosh)\b/.test(userAgent)) return 'apple'
  return 'web'
}

export interface MapsPlace {
  address: string
  latitude?: number | null
  longitude?: number | null
}

export function mapsLink(platform: MapsPlatform, place: MapsPlace): string {
  const query = encodeURIComponent(place.address)
  const hasPoint = typeof place.latitude === 'number' && typeof place.longitude === 'number'
  const point = hasPoint ? `${place.latitude},${place.longitude}` : null
  switch (platform) {
    case 'android':
      // RFC 5870 and Android's intent: the point, and the address as the label it searches for.
      return `geo:${point ?? '0,0'}?q=${query}`
    case 'apple':
      return `https://maps.apple.com/?q=${query}${point ? `&ll=${point}` : ''}`
    case 'web':
      return `https://www.google.com/maps/dir/?api=1&destination=${query}`
  }
}
