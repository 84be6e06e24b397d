import { describe, expect, it } from 'vitest'
import { createUser } from '#tests/api-harness.ts'
import { routePages, validationOf } from '#tests/route-pages.ts'
import * as flags from './flags.tsx'

/** `/admin/flags` without JavaScript (issue 32 §3, decision 079): admins create and change flags; mistakes are said next to the form. */
const pages = routePages([{ id: 'routes/admin+/flags', path: 'admin/flags', module: flags as never }])
const { get, post, text } = pages

describe('/admin/flags', () => {
  it('an admin creates a flag for half of the members in Oregon with two variants, then turns it off', async () => {
    const admin = await createUser(pages.database.db, { staff_role: 'admin' })
    const cookie = await pages.web.signedInCookie(admin.id)
    const page = await text('/admin/flags', cookie)
    expect(page).toContain('<h2 id="flag-impersonation">impersonation</h2>')
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
})
