/**
 * The HTML part of every email (issue 15 §3: "a plain-text part, large readable text"): the
 * plain text, laid out for older eyes — 20 px text, generous line height, one column at most
 * 600 px wide, dark text on white, links underlined — with nothing the text does not say. The
 * plain text stays the source: what the HTML shows is exactly what a text-only mail program shows.
 */

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

const linkStyle = 'color:#0b4f8a;text-decoration:underline;word-break:break-all'

/** One line: escaped, its web addresses as links. */
function line(text: string) {
  return text
    .split(/(https?:\/\/[^\s<>"]+)/g)
    .map((part, index) => (index % 2 === 1 ? `<a href="${escape(part)}" style="${linkStyle}">${escape(part)}</a>` : escape(part)))
    .join('')
}

export function htmlFromText(text: string, options: { language: string; subject: string }) {
  const blocks = text
    .split(/\n{2,}/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => {
      const lines = block.split('\n')
      // "--" opens the footer (the unsubscribe link): smaller, set apart.
      if (lines[0] === '--') return `<hr style="border:0;border-top:1px solid #cccccc;margin:32px 0 16px"><p style="margin:0 0 16px;font-size:16px;color:#444444">${lines.slice(1).map(line).join('<br>')}</p>`
      return `<p style="margin:0 0 20px">${lines.map(line).join('<br>')}</p>`
    })
  return [
    '<!doctype html>',
    `<html lang="${escape(options.language)}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escape(options.subject)}</title></head>`,
    '<body style="margin:0;padding:0;background:#ffffff">',
    '<div style="max-width:600px;margin:0 auto;padding:24px 20px;font-family:Arial,Helvetica,sans-serif;font-size:20px;line-height:1.6;color:#1a1a1a">',
    ...blocks,
    '</div></body></html>',
  ].join('\n')
}
