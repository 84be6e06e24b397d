import { BreakableText } from './ui/breakable-text.tsx'
import type { ContentPage } from '#app/utils/content-page.ts'

/** The company and legal pages of spec §2: one renderer, content in the `pages` locale files. */
export function ContentPageView({ page }: { page: ContentPage }) {
  return (
    <article className="prose">
      <h1>{page.title}</h1>
      {page.updated ? <p>{page.updated}</p> : null}
      <p className="lead">
        <BreakableText text={page.intro} />
      </p>
      {page.sections.map((section) => (
        <section key={section.heading}>
          <h2>{section.heading}</h2>
          {section.body.map((paragraph) => (
            <p key={paragraph}>
              <BreakableText text={paragraph} />
            </p>
          ))}
        </section>
      ))}
    </article>
  )
}
