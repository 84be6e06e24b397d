import { Fragment } from 'react'

/** Web addresses in a message; the trailing punctuation of a sentence is not part of them. */
const urlPattern = /\bhttps?:\/\/[^\s<>"]+/gi

/** A message's parts: text, and addresses to show as links. */
export function messageParts(text: string) {
  const parts: ({ kind: 'text'; text: string } | { kind: 'link'; href: string })[] = []
  let last = 0
  for (const match of text.matchAll(urlPattern)) {
    const href = match[0].replace(/[.,;:!?)\]'’]+$/, '')
    const start = match.index
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) })
    parts.push({ kind: 'link', href })
    last = start + href.length
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) })
  return parts
}

/**
 * A message as members wrote it (issue 14 §1, decision 029): plain text, line breaks kept, and web
 * addresses as links that open in the same tab, tell the other site nothing and carry no ranking
 * (`rel="noopener noreferrer nofollow ugc"`). Never HTML: React escapes every character.
 */
export function MessageText({ text }: { text: string }) {
  return (
    <>
      {text.split('\n').map((line, index) => (
        <Fragment key={index}>
          {index > 0 ? <br /> : null}
          {messageParts(line).map((part, at) =>
            part.kind === 'text' ? (
              <Fragment key={at}>{part.text}</Fragment>
            ) : (
              <a key={at} href={part.href} rel="noopener noreferrer nofollow ugc" className="message__link">
                {part.href}
              </a>
            ),
          )}
        </Fragment>
      ))}
    </>
  )
}
