import { describe, expect, it } from 'vitest'
import { mapsLink, mapsPlatform } from './maps-link.ts'

const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36'
const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const ipad = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15'
const windows = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36'
const place = { address: 'Central Library, 801 SW 10th Ave, Portland, OR', latitude: 45.519, longitude: -122.683 }

describe('Open in maps', () => {
  it('opens the maps app the member chose on Android with a geo: link', () => {
    expect(mapsPlatform(android)).toBe('android')
    expect(mapsLink('android', place)).toBe('geo:45.519,-122.683?q=Central%20Library%2C%20801%20SW%2010th%20Ave%2C%20Portland%2C%20OR')
  })

  it('opens Apple Maps on iPhones and iPads (which present themselves as Macs)', () => {
    expect(mapsPlatform(iphone)).toBe('apple')
    expect(mapsPlatform(ipad)).toBe('apple')
    expect(mapsLink('apple', place)).toBe('https://maps.apple.com/?q=Central%20Library%2C%20801%20SW%2010th%20Ave%2C%20Portland%2C%20OR&ll=45.519,-122.683')
  })

  it('gives other browsers, and browsers that say nothing, web directions', () => {
    expect(mapsPlatform(windows)).toBe('web')
    expect(mapsPlatform(null)).toBe('web')
    expect(mapsPlatform('')).toBe('web')
    expect(mapsLink('web', place)).toBe('https://www.google.com/maps/dir/?api=1&destination=Central%20Library%2C%20801%20SW%2010th%20Ave%2C%20Portland%2C%20OR')
  })

  it('searches by the address alone when the place has no coordinates', () => {
    const bare = { address: '120 Main St, Portland, OR', latitude: null, longitude: null }
    expect(mapsLink('android', bare)).toBe('geo:0,0?q=120%20Main%20St%2C%20Portland%2C%20OR')
    expect(mapsLink('apple', bare)).toBe('https://maps.apple.com/?q=120%20Main%20St%2C%20Portland%2C%20OR')
  })
})
