import { Link } from '@remix-run/react'

/**
 * "Previous" and "Next" links between the pages of a list (`?page=n`), as a labelled navigation;
 * nothing when everything fits on one page. The words come from the caller's namespace.
 */
export function PageLinks({ page, totalPages, label, previous, next }: { page: number; totalPages: number; label: string; previous: string; next: string }) {
  if (totalPages <= 1) return null
  return (
    <nav className="button-row" aria-label={label}>
      {page > 1 ? <Link to={`?page=${page - 1}`}>{previous}</Link> : null}
      {page < totalPages ? <Link to={`?page=${page + 1}`}>{next}</Link> : null}
    </nav>
  )
}
