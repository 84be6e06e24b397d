import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createExperience, createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import * as attending from './attending.tsx'

/**
 * Issue 12 §5 and §2: My activities shows every state the member is in (going, their place on
 * the notify list, hosting, cancelled by the host, said by whom and when), as a browser without
 * JavaScript gets the page, and no stray bullets between its tabs.
 */
const handle = createDocumentHandler([{ id: 'routes/attending', path: 'attending', module: attending as never }])

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

const DAY = 86_400_000

async function drawAttending(cookie: string, query = '') {
  const response = await handle(new Request(`${TEST_PUBLIC_URL}/attending${query}`, { headers: { cookie } }), web.newContext())
  expect(response.status).toBe(200)
  return response.text()
}

/** Each card's title and status line, in page order. */
function cards(html: string) {
  return [...html.matchAll(/<a[^>]*>([^<]*)<\/a><\/h2>[\s\S]*?<p class="experience-card__status">([\s\S]*?)<\/p>/g)].map((match) => ({
    title: match[1],
    status: readableHtml(match[2] ?? ''),
  }))
}

describe('My activities (issue 12 §5)', () => {
  it('says, card by card: going; the place on the notify list; hosting; cancelled, by whom and when', async () => {
    const host = await createUser(database.db, { first_name: 'Walter', last_name: 'Brooks' })
    const member = await createUser(database.db, { first_name: 'Margaret' })
    const memberToken = await web.api.signToken(member.id)
    const at = (days: number, hour: number) => new Date(Date.now() + days * DAY + hour * 3_600_000)

    const going = await createExperience(database.db, host.id, { title: 'Book club', start_at: at(1, 0) })
    await web.api.request('POST', `v1/experiences/${going.id}/attendees`, { token: memberToken, body: { user_id: member.id } })
    const full = await createExperience(database.db, host.id, { title: 'Pottery class', start_at: at(2, 0), max_attendees: 1 })
    const seated = await createUser(database.db)
    const post = async (path: string, userId: string) =>
      expect((await web.api.request('POST', `v1/experiences/${full.id}/${path}`, { token: await web.api.signToken(userId), body: { user_id: userId } })).status).toBeLessThan(300)
    await post('attendees', seated.id)
    await post('waitlist', (await createUser(database.db)).id)
    await post('waitlist', member.id)
    await createExperience(database.db, member.id, { title: 'Garden tour', start_at: at(3, 0) })
    const cancelled = await createExperience(database.db, host.id, { title: 'Riverside walk', start_at: at(4, 0) })
    await web.api.request('POST', `v1/experiences/${cancelled.id}/attendees`, { token: memberToken, body: { user_id: member.id } })
    const cancelledAt = new Date()
    expect((await web.api.request('DELETE', `v1/experiences/${cancelled.id}`, { token: await web.api.signToken(host.id) })).status).toBe(204)

    const html = await drawAttending(await web.signedInCookie(member.id))
    const when = new Intl.DateTimeFormat('en', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'America/Los_Angeles' }).format(cancelledAt)
    expect(cards(html)).toEqual([
      { title: 'Book club', status: 'You are going.' },
      { title: 'Pottery class', status: 'You are number 2 on the notify list.' },
      { title: 'Garden tour', status: 'You are hosting this activity.' },
      { title: 'Riverside walk', status: expect.stringMatching(new RegExp(`^Walter B\\., the host, canceled this activity on ${when} at \\d{1,2}:\\d{2} [AP]M P[DS]T\\.$`)) },
    ])
    // Only the ones I host: the host's own activity, and nothing that only needs a seat.
    expect(cards(await drawAttending(await web.signedInCookie(member.id), '?type=upcoming&hosting=true')).map((card) => card.title)).toEqual(['Garden tour'])
  })

  it('shows the host their own cancelled activity, marked as cancelled by them', async () => {
    const host = await createUser(database.db)
    const experience = await createExperience(database.db, host.id, { title: 'Chess afternoon' })
    expect((await web.api.request('DELETE', `v1/experiences/${experience.id}`, { token: await web.api.signToken(host.id) })).status).toBe(204)
    const [card] = cards(await drawAttending(await web.signedInCookie(host.id)))
    expect(card).toEqual({ title: 'Chess afternoon', status: expect.stringMatching(/^You canceled this activity on /) })
  })

  it('puts its views side by side as links, without list items (no stray bullets)', async () => {
    const member = await createUser(database.db)
    const html = await drawAttending(await web.signedInCookie(member.id))
    const views = /<nav aria-label="Which activities">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? ''
    expect(views.match(/<a /g)).toHaveLength(3)
    expect(views).not.toMatch(/<(ul|ol|li)\b/)
  })
})
