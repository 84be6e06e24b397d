import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { BreakableName, BreakableText } from './breakable-text.tsx'

const html = (text: string) => renderToStaticMarkup(<BreakableText text={text} />)

describe('BreakableText', () => {
  it('lets an email address wrap before its @ and dots, and leaves the words around it alone', () => {
    expect(html('Write to margaret.ellis@example.com today.')).toBe(
      'Write to margaret<wbr/>.ellis<wbr/>@example<wbr/>.com today.',
    )
  })

  it('lets a web address wrap after its slashes (not between the two of https://) and before dots', () => {
    expect(html('See https://tickets.example.com/e/a_b?x=1 now')).toBe(
      'See https://<wbr/>tickets<wbr/>.example<wbr/>.com/<wbr/>e/<wbr/>a<wbr/>_b<wbr/>?x<wbr/>=1 now',
    )
  })

  it('lets an address with a port wrap before its colon', () => {
    expect(html('http://localhost:41067/i/ES8SA88V')).toBe('http://<wbr/>localhost<wbr/>:41067/<wbr/>i/<wbr/>ES8SA88V')
  })

  it('changes nothing in a text without addresses, hyphenated words included', () => {
    expect(html('A well-known walk, 3.5 miles.')).toBe('A well-known walk, 3.5 miles.')
  })

  it('keeps the text itself unchanged', () => {
    const text = 'Added: member19@demo.test, member20@demo.test'
    expect(html(text).replace(/<wbr\/>/g, '')).toBe(text)
  })

  it('lets a code wrap before its dots and underscores', () => {
    expect(renderToStaticMarkup(<BreakableName name="user.sign_out_everywhere" />)).toBe('user<wbr/>.sign<wbr/>_out<wbr/>_everywhere')
  })
})
