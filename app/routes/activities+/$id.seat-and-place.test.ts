import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { User } from '#api/db/schema.ts'
import type { WebServices } from '#app/utils/load-context.ts'
import { createApiHarness, createExperience, createUser, TEST_PUBLIC_URL, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { sessionCookie, testContext, testWebServices } from '#tests/web-harness.ts'
import * as activityPage from './$id.tsx'

/**
 * Issue 12 §6: what a member reads on an activity's page before saving a seat (the no-show fee,
 * what "Premium" means) and where it is (an address typed without its city).
 */
let database: TestDatabase
let api: ApiHarness
let services: WebServices
let host: User
let member: User

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  services = testWebServices(api, database.db)
  host = await createUser(database.db)
  member = await createUser(database.db)
})

afterAll(async () => {
  await database?.drop()
})

const handle = createDocumentHandler([{ id: 'routes/activities+/$id', path: 'activities/:id', module: activityPage as never }])

async function drawPage(id: string, user: User | null, language = 'en', userAgent?: string) {
  const cookie = user ? await sessionCookie(api, services, user.id) : ''
  const headers: Record<string, string> = { cookie, 'accept-language': language, ...(userAgent ? { 'user-agent': userAgent } : {}) }
  const response = await handle(new Request(`${TEST_PUBLIC_URL}/activities/${id}`, { headers }), testContext(services))
  expect(response.status).toBe(200)
  return readableHtml(await response.text())
}

/** The text of the RSVP part (the page's actions) with tags dropped. */
function actionsText(html: string) {
  const aside = html.slice(html.indexOf('id="actions-title"'), html.indexOf('</aside>'))
  return aside.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')
}

describe('the no-show fee before a seat is saved (decision 075)', () => {
  const before = 'If you cancel within 12 hours of the start, the host is told you cannot come. This activity has a $14 no-show fee: it is charged only if you cancel less than 12 hours before the start or do not come, and you are always told first. Read the Attendance Policy'

  it('is said before the seat, with the amount; without a card, the member is asked to add one first', async () => {
    const experience = await createExperience(database.db, host.id, { no_show_fee_cents: 1400 })
    const html = await drawPage(experience.id, member)
    expect(actionsText(html)).toContain(`${before} To save a seat here, first add a card the $14 fee would be charged to. Nothing is charged now`)
    expect(html).toMatch(/<input type="hidden" name="intent" value="add-card"\/><button type="submit" class="button">Add a card<\/button>/)
    expect(html).toMatch(/<a[^>]* href="\/company\/attendance-policy"[^>]*>Read the Attendance Policy<\/a>/)
    expect(html).toContain('<dt>No-show fee</dt><dd>$14 (only if you agree to it when you save your seat)</dd>')
  })

  it('with a card: an unticked box next to the button names the amount, the 12 hours and the card; the seat is saved only with it ticked, and the words are recorded', async () => {
    const experience = await createExperience(database.db, host.id, { no_show_fee_cents: 1400 })
    const ann = await createUser(database.db)
    await database.db.insertInto('payment_methods').values({ user_id: ann.id, provider: 'builtin', provider_ref: `card_${ann.id}`, brand: 'mastercard', last4: '4444', exp_month: 12, exp_year: 2040, is_default: true }).execute()
    const html = await drawPage(experience.id, ann)
    const agreement = 'I agree to a $14 fee if I cancel less than 12 hours before the start or do not come. It would be charged to Mastercard •••• 4444, and I would be told first.'
    expect(html).toContain(`<input type="checkbox" id="fee-consent" name="feeConsent"/><label for="fee-consent">${agreement}</label>`)
    expect(actionsText(html)).toContain(`${agreement} Save my seat`)

    const cookie = await sessionCookie(api, services, ann.id)
    const post = (form: Record<string, string>) =>
      handle(new Request(`${TEST_PUBLIC_URL}/activities/${experience.id}`, { method: 'POST', headers: { cookie }, body: new URLSearchParams(form) }), testContext(services))
    const refused = await post({ intent: 'attend' })
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain('Tick the box to agree to the no-show fee before saving your seat.')
    expect((await post({ intent: 'attend', feeConsent: 'on' })).status).toBe(302)
    const consent = await database.db.selectFrom('fee_consents').select(['text_shown', 'language']).where('user_id', '=', ann.id).executeTakeFirstOrThrow()
    expect(consent).toEqual({ text_shown: agreement, language: 'en' })
    expect(actionsText(await drawPage(experience.id, ann))).toContain('You are going')
  })

  it('in French and Dutch too, with cents when the fee has them', async () => {
    const experience = await createExperience(database.db, host.id, { no_show_fee_cents: 1450 })
    const french = await createUser(database.db, { locale: 'fr' })
    const dutch = await createUser(database.db, { locale: 'nl' })
    expect(actionsText(await drawPage(experience.id, french, 'fr'))).toMatch(/Cette activité a des frais de non-présentation de 14,50\s\$US : ils ne sont débités que si vous annulez moins de 12 heures avant le début ou si vous ne venez pas/)
    expect(actionsText(await drawPage(experience.id, dutch, 'nl'))).toMatch(/Deze activiteit heeft no-showkosten van US\$\s14,50: die worden alleen afgeschreven als u minder dan 12 uur voor het begin afzegt of niet komt/)
  })

  it('is said before "Join the notify list" and to a visitor before signing in', async () => {
    const full = await createExperience(database.db, host.id, { no_show_fee_cents: 1400, max_attendees: 1, attendees_count: 1 })
    await database.db.insertInto('experience_attendees').values({ experience_id: full.id, user_id: (await createUser(database.db)).id }).execute()
    expect(actionsText(await drawPage(full.id, member))).toContain(`${before} Join the notify list`)
    const open = await createExperience(database.db, host.id, { no_show_fee_cents: 1400 })
    expect(actionsText(await drawPage(open.id, null))).toContain(`${before} Sign in to save your seat`)
  })

  it('is not shown at all while payments are off: no fee, no box, a plain “Save my seat”', async () => {
    const experience = await createExperience(database.db, host.id, { no_show_fee_cents: 1400 })
    const cookie = await sessionCookie(api, services, member.id)
    const off = { ...services, config: { ...services.config, payments: false } }
    const response = await handle(new Request(`${TEST_PUBLIC_URL}/activities/${experience.id}`, { headers: { cookie } }), testContext(off))
    const html = readableHtml(await response.text())
    expect(actionsText(html)).not.toMatch(/fee|card/i)
    expect(html).not.toContain('No-show fee')
    expect(actionsText(html)).toContain('Save my seat')
  })

  it('is not mentioned when the activity has no fee', async () => {
    const experience = await createExperience(database.db, host.id)
    expect(actionsText(await drawPage(experience.id, member))).not.toContain('fee')
  })
})

describe('"Premium" on the activity’s page', () => {
  it('says what it means', async () => {
    const experience = await createExperience(database.db, host.id, { is_premium: true })
    const html = await drawPage(experience.id, member)
    expect(html).toContain('<dt>Premium activity</dt><dd>The Circle 55 team has marked this activity as premium: premium members can join it.</dd>')
    // Without premium, what it gives and where to get it, instead of "Save my seat" (decision 074).
    expect(actionsText(html)).toContain('This activity is for premium members. Premium costs $20 a year')
    expect(html).toMatch(/<a[^>]* href="\/pricing"[^>]*>See what premium gives<\/a>/)
    expect(actionsText(html)).not.toContain('Save my seat')
  })
})

describe('an address typed without its city', () => {
  const directions = (html: string) => decodeURIComponent(/href="https:\/\/www\.google\.com\/maps\/dir\/\?api=1&destination=([^"]+)"/.exec(html)?.[1] ?? '')

  it('shows the activity’s city after it, and the directions link includes the city', async () => {
    const experience = await createExperience(database.db, host.id, { formatted_address: 'Riverside Park Pavilion, 120 Main St', city: 'Portland', region: 'OR' })
    const html = await drawPage(experience.id, member)
    expect(html).toContain('<dd>Riverside Park Pavilion, 120 Main St, Portland, OR<br/>')
    expect(directions(html)).toBe('Riverside Park Pavilion, 120 Main St, Portland, OR')
  })

  it('a street named after the city still gets the city', async () => {
    const experience = await createExperience(database.db, host.id, { formatted_address: '120 Portland Ave', city: 'Portland', region: 'OR' })
    expect(directions(await drawPage(experience.id, member))).toBe('120 Portland Ave, Portland, OR')
  })

  it('an address that already names its city is left as typed', async () => {
    const experience = await createExperience(database.db, host.id, { formatted_address: 'Central Library, 801 SW 10th Ave, Portland, OR 97205', city: 'Portland', region: 'OR' })
    const html = await drawPage(experience.id, member)
    expect(html).toContain('<dd>Central Library, 801 SW 10th Ave, Portland, OR 97205<br/>')
    expect(directions(html)).toBe('Central Library, 801 SW 10th Ave, Portland, OR 97205')
  })
})

describe('Open in maps (issue 15 §5)', () => {
  it('opens the phone’s own maps: a geo: link on Android, Apple Maps on an iPhone', async () => {
    const experience = await createExperience(database.db, host.id, { formatted_address: '120 Main St', city: 'Portland', region: 'OR' })
    const android = await drawPage(experience.id, member, 'en', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36')
    expect(android).toMatch(/href="geo:[-\d.,]+\?q=120%20Main%20St%2C%20Portland%2C%20OR"/)
    const iphone = await drawPage(experience.id, member, 'en', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Mobile/15E148 Safari/604.1')
    expect(iphone).toContain('href="https://maps.apple.com/?q=120%20Main%20St%2C%20Portland%2C%20OR')
  })
})
