/**
 * The display-name rule of spec §3, the only implementation (the API's `display_name`, the web's
 * `useDisplayName`). Returns null when the member must show as the generic member label
 * (suspended — by flag or by state — or banned); callers translate that label.
 */
export interface NamedUser {
  first_name: string | null
  last_name: string | null
  formatted_name?: string | null
  name?: string | null
  banned?: boolean
  is_suspended?: boolean
  state?: string
}

/** Suspended (by flag or by state) or banned: shown as the generic member label; the API refuses their token. */
export function isSuspendedMember(user: Pick<NamedUser, 'banned' | 'is_suspended' | 'state'>) {
  return Boolean(user.banned || user.is_suspended || user.state === 'suspended')
}

export function displayName(user: NamedUser): string | null {
  if (isSuspendedMember(user)) return null
  const first = user.first_name?.trim()
  const last = user.last_name?.trim()
  if (first && last) return last.length <= 2 ? `${first} ${last}` : `${first} ${last[0]}.`
  return user.formatted_name?.trim() || first || user.name?.trim() || null
}

/**
 * The name a greeting uses ("Hello, Walter"): the first name, else the display name; null for
 * the generic member label.
 */
export function greetingName(user: NamedUser): string | null {
  if (isSuspendedMember(user)) return null
  return user.first_name?.trim() || displayName(user)
}
