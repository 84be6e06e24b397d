import type { ReactNode } from 'react'

/** The frame of the identity provider's pages: one column, one task. */
export function IdentityLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="form">
      <h1>{title}</h1>
      {children}
    </div>
  )
}
