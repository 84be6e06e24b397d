/**
 * The privacy walk of decision 027: keys no answer about another member may hold. Activity
 * coordinates are fine (under `location`).
 */
const privateKeys = new Set(['email', 'phone', 'formatted_phone', 'phone_confirmed', 'dob', 'age', 'lat', 'long', 'auth_subject', 'stream_token'])
const coordinateKeys = new Set(['latitude', 'longitude'])

/** The paths of every private key in `value` (`$.data[0].host.lat`). */
export function privateKeysIn(value: unknown, path = '$', parentKey = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => privateKeysIn(item, `${path}[${index}]`, parentKey))
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, child]) => {
    const here = `${path}.${key}`
    const found = privateKeys.has(key) || (coordinateKeys.has(key) && parentKey !== 'location') ? [here] : []
    return [...found, ...privateKeysIn(child, here, key)]
  })
}
