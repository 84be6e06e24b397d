/**
 * Draws the installable app's icons (issue 15 §5, decision 045) from the favicon's design, once:
 * the PNG files are committed in public/icons. Run again only when the design changes:
 * `node scripts/make-icons.ts`.
 */
import { mkdirSync } from 'node:fs'
import sharp from 'sharp'

const brand = '#0b5563'

/** The circle with "55" (the favicon), drawn at `size`; `maskable` fills the square and keeps the mark inside the safe zone. */
function icon(size: number, maskable: boolean) {
  const mark = maskable ? 0.6 : 0.94
  const radius = (size * mark) / 2
  const background = maskable ? `<rect width="${size}" height="${size}" fill="${brand}"/>` : ''
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">${background}` +
      `<circle cx="${size / 2}" cy="${size / 2}" r="${radius}" fill="${brand}"/>` +
      `<text x="${size / 2}" y="${size / 2 + radius * 0.33}" font-size="${radius * 0.95}" font-weight="bold" text-anchor="middle" fill="#ffffff" font-family="DejaVu Sans, sans-serif">55</text></svg>`,
  )
}

mkdirSync('public/icons', { recursive: true })
const files: [string, number, boolean][] = [
  ['icon-192.png', 192, false],
  ['icon-512.png', 512, false],
  ['icon-maskable-512.png', 512, true],
  ['apple-touch-icon.png', 180, true],
]
for (const [name, size, maskable] of files) {
  await sharp(icon(size, maskable)).png({ compressionLevel: 9 }).toFile(`public/icons/${name}`)
}
console.log(`Wrote ${files.map(([name]) => name).join(', ')} in public/icons`)
