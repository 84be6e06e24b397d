import { useSyncExternalStore } from 'react'

const subscribe = () => () => {}

/**
 * False on the server and during hydration, true once JavaScript runs. Lets a component show
 * everything without JavaScript and only tidy up (hide, enhance) once scripts are there.
 */
export function useHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}
