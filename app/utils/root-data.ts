import { useRouteLoaderData } from '@remix-run/react'
import type { ImpersonationView } from '#contract/staff.ts'
import type { OutsideLinks } from '#contract/outside-links.ts'
import { displayName } from '#contract/display-name.ts'
import type { Language } from '#contract/enums.ts'
import type { User } from '#contract/users.ts'
import type { Toast } from './toast.server.ts'
import type { AnalyticsShell } from './analytics.server.ts'

/**
 * What the root loader (app/root.tsx) gives every page, typed here so that the header, the error
 * boundary and the hooks root.tsx renders read it without importing root.tsx (decision 067). The
 * loader's data `satisfies` this type, so the two cannot drift.
 */
export interface RootData {
  brand: string
  /** The localized "Error: " when the page shows a form's errors (the title starts with it). */
  titlePrefix: string
  language: Language
  user: ShellMember | null
  /** The header's and the bottom navigation's badges, read with the member (decision 052). */
  unread: number
  notifications: number
  suspended: boolean
  toast: Toast | null
  year: number
  /** Browser errors go to Sentry only when the server reports to it (decision 014). */
  sentryDsn: string | null
  /** PAYMENTS (decision 073): off, no page offers or threatens a charge (no fee, no paid plan). */
  payments: boolean
  /** A staff member is viewing Circle 55 as this member (decision 078): the banner on every page. */
  impersonation: ImpersonationView | null
  /** Analytics consent (decision 081): whether to ask, the answer, GPC, and Segment's browser key when it may load. */
  analytics: AnalyticsShell
  /** Spec §2's outside links from configuration (decision 088): null ones are not shown. */
  links: OutsideLinks
}

/** The root loader's data; undefined when it failed (the error page). */
export function useRootData() {
  return useRouteLoaderData<RootData>('root')
}

/**
 * What every page's shell shows of the signed-in member (decision 053): their name by spec §3's
 * rule (null: the generic member label) and their photo. Only this goes into every page's HTML
 * and page data; the member's contact details, birth date and profile are read by the pages that
 * show them.
 */
export interface ShellMember {
  id: string
  displayName: string | null
  avatarUrl: string | null
  /** On the Circle 55 team (any role, decision 077): the header links to `/admin`. */
  staff: boolean
}

export function shellMember(user: User): ShellMember {
  return { id: user.id, displayName: displayName(user), avatarUrl: user.avatar?.url ?? null, staff: user.staff_role !== null }
}
