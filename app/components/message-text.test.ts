import { describe, expect, it } from 'vitest'
import { messageParts } from './message-text.tsx'

describe('messageParts', () => {
  it('finds web addresses and leaves the sentence’s punctuation outside', () => {
    expect(messageParts('See https://example.org/a?b=1. Bye')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', href: 'https://example.org/a?b=1' },
      { kind: 'text', text: '. Bye' },
    ])
  })

  it('never makes a link of anything but http and https', () => {
    expect(messageParts('javascript:alert(1) <b>hi</b>')).toEqual([{ kind: 'text', text: 'javascript:alert(1) <b>hi</b>' }])
  })
})
