import { useSyncExternalStore } from 'react'

/**
 * The update-required page (spec §2, issue 15 §5, decision 045). Every page and page-data
 * response says which build answered (`X-Build-Version`, entry.server.tsx); the browser compares
 * it with the build it runs. Once a response from another build has come, an error on the page is
 * most likely the old code meeting the new server, so the error boundary offers a reload instead
 * of "Something went wrong". (A route module that no longer exists after a deploy already makes
 * Remix reload the page by itself.)
 */
export const buildVersionHeader = 'X-Build-Version'
export const buildVersion = __BUILD_VERSION__

/** A response from a server running another build than `ours`; one without the header says nothing. */
export function isFromAnotherBuild(response: Pick<Response, 'headers'>, ours: string = buildVersion) {
  const theirs = response.headers.get(buildVersionHeader)
  return theirs !== null && theirs !== ours
}

let changed = false
const listeners = new Set<() => void>()

export function noteResponse(response: Pick<Response, 'headers'>, ours?: string) {
  if (changed || !isFromAnotherBuild(response, ours)) return
  changed = true
  for (const listener of listeners) listener()
}

/** Wraps the browser's fetch (Remix's page data goes through it) to notice another build's answers. */
export function watchBuildVersion(target: { fetch: typeof fetch; location: { origin: string } } = window) {
  const original = target.fetch.bind(target)
  target.fetch = async (input, init) => {
    const response = await original(input, init)
    if (new URL(response.url || String(input instanceof Request ? input.url : input), target.location.origin).origin === target.location.origin) {
      noteResponse(response)
    }
    return response
  }
}

/** Whether a response from another build has come (what the error boundary reads). */
export function buildChangedNow() {
  return changed
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** True once the server has been seen running another build (false on the server). */
export function useBuildChanged() {
  return useSyncExternalStore(subscribe, buildChangedNow, () => false)
}

/** For tests: forget what was seen. */
export function resetBuildVersionWatch() {
  changed = false
}
