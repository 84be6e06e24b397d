import { useRouteLoaderData } from '@remix-run/react'
import type { loader as rootLoader } from '#app/root.tsx'

/** The signed-in member from the root loader (STYLE: useOptionalUser / useUser). */
export function useOptionalUser() {
  return useRouteLoaderData<typeof rootLoader>('root')?.user ?? null
}

export function useUser() {
  const user = useOptionalUser()
  if (!user) throw new Error('useUser needs a signed-in member; use useOptionalUser on public pages.')
  return user
}
