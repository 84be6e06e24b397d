import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exploreCookie } from '#app/utils/explore.server.ts'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createDocumentHandler } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import * as home from './_index.tsx'

/**
 * Issue 12 §5: Home shows the activities near the member: the city saved on their account, else
 * the city they chose on Explore, else the one guessed from their internet address (said to be a
 * guess), and never a list of other cities; it greets a member by their first name (§4).
 */
const handle = createDocumentHandler([{ id: 'routes/_index', path: '', module: home as never }])

let database: TestDatabase
let web: WebHarness

const portland = { latitude: 45.5152, longitude: -122.6784 }

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
  const host = await createUser(database.db)
  const token = await web.api.signToken(host.id)
  const inTenDays = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10)
  for (const [title, place_id] of [
    ['Portland rose garden walk', 'us-or-portland'],
    ['Seattle ferry outing', 'us-wa-seattle'],
    ['Boston harbour lunch', 'us-ma-boston'],
  ]) {
    const created = await web.api.request('POST', 'v1/experiences', {
      token,
      body: { title, start_date: inTenDays, start_time: '10:00', venue_type: 'in_person', place_id, formatted_address: '1 Main Street' },
    })
    expect(created.status, title).toBe(201)
  }
}, 60_000)

afterAll(async () => {
  await web?.close()
  await database?.drop()
})

async function drawHome({ cookie = '', located = null, language = 'en' }: { cookie?: string; located?: { lat: number; lng: number } | null; language?: string }) {
  const context = web.newContext()
  context.services = { ...web.services, locate: async () => located }
  const response = await handle(new Request(`${TEST_PUBLIC_URL}/`, { headers: { cookie, 'accept-language': language } }), context)
  expect(response.status).toBe(200)
  const html = await response.text()
  return { html, text: html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').replaceAll('&#x27;', "'") }
}

const chose = (placeId: string) => exploreCookie.serialize({ date: 'any-day', distance: '25', place: placeId })
const titles = ['Portland rose garden walk', 'Seattle ferry outing', 'Boston harbour lunch']
const listed = (text: string) => titles.filter((title) => text.includes(title))

describe('Home: the activities near the member (issue 12 §5)', () => {
  it('the city saved on the account comes first, before an Explore choice and the address', async () => {
    const member = await createUser(database.db, { first_name: 'Walter', last_name: 'Brooks', lat: portland.latitude, long: portland.longitude, city: 'Portland' })
    const cookie = `${await web.signedInCookie(member.id)}; ${(await chose('us-wa-seattle')).split(';')[0]}`
    const { text } = await drawHome({ cookie, located: { lat: 42.36, lng: -71.06 } })
    expect(text).toContain('Coming up near Portland')
    expect(text).toContain('The city saved in your account.')
    expect(listed(text)).toEqual(['Portland rose garden walk'])
    expect(text).not.toContain('We guessed')
  })

  it('then the city chosen on Explore, before the address', async () => {
    const member = await createUser(database.db, { first_name: 'Margaret' })
    const cookie = `${await web.signedInCookie(member.id)}; ${(await chose('us-wa-seattle')).split(';')[0]}`
    const { text } = await drawHome({ cookie, located: { lat: 42.36, lng: -71.06 } })
    expect(text).toContain('Coming up near Seattle, WA')
    expect(text).toContain('The city you chose on Find activities.')
    expect(listed(text)).toEqual(['Seattle ferry outing'])
  })

  it('then the city guessed from the internet address, labelled as a guess (signed out too)', async () => {
    const { text } = await drawHome({ located: { lat: 42.36, lng: -71.06 } })
    expect(text).toContain('Coming up near Boston, MA')
    expect(text).toContain('We guessed Boston, MA from your internet connection.')
    expect(listed(text)).toEqual(['Boston harbour lunch'])
  })

  it('nowhere known: asks for a city instead of listing other cities', async () => {
    const { text } = await drawHome({})
    expect(listed(text)).toEqual([])
    expect(text).toContain('Choose your city to see the activities near you.')
    const french = await drawHome({ language: 'fr' })
    expect(french.text).toContain('Choisissez votre ville pour voir les activités près de chez vous.')
  })
})

describe('Home greets a member by their first name (issue 12 §4)', () => {
  it('"Hello, Walter", not the display name, in the member’s language', async () => {
    const member = await createUser(database.db, { first_name: 'Walter', last_name: 'Brooks' })
    const cookie = await web.signedInCookie(member.id)
    const greeting = async (cookie: string) => /<h1 id="hero-title">([^<]*)<\/h1>/.exec((await drawHome({ cookie })).html)?.[1]
    expect(await greeting(cookie)).toBe('Hello, Walter')
    const dutch = await createUser(database.db, { first_name: 'Willem', last_name: 'de Vries', locale: 'nl' })
    expect(await greeting(await web.signedInCookie(dutch.id))).toBe('Hallo Willem')
  })
})
