import type { AppLoadContext, MetaDescriptor } from '@remix-run/node'
import { isRouteErrorResponse } from '@remix-run/react'
import { errorPageTitle } from './error-page.ts'

interface MatchLike {
  id: string
  data?: unknown
  /** Set on every match when an error boundary is drawn (Remix passes the error to each meta). */
  error?: unknown
}

/**
 * The document title: "Page – Circle 55", prefixed with the localized "Error:" when the form on
 * the page was refused (GOV.UK pattern). Without JavaScript the action marks the request and
 * the root loader supplies the prefix; with JavaScript the error summary adds it.
 */
export function pageTitle(matches: MatchLike[], title: string | undefined, description?: string): MetaDescriptor[] {
  const root = matches.find((match) => match.id === 'root')?.data as
    | { titlePrefix?: string; brand?: string; language?: string }
    | undefined
  const brand = root?.brand ?? 'Circle 55'
  const error = matches.find((match) => match.error)?.error
  if (error) {
    // The error page's own title ("Page not found – Circle 55"), in <head> where the tab and
    // screen readers read it. Without the root's data the root layout writes it (root.tsx).
    if (!root) return []
    const text = errorPageTitle(root.language, isRouteErrorResponse(error) ? error.status : 500)
    return [{ title: text ? `${text} – ${brand}` : brand }]
  }
  const text = title ? `${root?.titlePrefix ?? ''}${title} – ${brand}` : brand
  return [{ title: text }, ...(description ? [{ name: 'description', content: description }] : [])]
}

export function markFormError(context: AppLoadContext) {
  context.formError = true
}
