import { useRootData } from './root-data.ts'

/** The signed-in member from the root loader (STYLE: useOptionalUser / useUser). */
export function useOptionalUser() {
  return useRootData()?.user ?? null
}

export function useUser() {
  const user = useOptionalUser()
  if (!user) throw new Error('useUser needs a signed-in member; use useOptionalUser on public pages.')
  return user
}
