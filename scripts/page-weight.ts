import { gzipSync } from 'node:zlib'

/**
 * First-load weight of pages (QUALITY.md): the HTML and every script the page loads on first
 * visit (module preloads and imports), gzipped. Usage: node scripts/page-weight.ts [baseUrl] [paths…]
 * The server must be running the production build (npm start). Pages for members only: set
 * PAGE_WEIGHT_COOKIE to a signed-in browser's Cookie header (copied from its developer tools).
 */
const [baseArg, ...pathArgs] = process.argv.slice(2)
const base = baseArg ?? 'http://localhost:3000'
const paths = pathArgs.length > 0 ? pathArgs : ['/', '/login']

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const headers = process.env.PAGE_WEIGHT_COOKIE ? { cookie: process.env.PAGE_WEIGHT_COOKIE } : undefined

for (const path of paths) {
  const response = await fetch(new URL(path, base), { headers })
  const html = await response.text()
  const finalPath = new URL(response.url).pathname
  const scripts = new Set<string>()
  for (const match of html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)) scripts.add(match[1]!)
  for (const match of html.matchAll(/import\s*(?:\*\s*as\s*\w+\s*from\s*)?"([^"]+\.js)"/g)) scripts.add(match[1]!)
  let js = 0
  let jsRaw = 0
  for (const src of scripts) {
    const body = Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer())
    jsRaw += body.length
    js += gzipSync(body, { level: 9 }).length
  }
  const htmlGz = gzipSync(Buffer.from(html), { level: 9 }).length
  console.log(
    `${path}${finalPath !== path ? ` (→ ${finalPath.replace(/[\w-]{20,}/, ':uid')})` : ''}: ` +
      `JS ${kb(js)} gzip (${scripts.size} files, ${kb(jsRaw)} raw), HTML ${kb(htmlGz)} gzip (${kb(html.length)} raw)`,
  )
}
