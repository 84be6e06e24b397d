import { Fragment } from 'react'
import { messageLinks } from '#contract/links.ts'

/**
 * A message's parts: text, and addresses to show as links. Which addresses are links is decided
 * by the contract's one link detector (`contract/links.ts`), the one the scam shield asks whether
 * a first message holds a link: nothing is shown as a link that the shield would not refuse.
 */
export function messageParts(text: string) {
  const parts: ({ kind: 'text'; text: string } | { kind: 'link'; href: string })[] = []
  let last = 0
  for (const link of messageLinks(text)) {
    if (link.start > last) parts.push({ kind: 'text', text: text.slice(last, link.start) })
    parts.push({ kind: 'link', href: link.href })
    last = link.end
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
