import type { LoaderFunctionArgs } from '@remix-run/node'
import { createI18nInstance } from '#app/utils/i18next.server.ts'
import { isLanguage } from '#app/utils/i18n.ts'

/**
 * /offline/en, /fr, /nl: the page the service worker keeps and shows when a page cannot be
 * reached (decision 045). Plain HTML that needs neither the server nor JavaScript: the product's
 * text size from a static stylesheet, and "Try again" is a link to the page the member asked for.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  if (!isLanguage(params.lang)) throw new Response(null, { status: 404 })
  const language = params.lang
  const t = (await createI18nInstance(language)).getFixedT(language, ['pwa', 'common'])
  const html = [
    '<!DOCTYPE html>',
    `<html lang="${language}">`,
    '<head>',
    '<meta charset="utf-8" />',
    '<meta name="viewport" content="width=device-width, initial-scale=1" />',
    `<title>${escapeHtml(`${t('pwa:offline.title')} – ${t('common:brand')}`)}</title>`,
    '<link rel="stylesheet" href="/refusal.css" />',
    '</head>',
    '<body>',
    '<main>',
    `<h1>${escapeHtml(t('pwa:offline.title'))}</h1>`,
    `<p>${escapeHtml(t('pwa:offline.body'))}</p>`,
    `<p>${escapeHtml(t('pwa:offline.hint'))}</p>`,
    // An empty link is the address shown in the browser: the page that could not be reached.
    `<p><a href="">${escapeHtml(t('pwa:offline.retry'))}</a></p>`,
    '</main>',
    '</body>',
    '</html>',
  ].join('\n')
  return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' } })
}

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
