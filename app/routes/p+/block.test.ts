import { describe, expect, it } from 'vitest'
import { createExperience, createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { readableHtml } from '#tests/web-document.ts'
import { testContext, testWebServices } from '#tests/web-harness.ts'
import * as activity from '../activities+/$id.tsx'
import * as messenger from '../messenger+/_index.tsx'
import * as newMessage from '../messenger+/new.tsx'
import * as profile from './$slug.tsx'
import * as block from './$slug_.block.tsx'
import { routePages, validationOf } from '#tests/route-pages.ts'

/** Blocking on the web (issue 14 §4, decision 034) as a browser without JavaScript gets it, over the real API and PostgreSQL. */
const pages = routePages([
  { id: 'routes/p+/$slug', path: 'p/:slug', module: profile as never },
  { id: 'routes/p+/$slug_.block', path: 'p/:slug/block', module: block as never },
  { id: 'routes/messenger+/_index', path: 'messenger', module: messenger as never },
  { id: 'routes/messenger+/new', path: 'messenger/new', module: newMessage as never },
  { id: 'routes/activities+/$id', path: 'activities/:id', module: activity as never },
])
const { handle, page, text, post } = pages

const DAY = 86_400_000

async function member(first: string, last: string) {
  const user = await createUser(pages.database.db, { first_name: first, last_name: last })
  return { user, cookie: await pages.web.signedInCookie(user.id), token: await pages.web.api.signToken(user.id) }
}

const isBlocked = async (blocker: { token: string }, blockedId: string) =>
  ((await pages.web.api.request('GET', `v1/block/${blockedId}`, { token: blocker.token })).json as { is_blocked: boolean }).is_blocked

describe('/p/{slug}/block', () => {
  it('says what blocking does, blocks, goes back to the profile, then offers to unblock', async () => {
    const [ann, bob] = [await member('Ann', 'Lee'), await member('Bob', 'Marsh')]
    const profileHtml = await text(`/p/${bob.user.slug}`, ann.cookie)
    const blockLink = `/p/${bob.user.slug}/block?returnTo=${encodeURIComponent(`/p/${bob.user.slug}`)}`
    expect(profileHtml).toContain(`href="${blockLink.replaceAll('&', '&amp;')}"`)
    expect(profileHtml).toContain('Block Bob M.')

    const confirm = await text(blockLink, ann.cookie)
    expect(confirm).toContain('<h1 id="block-title">Block Bob M.?</h1>')
    expect(confirm).toContain('Neither of you can send the other a message.')
    expect(confirm).toContain('Bob M. is not told that you blocked them.')
    expect(confirm).toContain('Your private conversation with Bob M. closes for both of you.')
    expect(await validationOf(confirm)).toEqual([])

    const done = await post(blockLink, ann.cookie, { intent: 'block', returnTo: `/p/${bob.user.slug}` })
    expect(done.response.status).toBe(302)
    expect(done.response.headers.get('location')).toBe(`/p/${bob.user.slug}`)
    expect(done.response.headers.get('set-cookie')).toContain('toast')
    expect(await isBlocked(ann, bob.user.id)).toBe(true)

    // The profile now says Unblock, and has no Message button; the page offers to unblock.
    const after = await text(`/p/${bob.user.slug}`, ann.cookie)
    expect(after).toContain('Unblock Bob M.')
    expect(after).not.toContain('>Message</button>')
    const unblockPage = await text(`/p/${bob.user.slug}/block`, ann.cookie)
    expect(unblockPage).toContain('Unblock Bob M.?')
    expect(unblockPage).toContain('You can write to each other again')

    const undone = await post(`/p/${bob.user.slug}/block`, ann.cookie, { intent: 'unblock', returnTo: '/messenger' })
    expect(undone.response.headers.get('location')).toBe('/messenger')
    expect(await isBlocked(ann, bob.user.id)).toBe(false)
  })

  it('never doubles the period of a name that ends with its initial ("Margaret E.", issue 29 §4)', async () => {
    const [ann, margaret] = [await member('Ann', 'Lee'), await member('Margaret', 'Evans')]
    await post(`/p/${margaret.user.slug}/block`, ann.cookie, { intent: 'block', returnTo: `/p/${margaret.user.slug}` })
    const unblockPage = await text(`/p/${margaret.user.slug}/block`, ann.cookie)
    expect(unblockPage).toContain('Unblock Margaret E.?')
    expect(unblockPage).toContain('Margaret E. is blocked. If you unblock them:')
    expect(unblockPage).not.toContain('E..')
  })

  it('goes back only to a path of this site', async () => {
    const [ann, bob] = [await member('Ann', 'Lee'), await member('Bob', 'Marsh')]
    for (const returnTo of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', '/%2F%2Fevil.example', 'javascript:alert(1)']) {
      const done = await post(`/p/${bob.user.slug}/block`, ann.cookie, { intent: 'block', returnTo })
      expect(done.response.headers.get('location'), returnTo).toBe(`/p/${bob.user.slug}`)
      const confirm = await text(`/p/${bob.user.slug}/block?returnTo=${encodeURIComponent(returnTo)}`, ann.cookie)
      expect(confirm, returnTo).toContain(`name="returnTo" value="/p/${bob.user.slug}"`)
    }
  })

  it('answers 404 for oneself, an unknown member and a member who blocked the caller; 400 for an unknown intent', async () => {
    const [ann, bob, cy] = [await member('Ann', 'Lee'), await member('Bob', 'Marsh'), await member('Cy', 'Ng')]
    await pages.web.api.request('PUT', `v1/block/${ann.user.id}`, { token: cy.token })
    expect((await page(`/p/${ann.user.slug}/block`, ann.cookie)).status).toBe(404)
    expect((await page('/p/nobody-here/block', ann.cookie)).status).toBe(404)
    expect((await page(`/p/${cy.user.slug}/block`, ann.cookie)).status).toBe(404)
    expect((await post(`/p/${bob.user.slug}/block`, ann.cookie, { intent: 'delete' })).response.status).toBe(400)
    expect(await isBlocked(ann, bob.user.id)).toBe(false)
  })
})

/** A load context whose API refuses every block and unblock with `status` (reading the state still works). */
function failingBlocks(status: number, overrides: Parameters<typeof testWebServices>[2] = {}) {
  return testContext(
    testWebServices(pages.web.api, pages.web.db, {
      ...overrides,
      apiFetch: async (request) =>
        request.method !== 'GET' && /\/v1\/block\/[^/]+$/.test(new URL(request.url).pathname)
          ? new Response(JSON.stringify({ title: 'Broken', status }), { status, headers: { 'content-type': 'application/problem+json' } })
          : pages.web.api.app.fetch(request),
    }),
  )
}

/** The block page's action as the in-place dialog calls it (a fetcher: `inPlace=1`, no redirect). */
async function inPlace(slug: string, cookie: string, intent: string, context = pages.web.newContext()) {
  const request = new Request(`${TEST_PUBLIC_URL}/p/${slug}/block`, {
    method: 'POST',
    headers: { cookie },
    body: new URLSearchParams({ intent, returnTo: `/p/${slug}`, inPlace: '1' }),
  })
  const answer = await block.action({ request, params: { slug }, context })
  if (!('data' in answer)) throw new Error(`A response, not data: ${answer.status} ${answer.headers.get('location')}`)
  return { status: answer.init?.status ?? 200, data: answer.data, headers: new Headers(answer.init?.headers) }
}

describe('/p/{slug}/block in place (decision 041)', () => {
  it('blocks and unblocks without leaving the page, with the thank-you toast', async () => {
    const [ann, bob] = [await member('Ann', 'Lee'), await member('Bob', 'Marsh')]
    const blocked = await inPlace(bob.user.slug, ann.cookie, 'block')
    expect(blocked.status).toBe(200)
    expect(blocked.data).toEqual({ done: 'block', isBlocked: true })
    expect(blocked.headers.get('set-cookie')).toContain('toast')
    expect(await isBlocked(ann, bob.user.id)).toBe(true)
    const unblocked = await inPlace(bob.user.slug, ann.cookie, 'unblock')
    expect(unblocked.data).toEqual({ done: 'unblock', isBlocked: false })
    expect(await isBlocked(ann, bob.user.id)).toBe(false)
  })

  it('when the API fails, says so with the state read again, and changes nothing', async () => {
    const [ann, bob, cy] = [await member('Ann', 'Lee'), await member('Bob', 'Marsh'), await member('Cy', 'Ng')]
    const failedBlock = await inPlace(bob.user.slug, ann.cookie, 'block', failingBlocks(500))
    expect(failedBlock.status).toBe(503)
    expect(failedBlock.data).toEqual({ failed: 'block', isBlocked: false, returnTo: `/p/${bob.user.slug}` })
    expect(await isBlocked(ann, bob.user.id)).toBe(false)

    await pages.web.api.request('PUT', `v1/block/${cy.user.id}`, { token: ann.token })
    const failedUnblock = await inPlace(cy.user.slug, ann.cookie, 'unblock', failingBlocks(502))
    expect(failedUnblock.status).toBe(503)
    expect(failedUnblock.data).toEqual({ failed: 'unblock', isBlocked: true, returnTo: `/p/${cy.user.slug}` })
    expect(await isBlocked(ann, cy.user.id)).toBe(true)
  })

  it('reports the failure with the request id, never naming the members (spec §4, decision 083)', async () => {
    const [ann, bob] = [await member('Annabel', 'Leeds'), await member('Bobby', 'Marsh')]
    const reported: { error: unknown; context: Record<string, unknown> }[] = []
    const context = failingBlocks(500, { reportError: (error, details) => void reported.push({ error, context: details }) })
    await inPlace(bob.user.slug, ann.cookie, 'block', context)
    expect(reported).toHaveLength(1)
    expect(reported[0]?.context).toEqual({ requestId: context.requestId, failed: 'block', path: '/p/{slug}/block', status: 500 })
    expect(JSON.stringify(reported[0]?.context)).not.toMatch(/Annabel|Bobby|Marsh|Leeds/)
  })

  it('without JavaScript, a failure shows the page again: the message, the state read again, where it goes back to', async () => {
    const [ann, bob] = [await member('Ann', 'Lee'), await member('Bob', 'Marsh')]
    const returnTo = '/messenger?channel=abc'
    const response = await handle(
      new Request(`${TEST_PUBLIC_URL}/p/${bob.user.slug}/block`, { method: 'POST', headers: { cookie: ann.cookie }, body: new URLSearchParams({ intent: 'block', returnTo }) }),
      failingBlocks(500),
    )
    expect(response.status).toBe(503)
    const html = readableHtml(await response.text())
    expect(html).toMatch(/<title>Error: Block Bob M\.\?/)
    expect(html).toContain('Blocking Bob M. did not work. Please try again.')
    expect(html).toContain('We checked again: Bob M. is not blocked.')
    // Nothing lost: the same confirmation, ready to try again, still going back where the member was.
    expect(html).toContain(`name="returnTo" value="${returnTo}"`)
    expect(html).toContain('Neither of you can send the other a message.')
    expect(await validationOf(html)).toEqual([])
    expect(await isBlocked(ann, bob.user.id)).toBe(false)
  })
})

describe('blocking in /messenger and on the activity page', () => {
  it('offers Block on a message request and in a conversation; hides a blocked member’s messages in an activity group with a way to show them', async () => {
    const [ann, bob, host] = [await member('Ann', 'Lee'), await member('Bob', 'Marsh'), await member('Walter', 'Brooks')]
    const request = (await pages.web.api.request('POST', 'users/message-channels', { token: bob.token, body: { user_id: ann.user.id } })).json as { data: [{ id: string }] }
    const direct = request.data[0].id
    const requestHtml = await text(`/messenger?channel=${direct}`, ann.cookie)
    expect(requestHtml).toContain(`/p/${bob.user.slug}/block?returnTo=${encodeURIComponent(`/messenger?channel=${direct}`)}`)

    const experience = await createExperience(pages.database.db, host.user.id, { start_at: new Date(Date.now() + 5 * DAY), max_attendees: 10 })
    for (const who of [ann, bob]) await pages.database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: who.user.id }).execute()
    const channel = ((await pages.web.api.request('PUT', `experiences/${experience.id}/message-channels/join`, { token: host.token })).json as { data: [{ id: string }] }).data[0].id
    await pages.web.api.request('PUT', `experiences/${experience.id}/message-channels/join`, { token: bob.token })
    await pages.web.api.request('POST', `v1/chat/message-channels/${channel}/messages`, { token: bob.token, body: { text: 'Anyone need a lift?' } })
    await pages.web.api.request('POST', `v1/chat/message-channels/${channel}/messages`, { token: host.token, body: { text: 'Meet at ten' } })

    // The activity page lists attendees by name, linking to their profiles, with no Block beside them (issue 29 §4).
    const activityHtml = await text(`/activities/${experience.id}`, ann.cookie)
    expect(activityHtml).toContain(`href="/p/${bob.user.id}"`)
    expect(activityHtml).not.toContain(`/p/${bob.user.id}/block`)
    expect(activityHtml).not.toContain(`/p/${ann.user.id}/block`)

    await post(`/p/${bob.user.slug}/block`, ann.cookie, { intent: 'block', returnTo: '/messenger' })
    const group = await text(`/messenger?channel=${channel}`, ann.cookie)
    expect(group).toContain('Meet at ten')
    expect(group).not.toContain('Anyone need a lift?')
    expect(group).toContain('1 message from someone you blocked is hidden')
    expect(group).toContain(`href="/messenger?channel=${channel}&show_blocked=1"`)
    const shown = await text(`/messenger?channel=${channel}&show_blocked=1`, ann.cookie)
    expect(shown).toContain('Anyone need a lift?')
    expect(shown).toContain('From someone you blocked')
    expect(await validationOf(shown)).toEqual([])

    // The conversation closed: the blocker may unblock from it; the blocked member reads "not available".
    const closed = await text(`/messenger?channel=${direct}`, ann.cookie)
    expect(closed).toContain('Unblock Bob M.')
    const theirs = await text(`/messenger?channel=${direct}`, bob.cookie)
    expect(theirs).toContain('This member’s account is not available')
    // Nothing they can read says "block" (the page's data carries field names such as blocked_message_ids).
    expect(theirs.replace(/<script[\s\S]*?<\/script>/g, '')).not.toMatch(/block/i)
  })
})

describe('/messenger/new', () => {
  it('finds members by first name, those met first, each with Message', async () => {
    const [vera, hal, hana] = [await member('Vera', 'Stone'), await member('Hal', 'Ray'), await member('Hana', 'Ito')]
    await pages.web.api.request('POST', 'users/message-channels', { token: hal.token, body: { user_id: vera.user.id } })
    await createUser(pages.database.db, { first_name: 'Hugo' })
    const all = await text('/messenger/new', vera.cookie)
    expect(all).toContain('<h1>New message</h1>')
    expect(all).toContain('People you have met')
    expect(all).toContain('Hal R.')
    expect(all).not.toContain('Hana I.')
    expect(all).toContain(`<input type="hidden" name="user_id" value="${hal.user.id}"/>`)
    expect(await validationOf(all)).toEqual([])
    const none = await text('/messenger/new?name=zz', vera.cookie)
    expect(none).toContain('We found no one')
    expect((await text(`/messenger/new?name=${'h'.repeat(80)}`, vera.cookie))).toContain('We found no one')
    // Message opens the conversation.
    const opened = await post('/messenger/new', vera.cookie, { user_id: hal.user.id, slug: hal.user.slug })
    expect(opened.response.headers.get('location')).toMatch(/^\/messenger\?channel=/)
    void hana
  })
})
