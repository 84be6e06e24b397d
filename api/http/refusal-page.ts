import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createCookie } from '@remix-run/node'
import type { Request, Response } from 'express'
import { languages, type Language } from '#contract/enums.ts'
import { fallbackLanguage, isLanguage, languageCookieName, languageFromAcceptHeader } from '#contract/languages.ts'

/**
 * The page the host answers with when it refuses a request before the web app sees it (a body
 * over the limit, a malformed Host): in the member's language, from the same locale files and
 * the same language cookie as the web app, with no stack and nothing from the request in it.
 */
const localesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../public/locales')

interface Copy {
  brand: string
  errorPage: {
    home: string
    tooLarge: { title: string; body: string; photo: string }
    badRequest: { title: string; body: string }
    invalidCharacters: { title: string; body: string }
    crossSite: { title: string; body: string }
  }
}

const copies = Object.fromEntries(
  languages.map((language) => [
    language,
    JSON.parse(readFileSync(path.join(localesDir, language, 'common.json'), 'utf8')) as Copy,
  ]),
) as Record<Language, Copy>

// The web app's language cookie (app/utils/i18next.server.ts); reading it needs only its name.
const languageCookie = createCookie(languageCookieName)

/** The language cookie, then Accept-Language, then English: as the web app decides (spec §1). */
export async function refusalLanguage(req: Request): Promise<Language> {
  let chosen: unknown = null
  try {
    chosen = await languageCookie.parse(req.get('cookie') ?? null)
  } catch {
    // A cookie that is not ours to read: fall back to the browser's languages.
  }
  if (isLanguage(chosen)) return chosen
  return languageFromAcceptHeader(req.get('accept-language') ?? null) ?? fallbackLanguage
}

export type Refusal = 'tooLarge' | 'tooLargePhoto' | 'badRequest' | 'invalidCharacters' | 'crossSite'

export function refusalPage(language: Language, refusal: Refusal): string {
  const copy = copies[language]
  const { title, body } =
    refusal === 'badRequest' || refusal === 'invalidCharacters' || refusal === 'crossSite'
      ? copy.errorPage[refusal]
      : {
          title: copy.errorPage.tooLarge.title,
          body: refusal === 'tooLargePhoto' ? copy.errorPage.tooLarge.photo : copy.errorPage.tooLarge.body,
        }
  return [
    '<!DOCTYPE html>',
    `<html lang="${language}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(`${title} – ${copy.brand}`)}</title>`,
    // A static file: the page stays readable at the product's text size under the strict CSP.
    '<link rel="stylesheet" href="/refusal.css">',
    '</head>',
    '<body>',
    '<main>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<p>${escapeHtml(body)}</p>`,
    `<p><a href="/">${escapeHtml(copy.errorPage.home)}</a></p>`,
    '</main>',
    '</body>',
    '</html>',
  ].join('\n')
}

/** Answers the refusal page with `status`, never cached. */
export async function sendRefusal(req: Request, res: Response, status: number, refusal: Refusal) {
  const page = refusalPage(await refusalLanguage(req), refusal)
  if (res.headersSent) return
  res.status(status).set('cache-control', 'no-store').type('html').send(page)
}

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
