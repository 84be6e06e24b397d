import { describe, expect, it } from 'vitest'
import { htmlFromText } from './html.ts'

describe('the HTML part of an email', () => {
  const html = htmlFromText('Hello Ann,\n\nYour seat at “Tea & <cake>” is yours.\nWhen: Tuesday\n\nOpen it:\nhttps://circle55.example/activities/1?a=1&b=2\n\n--\nTo stop these emails:\nhttps://circle55.example/unsubscribe/x.y', {
    language: 'fr',
    subject: 'A seat <is> yours',
  })

  it('is large, readable text in the member’s language, with the subject as its title', () => {
    expect(html).toContain('<html lang="fr">')
    expect(html).toContain('<title>A seat &lt;is&gt; yours</title>')
    expect(html).toContain('font-size:20px;line-height:1.6')
  })

  it('says what the text says: paragraphs, line breaks, escaped, addresses as links', () => {
    expect(html).toContain('<p style="margin:0 0 20px">Hello Ann,</p>')
    expect(html).toContain('Your seat at “Tea &amp; &lt;cake&gt;” is yours.<br>When: Tuesday')
    expect(html).toContain('<a href="https://circle55.example/activities/1?a=1&amp;b=2"')
    expect(html).not.toContain('<cake>')
  })

  it('sets the unsubscribe footer apart', () => {
    expect(html).toMatch(/<hr[^>]*><p style="margin:0 0 16px;font-size:16px;color:#444444">To stop these emails:<br><a href="https:\/\/circle55.example\/unsubscribe\/x.y"/)
  })
})
