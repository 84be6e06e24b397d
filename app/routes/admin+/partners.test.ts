import { describe, expect, it } from 'vitest'
import { createUser } from '#tests/api-harness.ts'
import { routePages, validationOf } from '#tests/route-pages.ts'
import * as partners from './partners.tsx'

/** `/admin/partners` without JavaScript (issue 31 §4, decision 074): admins add and edit partners; nobody else sees them. */
const pages = routePages([
  { id: 'routes/admin+/partners', path: 'admin/partners', module: partners as never },
])
const { text, post } = pages

describe('/admin/partners', () => {
  it('adds a partner, refuses a region that is not a state or ZIP code next to the field, and edits one', async () => {
    const admin = await createUser(pages.database.db, { staff_role: 'admin' })
    const cookie = await pages.web.signedInCookie(admin.id)
    const empty = await text('/admin/partners', cookie)
    expect(empty).toContain('There are no partners yet.')
    expect(await validationOf(empty)).toEqual([])

    const refused = await post('/admin/partners', cookie, {
      name: 'Lakeside Health',
      regions: 'Oregon',
      active: 'on',
    })
    expect(refused.response.status).toBe(400)
    expect(refused.html).toContain(
      'Use two-letter state codes (OR) or five-digit ZIP codes (97201), separated by commas',
    )
    expect(refused.html).toContain('value="Lakeside Health"')
    expect(await validationOf(refused.html)).toEqual([])

    const created = await post('/admin/partners', cookie, {
      name: 'Lakeside Health',
      regions: 'or, wa 97201',
      active: 'on',
    })
    expect(created.response.headers.get('location')).toBe('/admin/partners')
    const listed = await text('/admin/partners', cookie)
    expect(listed).toContain('Lakeside Health')
    expect(listed).toContain('OR, WA, 97201')
    const row = await pages.database.db
      .selectFrom('partnerships')
      .selectAll()
      .where('name', '=', 'Lakeside Health')
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({
      regions: ['OR', 'WA', '97201'],
      active: true,
      price_cents: 0,
      regular_price_cents: 2000,
    })

    const editing = await text(`/admin/partners?edit=${row.id}`, cookie)
    expect(editing).toContain('Edit a partner')
    expect(editing).toContain('value="OR, WA, 97201"')
    const saved = await post('/admin/partners', cookie, {
      id: row.id,
      name: 'Lakeside Health Plan',
      regions: 'OR',
    })
    expect(saved.response.headers.get('location')).toBe('/admin/partners')
    const after = await pages.database.db
      .selectFrom('partnerships')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow()
    expect(after).toMatchObject({ name: 'Lakeside Health Plan', regions: ['OR'], active: false })
    const audit = await pages.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', row.id)
      .orderBy('id')
      .execute()
    expect(audit.map((entry) => entry.action)).toEqual(['partnership.create', 'partnership.update'])
  })

  it('is refused to a member who is not an admin', async () => {
    const member = await createUser(pages.database.db)
    const cookie = await pages.web.signedInCookie(member.id)
    const response = await pages.get('/admin/partners', cookie)
    expect(response.response.status).toBe(403)
  })
})
