import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEnv } from '#api/env.ts'
import { PostgresFlagProvider } from '#api/flags/provider.ts'
import { setFlagProvider } from '#api/flags/service.ts'
import { createFlagProvider } from '#api/providers.ts'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { growthbookHandlers } from '#tests/msw/growthbook.ts'
import { routePages, validationOf } from '#tests/route-pages.ts'
import * as flags from './flags.tsx'

/**
 * `/admin/flags` without JavaScript (issue 32 §3, decisions 079, 080): admins create and change
 * flags; mistakes are said next to the form. With GrowthBook configured the page says the flags are
 * edited there and lists them, with no form.
 */
const growthbook = growthbookHandlers({ apiHost: 'https://growthbook.test', clientKey: 'sdk-circle55', features: { impersonation: { defaultValue: true }, 'calm-colours': { defaultValue: false } } })
const server = setupServer(...growthbook.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())
const pages = routePages([{ id: 'routes/admin+/flags', path: 'admin/flags', module: flags as never }])
const { get, post, text } = pages

describe('/admin/flags', () => {
  it('an admin creates a flag for half of the members in Oregon with two variants, then turns it off', async () => {
    const admin = await createUser(pages.database.db, { staff_role: 'admin' })
    const cookie = await pages.web.signedInCookie(admin.id)
    const page = await text('/admin/flags', cookie)
    expect(page).toContain('<h2 id="flag-impersonation"><code class="flag-key">impersonation</code></h2>')
    expect(await validationOf(page)).toEqual([])

    const wrong = await post('/admin/flags', cookie, { key: 'Calm Colours', rollout: '50', variants: '', regions: '' })
    expect(wrong.response.status).toBe(400)
    expect(wrong.html).toContain('Write the key in lower-case letters, digits and dashes')
    const badVariants = await post('/admin/flags', cookie, { key: 'calm-colours', rollout: '50', variants: 'calm, bright', regions: '' })
    expect(badVariants.html).toContain('Write the variants as names with weights')

    const created = await post('/admin/flags', cookie, { key: 'calm-colours', description: 'A calmer palette', enabled: 'on', rollout: '50', variants: 'calm:1, bright:1', regions: 'or, wa', roles: 'member' })
    expect(created.response.headers.get('location')).toBe('/admin/flags')
    const listed = await text('/admin/flags', cookie)
    expect(listed).toContain('value="calm:1, bright:1"')
    expect(listed).toContain('value="OR, WA"')
    expect((await pages.database.db.selectFrom('feature_flags').select(['enabled', 'rollout_percent', 'roles']).where('key', '=', 'calm-colours').executeTakeFirstOrThrow())).toEqual({ enabled: true, rollout_percent: 50, roles: ['member'] })

    await post('/admin/flags', cookie, { key: 'calm-colours', description: 'A calmer palette', rollout: '50', variants: 'calm:1, bright:1', regions: 'OR' })
    expect((await pages.database.db.selectFrom('feature_flags').select('enabled').where('key', '=', 'calm-colours').executeTakeFirstOrThrow()).enabled).toBe(false)

    const member = await createUser(pages.database.db)
    expect((await get('/admin/flags', await pages.web.signedInCookie(member.id))).response.status).toBe(403)
  })

  it('with GrowthBook configured, says the flags are edited there, lists them, and changes nothing here', async () => {
    const env = parseEnv({ NODE_ENV: 'test', PUBLIC_URL: TEST_PUBLIC_URL, FLAGS_PROVIDER: 'growthbook', GROWTHBOOK_API_HOST: 'https://growthbook.test', GROWTHBOOK_CLIENT_KEY: 'sdk-circle55' })
    setFlagProvider(pages.web.db, createFlagProvider(env, pages.web.db))
    try {
      const admin = await createUser(pages.database.db, { staff_role: 'admin' })
      const cookie = await pages.web.signedInCookie(admin.id)
      const page = await text('/admin/flags', cookie)
      expect(page).toContain('Feature flags are managed in GrowthBook, the flag service this site is set up with')
      expect(page).toContain('<h2>Flags defined in GrowthBook</h2>')
      expect(page).toContain('<li><code>calm-colours</code></li>')
      expect(page).not.toContain('name="rollout"')
      expect(page).not.toContain('Create the flag')
      expect(await validationOf(page)).toEqual([])
      for (const [locale, said] of [['fr', 'Les drapeaux de fonctionnalités sont gérés dans GrowthBook'], ['nl', 'Functievlaggen worden beheerd in GrowthBook']] as const) {
        const teammate = await createUser(pages.database.db, { staff_role: 'admin', locale })
        expect(await text('/admin/flags', await pages.web.signedInCookie(teammate.id))).toContain(said)
      }

      // A form kept open from before is refused, said on the page, and nothing is saved.
      const stale = await post('/admin/flags', cookie, { key: 'quiet-mode', description: 'Quieter', enabled: 'on', rollout: '100', variants: '', regions: '' })
      expect(stale.response.status).toBe(409)
      expect(stale.html).toContain('Feature flags are managed in the flag service this site is set up with, so they cannot be changed here.')
      expect(await pages.database.db.selectFrom('feature_flags').select('key').where('key', '=', 'quiet-mode').execute()).toEqual([])

      growthbook.down.value = 'network'
      setFlagProvider(pages.web.db, createFlagProvider(env, pages.web.db))
      const away = await text('/admin/flags', cookie)
      expect(away).toContain('GrowthBook cannot be reached just now.')
      expect(away).toContain('GrowthBook defines no flags yet')
    } finally {
      growthbook.down.value = false
      setFlagProvider(pages.web.db, new PostgresFlagProvider(pages.web.db))
    }
  })
})
