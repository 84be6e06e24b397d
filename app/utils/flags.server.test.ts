import { createElement } from 'react'
import type { LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { describe, expect, it } from 'vitest'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { routePages } from '#tests/route-pages.ts'
import { testContext } from '#tests/web-harness.ts'
import { flagVariant, isFlagOn } from './flags.server.ts'

/**
 * Flags on web pages (decisions 079, 080): asked of the API once per request however many times a
 * page's loaders ask, never by a page that uses none (the root reads no flag), and only the values
 * the page uses reach the browser; the API failing leaves the page drawn with the defaults.
 */
const flagged = {
  async loader({ request, context }: LoaderFunctionArgs) {
    const [calm, again, variant] = await Promise.all([
      isFlagOn(request, context, 'calm-colours', false),
      isFlagOn(request, context, 'calm-colours', false),
      flagVariant(request, context, 'calm-colours'),
    ])
    return { calm, again, variant }
  },
  default: function Flagged() {
    const { calm, variant } = useLoaderData<typeof flagged.loader>()
    return createElement('p', { 'data-calm': calm ? 'on' : 'off' }, variant ?? 'no variant')
  },
}
const plain = { loader: async () => ({ plain: true }), default: () => createElement('p', null, 'A page without flags') }

const pages = routePages([
  { id: 'routes/flagged', path: 'flagged', module: flagged },
  { id: 'routes/plain', path: 'plain', module: plain },
])

/** The page as a browser gets it, with the API calls made for it. */
async function visit(path: string, cookie: string, failFlags = false) {
  const asked: string[] = []
  const warnings: string[] = []
  const services = pages.web.services
  const context = testContext({
    ...services,
    apiFetch: async (request) => {
      const pathname = new URL(request.url).pathname
      asked.push(pathname)
      if (failFlags && pathname.endsWith('/v1/flags')) return Response.json({ error: { code: 'internal', message: 'Down' } }, { status: 500 })
      return services.apiFetch(request)
    },
    log: (level, message) => {
      if (level === 'warn') warnings.push(message)
    },
  })
  const response = await pages.handle(new Request(`${TEST_PUBLIC_URL}${path}`, { headers: { cookie } }), context)
  return { response, html: await response.text(), flagCalls: asked.filter((pathname) => pathname.endsWith('/v1/flags')).length, warnings }
}

describe('flags on web pages', () => {
  it('are asked once per request, and only the values a page uses reach the browser', async () => {
    const db = pages.database.db
    await db.insertInto('feature_flags').values({ key: 'calm-colours', description: 'Calmer colours', enabled: true, variants: JSON.stringify([{ name: 'calm', weight: 1 }]) }).execute()
    await db.insertInto('feature_flags').values({ key: 'secret-trial', description: 'Not on this page', enabled: true, variants: JSON.stringify([{ name: 'hidden-variant', weight: 1 }]) }).execute()
    const member = await createUser(db)
    const cookie = await pages.web.signedInCookie(member.id)

    const page = await visit('/flagged', cookie)
    expect(page.response.status).toBe(200)
    expect(page.html).toContain('<p data-calm="on">calm</p>')
    expect(page.flagCalls).toBe(1)
    expect(page.html).not.toContain('secret-trial')
    expect(page.html).not.toContain('hidden-variant')

    // The root layout reads no flag: a page that uses none never asks.
    const other = await visit('/plain', cookie)
    expect(other.response.status).toBe(200)
    expect(other.flagCalls).toBe(0)
    expect(other.html).not.toContain('calm-colours')
  })

  it('a page whose flags cannot be read is drawn with their defaults, and the failure logged', async () => {
    const member = await createUser(pages.database.db)
    const page = await visit('/flagged', await pages.web.signedInCookie(member.id), true)
    expect(page.response.status).toBe(200)
    expect(page.html).toContain('<p data-calm="off">no variant</p>')
    expect(page.warnings).toContain('Feature flags could not be read; the page uses their defaults')
  })
})
