import { describe, expect, it } from 'vitest'
import { createIpLocator } from './ip-location.ts'

describe('IP locator (DB-IP Lite, offline)', () => {
  const locator = createIpLocator()

  it('places a US address near its city', async () => {
    // 8.8.8.8 is registered in Mountain View, California.
    const point = await locator.locate('8.8.8.8')
    expect(point).not.toBeNull()
    expect(point!.lat).toBeCloseTo(37.4, 0)
    expect(point!.lng).toBeCloseTo(-122.1, 0)
  })

  it('understands IPv4-mapped IPv6 addresses as Express reports them', async () => {
    expect(await locator.locate('::ffff:8.8.8.8')).toEqual(await locator.locate('8.8.8.8'))
  })

  it('answers null for private, loopback, non-US and malformed addresses', async () => {
    for (const address of ['10.1.2.3', '192.168.0.10', '127.0.0.1', '::1', '', 'not-an-ip']) {
      expect(await locator.locate(address), address).toBeNull()
    }
    // 1.1.1.1 is Cloudflare's resolver, registered in Australia.
    expect(await locator.locate('1.1.1.1')).toBeNull()
  })

  it('does not open the database for addresses it can answer without it', async () => {
    const missing = createIpLocator({ directory: '/nonexistent' })
    expect(await missing.locate('10.0.0.1')).toBeNull()
    await expect(missing.locate('8.8.8.8')).rejects.toThrow()
  })
})
