/**
 * Where an in-person activity is, in one line (issue 12 §6), for the activity page, its
 * directions link and the emails that say where: the address as typed, followed by
 * "City, Region" unless one of its comma-separated parts already starts with the city
 * ("…, Portland, OR 97205"; "120 Portland Ave" still gets it), so a maps search never lands in
 * another town's Main St. Plain functions, safe in browser bundles.
 */
export function addressWithCity(address: string, city: string | null, region: string | null) {
  const cityLine = [city, region].filter(Boolean).join(', ')
  if (!city || !cityLine) return address
  const plain = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('en-US').trim()
  const named = address.split(',').slice(1).some((part) => plain(part).startsWith(plain(city)))
  return named ? address : `${address.replace(/[\s,]+$/, '')}, ${cityLine}`
}

/**
 * "City, Region" once (issue 29 §4: never "Portland, OR, OR"): a member's home city is stored as
 * the place's label, which already ends with its region, while activities and the demo data store
 * the city alone; either reads the same.
 */
export function cityWithRegion(city: string | null | undefined, region: string | null | undefined) {
  const name = city?.trim() ?? ''
  const state = region?.trim() ?? ''
  if (!name) return state
  if (!state) return name
  const parts = name.split(',').map((part) => part.trim().toLocaleUpperCase('en-US'))
  return parts.length > 1 && parts.at(-1) === state.toLocaleUpperCase('en-US') ? name : `${name}, ${state}`
}
