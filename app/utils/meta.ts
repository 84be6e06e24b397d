import type { AppLoadContext, MetaDescriptor } from '@remix-run/node'

interface MatchLike {
  id: string
  data?: unknown
}

/**
 * The document title: "Page – Circle 55", prefixed with the localized "Error:" when the form on
 * the page was refused (GOV.UK pattern). Without JavaScript the action marks the request and
 * the root loader supplies the prefix; with JavaScript the error summary adds it.
 */
export function pageTitle(matches: MatchLike[], title: string | undefined, description?: string): MetaDescriptor[] {
  const root = matches.find((match) => match.id === 'root')?.data as { titlePrefix?: string; brand?: string } | undefined
  const brand = root?.brand ?? 'Circle 55'
  const text = title ? `${root?.titlePrefix ?? ''}${title} – ${brand}` : brand
  return [{ title: text }, ...(description ? [{ name: 'description', content: description }] : [])]
}

export function markFormError(context: AppLoadContext) {
  context.formError = true
}
