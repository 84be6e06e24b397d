import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createExperience, createUser, dobForAge, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import * as activity from '../activities+/$id.tsx'
import * as members from '../members+/_index.tsx'
import * as profile from './$slug.tsx'
import * as report from './$slug_.report.tsx'
import * as own from './_index.tsx'

/** Public profiles and Members (issue 13 §3) as a browser without JavaScript gets them. */
const handle = createDocumentHandler([
  { id: 'routes/p+/$slug', path: 'p/:slug', module: profile as never },
  { id: 'routes/p+/$slug_.report', path: 'p/:slug/report', module: report as never },
  { id: 'routes/p+/_index', path: 'p', module: own as never },
  { id: 'routes/members+/_index', path: 'members', module: members as never },
  { id: 'routes/activities+/$id', path: 'activities/:id', module: activity as never },
])

let database: TestDatabase
let web: WebHarness

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
})

afterAll(async () => {
  await web?.close()
  await database?.drop()
})

const portland = { lat: 45.5152, long: -122.6784, city: 'Portland', region: 'OR' }

async function page(path: string, cookie?: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers)
  if (cookie) headers.set('cookie', cookie)
  return handle(new Request(`${TEST_PUBLIC_URL}${path}`, { ...init, headers }), web.newContext())
}

async function text(path: string, cookie?: string) {
  const response = await page(path, cookie)
  expect(response.status).toBe(200)
  return readableHtml(await response.text())
}

describe('/p/{slug}', () => {
  it('shows a member the profile: town, member since, age by decade when shown, facts, hosted activities', async () => {
    const viewer = await createUser(database.db, { first_name: 'Vera' })
    const other = await createUser(database.db, { first_name: 'Harold', last_name: 'Li', dob: dobForAge(67), ...portland })
    await database.db.insertInto('profiles').values({ user_id: other.id, show_age: true, employment: 'retired', family: ['grandchildren'] }).execute()
    await createExperience(database.db, other.id, { title: 'Chess in the park' })
    const html = await text(`/p/${other.slug}`, await web.signedInCookie(viewer.id))
    expect(html).toContain('<h1>Harold Li</h1>')
    expect(html).toContain('Lives in Portland, OR')
    expect(html).toContain('In their 60s')
    expect(html).toContain('Member since')
    expect(html).toContain('Retired')
    expect(html).toContain('Grandchildren')
    expect(html).toContain('Activities Harold Li is hosting')
    expect(html).toContain('Chess in the park')
    expect(html).toContain('Activities you have in common')
    expect(html).toContain(`href="/p/${other.slug}/report"`)
  })

  it('says the home city a member chose once: "Lives in Portland, OR", never "Portland, OR, OR" (issue 29 §4)', async () => {
    const viewer = await createUser(database.db, { first_name: 'Vera' })
    const other = await createUser(database.db, { first_name: 'Harold', last_name: 'Lind' })
    const chosen = await web.api.request('PUT', 'v1/users/me', { token: await web.api.signToken(other.id), body: { city: 'Portland, OR' } })
    expect(chosen.status).toBe(200)
    const html = await text(`/p/${other.slug}`, await web.signedInCookie(viewer.id))
    expect(html).toContain('Lives in Portland, OR<')
    expect(html).not.toContain('OR, OR')
    const asJson = await web.api.request('GET', `users/${other.id}`, { token: await web.api.signToken(viewer.id) })
    expect(asJson.json.city).toBe('Portland, OR')
  })

  it('does not show the age when the member keeps it hidden', async () => {
    const viewer = await createUser(database.db)
    const other = await createUser(database.db, { dob: dobForAge(72) })
    const html = await text(`/p/${other.slug}`, await web.signedInCookie(viewer.id))
    expect(html).not.toContain('In their')
  })

  it('asks a signed-out visitor to join, and shows the name only', async () => {
    const other = await createUser(database.db, { first_name: 'Ada', last_name: 'Lovelace', ...portland })
    const html = await text(`/p/${other.slug}`)
    expect(html).toContain('<h1>Ada L.</h1>')
    expect(html).toContain('Join Circle 55 to see Ada L.’s profile')
    expect(html).toContain(`/signup?returnTo=${encodeURIComponent(`/p/${other.slug}`)}`)
    expect(html).not.toContain('Portland')
  })

  it('shows a suspended or deleted member as the generic label only', async () => {
    const viewer = await createUser(database.db)
    const cookie = await web.signedInCookie(viewer.id)
    const suspended = await createUser(database.db, { first_name: 'Sam', is_suspended: true, ...portland })
    const html = await text(`/p/${suspended.slug}`, cookie)
    expect(html).toContain('<h1>Circle 55 member</h1>')
    expect(html).toContain('This member’s profile is not available.')
    expect(html).not.toContain('Sam')
    expect(html).not.toContain('Portland')
    const deleted = await createUser(database.db, { state: 'deleted', first_name: null, last_name: null })
    const tombstone = await text(`/p/${deleted.slug}`, cookie)
    expect(tombstone).toContain('<h1>Circle 55 member</h1>')
    expect(tombstone).toContain('This member’s profile is not available.')
  })

  it('shows the member their own profile as others see it, with a link to edit it', async () => {
    const me = await createUser(database.db, { first_name: 'Margaret', last_name: 'Hughes' })
    const html = await text('/p', await web.signedInCookie(me.id))
    expect(html).toContain('This is how other members see you.')
    expect(html).toContain('href="/account/edit"')
    expect(html).toContain('<h1>Margaret H.</h1>')
    expect(html).not.toContain('Report this member')
  })
})

describe('attendee lists', () => {
  it("link each attendee to their public profile", async () => {
    const host = await createUser(database.db, { first_name: 'Hana', last_name: 'Lee' })
    const guest = await createUser(database.db, { first_name: 'Gus', last_name: 'Ray' })
    const experience = await createExperience(database.db, host.id)
    await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: guest.id }).execute()
    const html = await text(`/activities/${experience.id}`, await web.signedInCookie(host.id))
    expect(html).toMatch(new RegExp(`<a [^>]*href="/p/${guest.id}">Gus R.</a>`))
    // The link works with the id as well as the slug.
    expect(await text(`/p/${guest.id}`, await web.signedInCookie(host.id))).toContain('<h1>Gus R.</h1>')
  })
})

describe('/p/{slug}/report', () => {
  it('reports the member, without JavaScript, and says thank you', async () => {
    const viewer = await createUser(database.db)
    const other = await createUser(database.db, { first_name: 'Rex' })
    const cookie = await web.signedInCookie(viewer.id)
    expect(await text(`/p/${other.slug}/report`, cookie)).toContain('Report this member')
    const empty = await page(`/p/${other.slug}/report`, cookie, { method: 'POST', body: new URLSearchParams({ details: 'Asked me for money' }) })
    expect(empty.status).toBe(400)
    expect(readableHtml(await empty.text())).toContain('Asked me for money')
    const sent = await page(`/p/${other.slug}/report`, cookie, {
      method: 'POST',
      body: new URLSearchParams({ reason: 'fake_or_scam', details: 'Asked me for money' }),
    })
    expect(sent.status).toBe(302)
    expect(sent.headers.get('location')).toBe(`/p/${other.slug}`)
    const stored = await database.db.selectFrom('reports').selectAll().where('reported_user_id', '=', other.id).execute()
    expect(stored).toMatchObject([{ reporter_id: viewer.id, reason: 'fake_or_scam', details: 'Asked me for money' }])
  })
})

describe('/members', () => {
  it('lists people met at activities and members near by with shared interests, searchable by first name', async () => {
    const viewer = await createUser(database.db, { first_name: 'Vic', ...portland })
    await database.db.insertInto('user_interests').values({ user_id: viewer.id, interest: 'chess', position: 0 }).execute()
    const met = await createUser(database.db, { first_name: 'Mabel', last_name: 'Stone' })
    const experience = await createExperience(database.db, viewer.id, { start_at: new Date(Date.now() - 86_400_000) })
    await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: met.id }).execute()
    const near = await createUser(database.db, { first_name: 'Nora', last_name: 'Quinn', ...portland })
    await database.db.insertInto('user_interests').values({ user_id: near.id, interest: 'chess', position: 0 }).execute()
    const cookie = await web.signedInCookie(viewer.id)

    const html = await text('/members', cookie)
    expect(html).toContain('People you’ve met at activities')
    expect(html).toContain(`href="/p/${met.slug}"`)
    expect(html).toContain('1 activity together')
    expect(html).toContain('Near you, with shared interests')
    expect(html).toContain(`href="/p/${near.slug}"`)
    expect(html).toContain('You both like: Chess')

    const searched = await text('/members?name=nor', cookie)
    expect(searched).toContain(`href="/p/${near.slug}"`)
    expect(searched).not.toContain(`href="/p/${met.slug}"`)
    expect(await text('/members?name=zed', cookie)).toContain('No one you have met or who lives near you has a first name starting with “zed”.')
  })

  it('asks a member without a home town to add one', async () => {
    const viewer = await createUser(database.db)
    const html = await text('/members', await web.signedInCookie(viewer.id))
    expect(html).toContain('Add your home town')
    expect(html).toContain('No one to show here yet.')
  })
})
