import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { routePages, validationOf, withSetCookies } from '#tests/route-pages.ts'
import { testContext } from '#tests/web-harness.ts'
import * as checkout from '../checkout.$id.tsx'
import * as onboarding from '../get-started+/subscription.tsx'
import * as pricing from '../pricing.tsx'
import * as account from './_index.tsx'
import * as subscription from './subscription.tsx'

/**
 * Premium on the web without JavaScript (issue 31 §4, decision 074): `/pricing`,
 * `/account/subscription` (join with the consent box, the refusal next to it, cancel in two
 * steps) and the onboarding step `/get-started/subscription` (accept a partner's offer, or skip).
 */
const pages = routePages([
  { id: 'routes/pricing', path: 'pricing', module: pricing as never },
  {
    id: 'routes/account+/subscription',
    path: 'account/subscription',
    module: subscription as never,
  },
  { id: 'routes/account+/_index', path: 'account', module: account as never },
  { id: 'routes/checkout.$id', path: 'checkout/:id', module: checkout as never },
  {
    id: 'routes/get-started+/subscription',
    path: 'get-started/subscription',
    module: onboarding as never,
  },
])
const { text, post, get } = pages

async function member(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(pages.database.db, overrides)
  return { user, cookie: await pages.web.signedInCookie(user.id) }
}

async function partnership(name: string, regions: string[]) {
  return pages.database.db
    .insertInto('partnerships')
    .values({ name, regions, price_cents: 0, regular_price_cents: 2000 })
    .returningAll()
    .executeTakeFirstOrThrow()
}

const typed = (number: string) => ({
  intent: 'card',
  number,
  expiry: '08/40',
  cvc: '123',
  postalCode: '97201',
})

describe('/account/subscription without JavaScript', () => {
  it('joins premium only with the consent box ticked, through the hosted payment page, and shows the plan', async () => {
    const { cookie } = await member({ region: 'ME' })
    expect(await text('/account', cookie)).toContain('href="/account/subscription"')
    const page = await text('/account/subscription', cookie)
    expect(page).toContain('You are on the free plan.')
    expect(page).toContain('Premium costs $20 per year. It renews automatically every year at $20')
    expect(page).toMatch(/<input id="consent" type="checkbox" name="consent"[^>]*value="yes"\/>/)
    expect(page).not.toMatch(/<input id="consent"[^>]*checked/)
    expect(await validationOf(page)).toEqual([])

    const refused = await post('/account/subscription', cookie, { intent: 'join' })
    expect(refused.response.status).toBe(400)
    expect(refused.html).toMatch(
      /<span id="consent-error" class="field-error">.{0,80}Tick the box to say you agree that premium renews every year\.<\/span>/,
    )
    expect(refused.html).toMatch(/<input id="consent"[^>]*aria-invalid="true"/)
    expect(await validationOf(refused.html)).toEqual([])

    const joined = await post('/account/subscription', cookie, { intent: 'join', consent: 'yes' })
    expect(joined.response.status).toBe(302)
    const hosted = new URL(joined.response.headers.get('location')!)
    expect(hosted.origin).toBe(TEST_PUBLIC_URL)
    expect(hosted.pathname).toMatch(/^\/checkout\/cs_builtin_[0-9a-f]+$/)
    const paying = await text(hosted.pathname, cookie)
    expect(paying).toContain('Premium membership: $20 per year, renews each year until you cancel')
    expect(paying).toContain('Pay $20')

    const paid = await post(hosted.pathname, cookie, typed('4242 4242 4242 4242'))
    expect(paid.response.status).toBe(302)
    const back = new URL(paid.response.headers.get('location')!)
    expect(back.pathname).toBe('/account/subscription')
    const returned = await get(back.pathname + back.search, cookie)
    expect(returned.response.headers.get('location')).toBe('/account/subscription')
    const active = await text('/account/subscription', cookie)
    expect(active).toContain('<dd>Active</dd>')
    expect(active).toContain('<dd>$20 per year</dd>')
    expect(active).toContain('Renews on')
    expect(active).toContain('Visa •••• 4242')
    expect(await validationOf(active)).toEqual([])
  })

  it('says how long to wait after paying was started 20 times in the hour, on the page the member was on', async () => {
    const { user, cookie } = await member({ region: 'ME' })
    for (let start = 0; start < 20; start++) expect((await post('/account/subscription', cookie, { intent: 'join', consent: 'yes' })).response.status).toBe(302)
    await sql`UPDATE subscriptions SET created_at = now() - interval '30 minutes' WHERE user_id = ${user.id}`.execute(pages.database.db)
    const refused = await post('/account/subscription', cookie, { intent: 'join', consent: 'yes' })
    expect(refused.response.headers.get('location')).toBe('/account/subscription')
    const told = await text('/account/subscription', withSetCookies(cookie, refused.response))
    expect(told).toMatch(/You have started paying too many times in the last hour\. Please try again in (29|30) minutes\./)
  })

  it('cancels in two steps: the question first, then done; premium runs to the end of the year paid for', async () => {
    const { user, cookie } = await member()
    const joined = await post('/account/subscription', cookie, { intent: 'join', consent: 'yes' })
    const hosted = new URL(joined.response.headers.get('location')!).pathname
    await post(hosted, cookie, typed('4242424242424242'))
    await text('/account/subscription', cookie)
    const overview = await text('/account/subscription', cookie)
    expect(overview).toContain('href="/account/subscription?cancel=1"')

    const asking = await text('/account/subscription?cancel=1', cookie)
    expect(asking).toMatch(
      /Cancel premium\? It will end on [A-Z][a-z]+ \d{1,2}, \d{4} and you will not be charged again\./,
    )
    expect(asking).toContain('Yes, cancel premium')
    expect(asking).toContain('No, keep premium')
    expect(await validationOf(asking)).toEqual([])
    const row = await pages.database.db
      .selectFrom('subscriptions')
      .select(['cancel_at_period_end'])
      .where('user_id', '=', user.id)
      .where('status', '=', 'active')
      .executeTakeFirstOrThrow()
    expect(row.cancel_at_period_end).toBe(false)

    const done = await post('/account/subscription', cookie, { intent: 'cancel' })
    expect(done.response.headers.get('location')).toBe('/account/subscription')
    const after = await text('/account/subscription', cookie)
    expect(after).toMatch(
      /You canceled premium\. You keep it until [A-Z][a-z]+ \d{1,2}, \d{4} and you will not be charged again\./,
    )
    expect(after).toContain('Ends on')
    expect(after).not.toContain('href="/account/subscription?cancel=1"')
  })
})

describe('/pricing', () => {
  it('shows Free and Premium at $20 per year, what premium gives and what it never does, to a visitor', async () => {
    const page = await text('/pricing', '')
    expect(page).toContain('<h1>Pricing</h1>')
    expect(page).toContain('$20 per year')
    expect(page).toContain('you can also join activities marked “Premium”')
    expect(page).toContain('It does not save you a seat and it does not move you up a notify list')
    expect(page).toContain(`href="/login?returnTo=${encodeURIComponent('/pricing')}"`)
    expect(await validationOf(page)).toEqual([])
  })

  it('offers an eligible member the partner’s plan at $0 per year, formerly $20 per year, accepted in one press', async () => {
    await partnership('Green Mountain Health', ['VT'])
    const { user, cookie } = await member({ region: 'VT' })
    const page = await text('/pricing', cookie)
    expect(page).toContain('An offer from Green Mountain Health')
    expect(page).toContain('$0 per year, formerly $20 per year')
    expect(await validationOf(page)).toEqual([])
    const partnershipId = /name="partnership_id" value="([0-9a-f-]+)"/.exec(page)![1]!
    const accepted = await post('/pricing', cookie, {
      intent: 'accept',
      partnership_id: partnershipId,
    })
    expect(accepted.response.headers.get('location')).toBe('/account/subscription')
    const mine = await text('/account/subscription', cookie)
    expect(mine).toContain('$0 per year, paid for by Green Mountain Health')
    expect(mine).not.toContain('Renews on')
    const rows = await pages.database.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute()
    expect(rows).toMatchObject([
      { status: 'active', price_cents: 0, payment_method_id: null, provider: null },
    ])
  })

  it('offers no paid plan with PAYMENTS=off; the partner’s offer stays, without “formerly”', async () => {
    await partnership('Granite State Care', ['NH'])
    const { cookie } = await member({ region: 'NH' })
    const off = { ...pages.web.services, config: { ...pages.web.services.config, payments: false } }
    const page = await (
      await pages.handle(
        new Request(`${TEST_PUBLIC_URL}/pricing`, { headers: { cookie } }),
        testContext(off),
      )
    ).text()
    expect(page).not.toContain('$20 per year</p>')
    expect(page).toContain('Regular price $20 per year, paid for you by Granite State Care')
    expect(page).not.toContain('formerly')
  })
})

describe('/get-started/subscription', () => {
  it('accepts the partner’s offer in one press and goes on to the next step', async () => {
    await partnership('Sunshine Seniors', ['FL'])
    const { user, cookie } = await member({ region: 'FL' })
    const page = await text('/get-started/subscription', cookie)
    expect(page).toContain('Premium membership')
    expect(page).toContain('$0 per year, formerly $20 per year')
    expect(page).toContain('Skip for now')
    expect(await validationOf(page)).toEqual([])
    const partnershipId = /name="partnership_id" value="([0-9a-f-]+)"/.exec(page)![1]!
    const accepted = await post('/get-started/subscription', cookie, {
      intent: 'accept',
      partnership_id: partnershipId,
    })
    expect(accepted.response.headers.get('location')).toBe('/get-started/verification')
    const row = await pages.database.db
      .selectFrom('subscriptions')
      .select('status')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow()
    expect(row.status).toBe('active')
  })

  it('shows the plan with its terms, and skips', async () => {
    const { user, cookie } = await member({ region: 'TX', locale: 'nl' })
    const page = await text('/get-started/subscription', cookie)
    expect(page).toContain(
      'Ik ga ermee akkoord dat Premium elk jaar wordt verlengd voor $20 tot ik opzeg.',
    )
    const skipped = await post('/get-started/subscription', cookie, { intent: 'skip' })
    expect(skipped.response.headers.get('location')).toBe('/get-started/verification')
    const row = await pages.database.db
      .selectFrom('users')
      .select('onboarding_step')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow()
    expect(row.onboarding_step).toBe('verification')
    expect(
      await pages.database.db
        .selectFrom('subscriptions')
        .select('id')
        .where('user_id', '=', user.id)
        .execute(),
    ).toEqual([])
  })
})
