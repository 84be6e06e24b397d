import { useRouteLoaderData } from '@remix-run/react'
import { displayName } from '#contract/display-name.ts'
import type { User } from '#contract/users.ts'
import type { loader as rootLoader } from '#app/root.tsx'

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
}

export function shellMember(user: User): ShellMember {
  return { id: user.id, displayName: displayName(user), avatarUrl: user.avatar?.url ?? null }
}

/** The signed-in member from the root loader (STYLE: useOptionalUser / useUser). */
export function useOptionalUser() {
  return useRouteLoaderData<typeof rootLoader>('root')?.user ?? null
}

export function useUser() {
  const user = useOptionalUser()
  if (!user) throw new Error('useUser needs a signed-in member; use useOptionalUser on public pages.')
  return user
}
