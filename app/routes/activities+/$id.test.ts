import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { action as editAction } from '#app/routes/activities+/$id_.edit.tsx'
import * as activityPage from '#app/routes/activities+/$id.tsx'
import * as explorePage from '#app/routes/activities+/_index.tsx'
import { createExperience, createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'

/**
 * Issue 10 §7: the host's web actions posted by someone who is not the host (or on an activity
 * that does not exist) answer 403 (404), and nothing changes, instead of a 500.
 */
let database: TestDatabase
let web: WebHarness

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
})

const { action } = activityPage

afterAll(async () => {
  await web?.close()
  await database?.drop()
})

function inDays(days: number) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
}

async function hostedActivity(hostId: string) {
  const response = await web.api.request('POST', 'v1/experiences', {
    token: await web.api.signToken(hostId),
    body: { title: 'Book club', start_date: inDays(15), start_time: '10:00', venue_type: 'online', url: 'https://meet.example.com/books' },
  })
  expect(response.status).toBe(201)
  return response.json.data[0] as { id: string }
}

function post(path: string, cookie: string, body: FormData | URLSearchParams) {
  return new Request(`${TEST_PUBLIC_URL}${path}`, { method: 'POST', headers: { cookie }, body })
}

async function stateOf(id: string) {
  const row = await database.db.selectFrom('experiences').select(['title', 'canceled_at']).where('id', '=', id).executeTakeFirstOrThrow()
  const attendees = await database.db.selectFrom('experience_attendees').select('user_id').where('experience_id', '=', id).execute()
  return { ...row, attendees: attendees.map((attendee) => attendee.user_id).sort() }
}

describe("the host's web actions on someone else's activity", () => {
  let activityId: string
  let cookie: string
  let friend: { id: string; email: string | null }
  let before: Awaited<ReturnType<typeof stateOf>>

  beforeAll(async () => {
    const host = await createUser(database.db)
    activityId = (await hostedActivity(host.id)).id
    const stranger = await createUser(database.db)
    friend = await createUser(database.db)
    cookie = await web.signedInCookie(stranger.id)
    before = await stateOf(activityId)
  })

  it('cancel the activity: 403, still on', async () => {
    const request = post(`/activities/${activityId}`, cookie, new URLSearchParams({ intent: 'cancel-activity', confirmed: 'yes' }))
    await expect(action({ request, context: web.newContext(), params: { id: activityId } })).rejects.toMatchObject({ init: { status: 403 } })
    expect(await stateOf(activityId)).toEqual(before)
  })

  it('invite people by email: 403, nobody invited', async () => {
    const request = post(`/activities/${activityId}`, cookie, new URLSearchParams({ intent: 'invite-by-emails', emails: friend.email ?? '' }))
    await expect(action({ request, context: web.newContext(), params: { id: activityId } })).rejects.toMatchObject({ init: { status: 403 } })
    expect(await stateOf(activityId)).toEqual(before)
    expect(await database.db.selectFrom('experience_invitations').select('user_id').where('experience_id', '=', activityId).execute()).toEqual([])
  })

  it('edit: 403, unchanged', async () => {
    const form = new FormData()
    for (const [name, value] of Object.entries({ title: 'Taken over', venueType: 'online', url: 'https://evil.example.com', startDate: inDays(16), startTime: '11:00' })) {
      form.set(name, value)
    }
    const request = post(`/activities/${activityId}/edit`, cookie, form)
    await expect(editAction({ request, context: web.newContext(), params: { id: activityId } })).rejects.toMatchObject({ init: { status: 403 } })
    expect(await stateOf(activityId)).toEqual(before)
  })

  it('on an activity that does not exist: 404', async () => {
    const missing = crypto.randomUUID()
    const request = post(`/activities/${missing}`, cookie, new URLSearchParams({ intent: 'cancel-activity', confirmed: 'yes' }))
    await expect(action({ request, context: web.newContext(), params: { id: missing } })).rejects.toMatchObject({ init: { status: 404 } })
  })
})

describe('invite people by email, as the host', () => {
  it('over the limit of 50 at a time: says so and keeps the list typed', async () => {
    const host = await createUser(database.db)
    const { id } = await hostedActivity(host.id)
    const emails = Array.from({ length: 51 }, (_, index) => `friend${index}@example.com`).join('\n')
    const request = post(`/activities/${id}`, await web.signedInCookie(host.id), new URLSearchParams({ intent: 'invite-by-emails', emails }))
    const reply = (await action({ request, context: web.newContext(), params: { id } })) as unknown as { data: unknown; init: { status: number } }
    expect(reply.init.status).toBe(400)
    expect(reply.data).toEqual({ error: 'activities:host.tooManyEmails', emails })
  })

  it('an address with a character no address has: says that, not "too many", and keeps the list', async () => {
    const host = await createUser(database.db)
    const { id } = await hostedActivity(host.id)
    const emails = 'ann@example.com\nbob\u0000@example.com'
    const request = post(`/activities/${id}`, await web.signedInCookie(host.id), new URLSearchParams({ intent: 'invite-by-emails', emails }))
    const reply = (await action({ request, context: web.newContext(), params: { id } })) as unknown as { data: unknown; init: { status: number } }
    expect(reply.init.status).toBe(400)
    expect(reply.data).toEqual({ error: 'activities:host.emailsInvalid', emails })
  })
})

describe('an invitation by email, without JavaScript (issue 12 §3)', () => {
  const handle = createDocumentHandler([{ id: 'routes/activities+/$id', path: 'activities/:id', module: activityPage as never }])

  async function page(id: string, userId: string, form?: Record<string, string>) {
    const cookie = await web.signedInCookie(userId)
    const request = form
      ? new Request(`${TEST_PUBLIC_URL}/activities/${id}`, { method: 'POST', headers: { cookie }, body: new URLSearchParams(form) })
      : new Request(`${TEST_PUBLIC_URL}/activities/${id}`, { headers: { cookie } })
    return handle(request, web.newContext())
  }
  /** Posts the form, then follows the redirect with the flash cookie, as a browser would. */
  async function submit(id: string, userId: string, form: Record<string, string>) {
    const posted = await page(id, userId, form)
    expect(posted.status).toBe(302)
    const cookie = `${await web.signedInCookie(userId)}; ${(posted.headers.get('set-cookie') ?? '').split(';')[0]}`
    const request = new Request(`${TEST_PUBLIC_URL}${posted.headers.get('location')}`, { headers: { cookie } })
    return readableHtml(await (await handle(request, web.newContext())).text())
  }
  const invite = (id: string, hostId: string, emails: string) => page(id, hostId, { intent: 'invite-by-emails', emails })

  it('the host invites: the page says the same of every address, member or not, and nobody is seated', async () => {
    const host = await createUser(database.db)
    const guest = await createUser(database.db)
    const other = await createUser(database.db)
    const { id } = await hostedActivity(host.id)
    const answer = await invite(id, host.id, `${guest.email}, ${other.email}\nnobody@nowhere.test`)
    expect(answer.status).toBe(200)
    const html = readableHtml(await answer.text())
    expect(html).toContain(`We sent an invitation to each of these addresses that belongs to a Circle 55 member who is not going yet: ${guest.email}, ${other.email}, nobody@nowhere.test`)
    expect(html).toContain("To protect members' privacy, we do not say which addresses belong to members.")
    expect(html).not.toContain('No member with')
    expect((await stateOf(id)).attendees).toEqual([])
  })

  it('the invited member sees who invited them and accepts: seated', async () => {
    const host = await createUser(database.db, { first_name: 'Harold', last_name: 'Stone' })
    const guest = await createUser(database.db)
    const { id } = await hostedActivity(host.id)
    await invite(id, host.id, guest.email ?? '')
    const html = readableHtml(await (await page(id, guest.id)).text())
    expect(html).toContain('Harold S. invited you to this activity')
    expect(html).toContain('name="intent" value="accept-invitation"')
    expect(html).toContain('name="intent" value="decline-invitation"')
    // Accept takes the place of "Save my seat".
    expect(html).not.toContain('name="intent" value="attend"')
    const after = await submit(id, guest.id, { intent: 'accept-invitation' })
    expect(after).toContain('You accepted the invitation. Your seat is saved.')
    expect(after).not.toContain('invited you to this activity')
    expect((await stateOf(id)).attendees).toEqual([guest.id])
  })

  it('declines: not seated, the invitation gone; a stale Accept is then refused with a message', async () => {
    const host = await createUser(database.db)
    const guest = await createUser(database.db)
    const { id } = await hostedActivity(host.id)
    await invite(id, host.id, guest.email ?? '')
    const after = await submit(id, guest.id, { intent: 'decline-invitation' })
    expect(after).toContain('You declined the invitation.')
    expect(after).not.toContain('invited you to this activity')
    expect(after).toContain('name="intent" value="attend"')
    const stale = await page(id, guest.id, { intent: 'accept-invitation' })
    expect(stale.status).toBe(409)
    expect(readableHtml(await stale.text())).toContain('You have already declined this invitation.')
    expect((await stateOf(id)).attendees).toEqual([])
  })

  it('full: the invitation says so and offers Decline and the notify list, no Accept', async () => {
    const host = await createUser(database.db)
    const guest = await createUser(database.db)
    const seated = await createUser(database.db)
    const experience = await createExperience(database.db, host.id, { max_attendees: 1 })
    await invite(experience.id, host.id, guest.email ?? '')
    const taken = await web.api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: await web.api.signToken(seated.id), body: { user_id: seated.id } })
    expect(taken.status).toBe(200)
    const html = readableHtml(await (await page(experience.id, guest.id)).text())
    expect(html).toContain('The activity is full right now, so you cannot accept yet.')
    expect(html).not.toContain('name="intent" value="accept-invitation"')
    expect(html).toContain('name="intent" value="decline-invitation"')
    expect(html).toContain('name="intent" value="join-waitlist"')
  })

  it('another member cannot accept it: 404, nobody seated', async () => {
    const host = await createUser(database.db)
    const guest = await createUser(database.db)
    const stranger = await createUser(database.db)
    const { id } = await hostedActivity(host.id)
    await invite(id, host.id, guest.email ?? '')
    const request = post(`/activities/${id}`, await web.signedInCookie(stranger.id), new URLSearchParams({ intent: 'accept-invitation' }))
    await expect(action({ request, context: web.newContext(), params: { id } })).rejects.toMatchObject({ init: { status: 404 } })
    expect((await stateOf(id)).attendees).toEqual([])
  })
})

describe('a form on the activity page with an intent the page does not know', () => {
  it('answers 400 and changes nothing', async () => {
    const host = await createUser(database.db)
    const member = await createUser(database.db)
    const { id } = await hostedActivity(host.id)
    const before = await stateOf(id)
    for (const intent of ['delete-everything', '']) {
      const request = post(`/activities/${id}`, await web.signedInCookie(member.id), new URLSearchParams({ intent }))
      await expect(action({ request, context: web.newContext(), params: { id } })).rejects.toMatchObject({ init: { status: 400 } })
    }
    expect(await stateOf(id)).toEqual(before)
  })
})

describe('cancelling a seat, without JavaScript', () => {
  async function attendedActivity(startsInHours: number) {
    const host = await createUser(database.db)
    const member = await createUser(database.db)
    const start = new Date(Date.now() + startsInHours * 3_600_000)
    const experience = await database.db
      .insertInto('experiences')
      .values({
        slug: `walk-${crypto.randomUUID().slice(0, 8)}`,
        title: 'Riverside walk',
        venue_type: 'online',
        url: 'https://example.com/meet',
        host_id: host.id,
        timezone: 'America/New_York',
        start_at: start,
        end_at: new Date(start.getTime() + 3_600_000),
        attendees_count: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: member.id }).execute()
    return { id: experience.id, cookie: await web.signedInCookie(member.id) }
  }

  it('within 12 hours of the start (the API says it is late): asks on a page of its own first, seat kept', async () => {
    const { id, cookie } = await attendedActivity(6)
    const request = post(`/activities/${id}`, cookie, new URLSearchParams({ intent: 'cancel' }))
    const answer = await action({ request, context: web.newContext(), params: { id } }).catch((thrown: unknown) => thrown)
    expect(answer).toBeInstanceOf(Response)
    expect((answer as Response).headers.get('Location')).toBe(`/activities/${id}?confirm=cancel`)
    expect((await stateOf(id)).attendees).toHaveLength(1)
  })

  it('two days before: cancels at once', async () => {
    const { id, cookie } = await attendedActivity(48)
    const request = post(`/activities/${id}`, cookie, new URLSearchParams({ intent: 'cancel' }))
    const answer = await action({ request, context: web.newContext(), params: { id } })
    expect((answer as Response).headers.get('Location')).toBe(`/activities/${id}`)
    expect((await stateOf(id)).attendees).toEqual([])
  })
})

describe('the host’s own full activity (issue 12 §5)', () => {
  const handle = createDocumentHandler([{ id: 'routes/activities+/$id', path: 'activities/:id', module: activityPage as never }])

  it('never offers its host the notify list; a member without a seat is offered it', async () => {
    const host = await createUser(database.db)
    const seated = await createUser(database.db)
    const stranger = await createUser(database.db)
    const experience = await createExperience(database.db, host.id, { max_attendees: 1 })
    const attend = await web.api.request('POST', `v1/experiences/${experience.id}/attendees`, { token: await web.api.signToken(seated.id), body: { user_id: seated.id } })
    expect(attend.status).toBeLessThan(300)
    const draw = async (userId: string) => {
      const request = new Request(`${TEST_PUBLIC_URL}/activities/${experience.id}`, { headers: { cookie: await web.signedInCookie(userId) } })
      return (await handle(request, web.newContext())).text()
    }
    const asHost = await draw(host.id)
    expect(asHost).toContain('You are hosting this activity.')
    expect(asHost).not.toContain('Join the notify list')
    expect(asHost).not.toContain('name="intent" value="join-waitlist"')
    expect(await draw(stranger.id)).toContain('name="intent" value="join-waitlist"')
    // Its card on Find activities says "Full", not "Full – join the notify list", to its host.
    const explore = createDocumentHandler([{ id: 'routes/activities+/_index', path: 'activities', module: explorePage as never }])
    const statusOn = async (userId: string) => {
      const request = new Request(`${TEST_PUBLIC_URL}/activities?place=us-or-portland&distance=25`, { headers: { cookie: await web.signedInCookie(userId) } })
      const html = readableHtml(await (await explore(request, web.newContext())).text())
      return new RegExp(`${experience.id}">[^<]*</a></h2>[\\s\\S]*?<p class="experience-card__status">([^<]*)`).exec(html)?.[1]
    }
    expect(await statusOn(host.id)).toBe('Full')
    expect(await statusOn(stranger.id)).toBe('Full – join the notify list')
  })
})

describe('the verified badge on an activity (issue 13 §5), without JavaScript', () => {
  const handle = createDocumentHandler([{ id: 'routes/activities+/$id', path: 'activities/:id', module: activityPage as never }])

  /** The text of each attendee's line, tags dropped, by the member's id. */
  function attendeeLines(html: string) {
    const list = html.slice(html.indexOf('<ul class="attendee-list"'), html.indexOf('</ul>', html.indexOf('<ul class="attendee-list"')))
    return Object.fromEntries(
      [...list.matchAll(/<li>([\s\S]*?)<\/li>/g)].map(([, line = '']) => [
        /href="\/p\/([^"]+)"/.exec(line)?.[1] ?? 'unlinked',
        line.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim(),
      ]),
    )
  }

  it('shows "Verified" next to a verified attendee and the verified host, and not next to the others', async () => {
    const host = await createUser(database.db, { first_name: 'Hana', last_name: 'Lee' })
    const verified = await createUser(database.db, { first_name: 'Gus', last_name: 'Ray' })
    const plain = await createUser(database.db, { first_name: 'Nell', last_name: 'Ortiz' })
    await database.db
      .insertInto('verifications')
      .values([host, verified].map((user) => ({ user_id: user.id, status: 'verified' as const })))
      .execute()
    const experience = await createExperience(database.db, host.id)
    await database.db
      .insertInto('experience_attendees')
      .values([verified, plain].map((user) => ({ experience_id: experience.id, user_id: user.id })))
      .execute()
    const request = new Request(`${TEST_PUBLIC_URL}/activities/${experience.id}`, { headers: { cookie: await web.signedInCookie(plain.id) } })
    const response = await handle(request, web.newContext())
    expect(response.status).toBe(200)
    const html = readableHtml(await response.text())

    // Names only: blocking stays on the profile and in conversations (issue 29 §4).
    expect(attendeeLines(html)).toEqual({ [verified.id]: 'Gus R. Verified Verified member', [plain.id]: 'Nell O.' })
    // The badge sits right after the name, inside the attendee's line.
    expect(html).toMatch(new RegExp(`<a [^>]*href="/p/${verified.id}">Gus R.</a><span class="verified-badge">`))
    // The host, in the activity's details.
    expect(html).toMatch(new RegExp(`<dt>Host</dt><dd><a [^>]*href="/p/${host.id}">Hana L\\.</a> <span class="verified-badge">[\\s\\S]*?Verified member</span></span></dd>`))
  })
})

describe('the host’s name on an activity (issue 29 §3)', () => {
  const handle = createDocumentHandler([{ id: 'routes/activities+/$id', path: 'activities/:id', module: activityPage as never }])

  /** The activity page's "Host" line, as served. */
  async function hostLine(experienceId: string, cookie?: string) {
    const request = new Request(`${TEST_PUBLIC_URL}/activities/${experienceId}`, cookie ? { headers: { cookie } } : {})
    const response = await handle(request, web.newContext())
    expect(response.status).toBe(200)
    const html = readableHtml(await response.text())
    return /<dt>Host<\/dt><dd>([\s\S]*?)<\/dd>/.exec(html)?.[1]
  }

  it('links to the host’s profile, as attendees’ names do, signed in or not', async () => {
    const host = await createUser(database.db, { first_name: 'Walter', last_name: 'Brooks' })
    const experience = await createExperience(database.db, host.id)
    const viewer = await createUser(database.db)
    const link = new RegExp(`^<a [^>]*href="/p/${host.id}">Walter B\\.</a>$`)
    expect(await hostLine(experience.id, await web.signedInCookie(viewer.id))).toMatch(link)
    expect(await hostLine(experience.id)).toMatch(link)
  })

  it('names a deleted host with the generic label, without a link', async () => {
    const host = await createUser(database.db, { first_name: 'Walter', last_name: 'Brooks' })
    const experience = await createExperience(database.db, host.id)
    await database.db.updateTable('users').set({ state: 'deleted' }).where('id', '=', host.id).execute()
    const viewer = await createUser(database.db)
    expect(await hostLine(experience.id, await web.signedInCookie(viewer.id))).not.toContain('<a ')
  })
})
