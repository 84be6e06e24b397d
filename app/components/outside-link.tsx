import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { isExternalLink, type OutsideLinkName } from '#contract/outside-links.ts'
import { useOutsideLinks } from '#app/utils/outside-links.ts'

/**
 * A configured link (decision 088): a page of Circle 55 is a client-side link; another site's a
 * plain link, in the same tab, with `rel="noopener"` as the banners' links (decision 084).
 */
export function OutsideLink({ to, className, children }: { to: string; className?: string; children: ReactNode }) {
  if (isExternalLink(to)) {
    return (
      <a href={to} rel="noopener" className={className}>
        {children}
      </a>
    )
  }
  return (
    <Link to={to} className={className}>
      {children}
    </Link>
  )
}

/** One of spec §2's outside links in a paragraph of its own where it belongs; nothing when it is set empty. */
export function ConfiguredLink({ name, children }: { name: OutsideLinkName; children: ReactNode }) {
  const to = useOutsideLinks()[name]
  if (!to) return null
  return (
    <p>
      <OutsideLink to={to}>{children}</OutsideLink>
    </p>
  )
}
