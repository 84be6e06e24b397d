import type { LoaderFunctionArgs } from '@remix-run/node'
import { getT } from '#app/utils/i18next.server.ts'
import { themeColor } from '#app/utils/theme.ts'

/** The web app manifest (issue 15 §5, decision 045): what a phone needs to install Circle 55. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const t = await getT(request, context, ['common', 'pwa'])
  const manifest = {
    id: '/',
    name: t('common:brand'),
    short_name: t('common:brand'),
    description: t('pwa:manifest.description'),
    lang: context.language,
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: themeColor,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  }
  return new Response(JSON.stringify(manifest), {
    headers: { 'Content-Type': 'application/manifest+json; charset=utf-8', 'Cache-Control': 'no-cache', Vary: 'Accept-Language, Cookie' },
  })
}
