/**
 * Spec §2's outside links (decision 088): the blog, the help center, the hosts program page, the
 * marketing site, the verified badge's explanation and the app store. Each comes from one
 * configuration variable (`api/env.ts`); the web shows a link only when it has an address.
 *
 * Shared by the configuration (its defaults and rule) and the web (the type it draws from).
 */
export const outsideLinkNames = ['blog', 'helpCenter', 'hostsProgram', 'marketingSite', 'badgeInfo', 'appStore'] as const
export type OutsideLinkName = (typeof outsideLinkNames)[number]

/** Each link's address, or null when it is not shown anywhere. */
export type OutsideLinks = Readonly<Record<OutsideLinkName, string | null>>

/** The variable each link is read from. */
export const outsideLinkVariables = {
  blog: 'BLOG_URL',
  helpCenter: 'HELP_CENTER_URL',
  hostsProgram: 'HOSTS_PROGRAM_URL',
  marketingSite: 'MARKETING_SITE_URL',
  badgeInfo: 'BADGE_INFO_URL',
  appStore: 'APP_STORE_URL',
} as const satisfies Record<OutsideLinkName, string>

/**
 * When a variable is unset: the help center, the hosts program and the badge's explanation are
 * pages of Circle 55 itself (its help center and two of its articles); there is no blog,
 * marketing site or native app of its own to point to, so those are not shown until configured.
 */
export const defaultOutsideLinks: OutsideLinks = {
  blog: null,
  helpCenter: '/help',
  hostsProgram: '/help/hosting-an-activity',
  marketingSite: null,
  badgeInfo: '/help/safety-and-scams#verified-badge',
  appStore: null,
}

/**
 * An address a link may have: an http(s) URL, or a path of this site (`/…`, never `//…` or
 * `/\…`, which browsers read as another host). Nothing else (`javascript:`, `data:`, relative).
 */
export function isOutsideLinkTarget(value: string): boolean {
  if (/\s/.test(value)) return false
  if (value.startsWith('/')) return !/^\/[/\\]/.test(value) && !/%2f|%5c/i.test(value.slice(0, 4))
  try {
    const url = new URL(value)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== ''
  } catch {
    return false
  }
}

/** Whether the link leads to another site (a plain `<a>`) or to a page of this one (a client-side link). */
export function isExternalLink(target: string) {
  return !target.startsWith('/')
}
