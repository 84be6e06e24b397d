import { Fragment, type ReactNode } from 'react'

/** Email addresses and web addresses inside a text. */
const address = /\bhttps?:\/\/[^\s<>"]+|\bwww\.[^\s<>"]+|[^\s<>"@]+@[^\s<>"@]+\.[^\s<>"@]+/g
/** Where an address may wrap: after a slash, before a dot, "@", "?", "&", "=", "-", "_" or a port's colon. */
const breakPoint = /(?<=\/)(?!\/)|(?=[.@?&=_-]|:\d)/

/**
 * A text whose email and web addresses may wrap between their parts ("margaret.ellis" / "@example"
 * / ".com") on a narrow line, never inside a word, and whose other words wrap as words do
 * (issue 12 §1). The breaks are <wbr> elements: nothing is added to the text itself, so copying
 * an address copies it whole.
 */
export function BreakableText({ text }: { text: string }) {
  const parts: ReactNode[] = []
  let last = 0
  for (const match of text.matchAll(address)) {
    // The sentence's own punctuation after an address is not part of it.
    const found = match[0].replace(/[.,;:!?)]+$/, '')
    parts.push(text.slice(last, match.index), ...withBreaks(found, String(match.index)))
    last = match.index + found.length
  }
  parts.push(text.slice(last))
  return <>{parts}</>
}

/** A name made of parts, as a code ("user.sign_out_everywhere") or an address, that may wrap between them. */
export function BreakableName({ name }: { name: string }) {
  return <>{withBreaks(name, 'name')}</>
}

function withBreaks(found: string, key: string) {
  return found.split(breakPoint).map((piece, index) =>
    index > 0 ? (
      <Fragment key={`${key}-${index}`}>
        <wbr />
        {piece}
      </Fragment>
    ) : (
      piece
    ),
  )
}
