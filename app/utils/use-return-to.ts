import { useLocation } from '@remix-run/react'
import { pathWithReturnTo, safeRedirectPath } from './redirect.ts'

/** Pages nobody wants to land on again after signing in or up. */
const notReturnedTo = /^\/(?:login|signup|logout|welcome-back|get-started)(?:\/|$)/

/** `/login` or `/signup`, coming back to this page afterwards (decision 020). */
export function useSignInHref(path: '/login' | '/signup') {
  const { pathname, search } = useLocation()
  return pathWithReturnTo(path, notReturnedTo.test(pathname) ? '/' : safeRedirectPath(pathname + search))
}
