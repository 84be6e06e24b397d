import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { createExperience, createUser } from '#tests/api-harness.ts'
import { routePages, validationOf } from '#tests/route-pages.ts'
import * as activityPage from './$id.tsx'
import * as editPage from './$id_.edit.tsx'

/**
 * Issue 29 §4: an activity's page offers only what can still be done, and says plainly what
 * cancelling late does today (no fee is charged: payments do not exist yet). As a browser
 * without JavaScript gets it, over the real API and PostgreSQL.
 */
const pages = routePages([
  { id: 'routes/activities+/$id', path: 'activities/:id', module: activityPage as never },
  { id: 'routes/activities+/$id_.edit', path: 'activities/:id/edit', module: editPage as never },
])
const { text, post, page } = pages

const HOUR = 3_600_000

async function member(first = 'Ann', last = 'Lee', locale: 'en' | 'fr' | 'nl' = 'en') {
  const user = await createUser(pages.database.db, { first_name: first, last_name: last, locale })
  return { user, cookie: await pages.web.signedInCookie(user.id), token: await pages.web.api.signToken(user.id) }
}

async function seat(experienceId: string, userIds: string[]) {
  for (const userId of userIds) {
    await pages.database.db.insertInto('experience_attendees').values({ experience_id: experienceId, user_id: userId }).execute()
  }
  await pages.database.db
    .updateTable('experiences')
    .set({ attendees_count: sql`attendees_count + ${userIds.length}` })
    .where('id', '=', experienceId)
    .execute()
}

/** The page's actions column (everything after the details), tags dropped. */
function actionsText(html: string) {
  const aside = html.slice(html.indexOf('id="actions-title"'), html.indexOf('</aside>'))
  return aside.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')
}

/** The page without its scripts (the page's data and translations), as a member's browser shows it. */
const shown = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, '')
/** Everything a member reads, tags dropped. */
const words = (html: string) => shown(html).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')

describe('the attendee list', () => {
  it('is names linking to profiles, with no Block beside anyone (blocking stays on the profile and in conversations)', async () => {
    const host = await member('Walter', 'Brooks')
    const ann = await member('Ann', 'Lee')
    const bob = await member('Bob', 'Marsh')
    const experience = await createExperience(pages.database.db, host.user.id)
    await seat(experience.id, [ann.user.id, bob.user.id])
    const html = await text(`/activities/${experience.id}`, ann.cookie)
    const list = html.slice(html.indexOf('<ul class="attendee-list"'), html.indexOf('</ul>', html.indexOf('<ul class="attendee-list"')))
    expect(list).toContain(`href="/p/${bob.user.id}">Bob M.</a>`)
    expect(list).toContain(`href="/p/${ann.user.id}">Ann L.</a>`)
    expect(html).not.toContain('/block')
    expect(words(list)).not.toMatch(/Block/)
  })
})

describe("a host's past activity", () => {
  it('offers no Edit, Cancel or Invite (Duplicate and the attendee list stay); the API refuses them too', async () => {
    const host = await member('Walter', 'Brooks')
    const ann = await member()
    const experience = await createExperience(pages.database.db, host.user.id, { start_at: new Date(Date.now() - 3 * HOUR), max_attendees: 8 })
    await seat(experience.id, [ann.user.id])
    const html = shown(await text(`/activities/${experience.id}`, host.cookie))
    expect(html).toContain('This activity has already taken place.')
    expect(html).not.toContain(`href="/activities/${experience.id}/edit"`)
    expect(html).not.toContain('confirm=cancel-activity')
    expect(html).not.toContain('value="invite-by-emails"')
    expect(html).not.toContain('Notify list')
    expect(html).toContain(`href="/duplicate-activity?from=${experience.id}"`)
    expect(html).toContain(`href="/activities/${experience.id}/attendees.csv"`)
    // Nor a calendar entry or sharing: it has begun. (Directions stay, for whoever is running late.)
    expect(html).not.toContain('calendar.ics')
    expect(html).not.toContain('Share by email')
    expect(html).toContain('1 person signed up')

    // The confirmation page is not offered either, and a stale form is refused with a message.
    expect(await text(`/activities/${experience.id}?confirm=cancel-activity`, host.cookie)).not.toContain('Cancel this activity?')
    const refused = await post(`/activities/${experience.id}`, host.cookie, { intent: 'cancel-activity', confirmed: 'yes' })
    expect(refused.response.status).toBe(409)
    expect(refused.html).toContain('This activity has already taken place.')
    const invited = await post(`/activities/${experience.id}`, host.cookie, { intent: 'invite-by-emails', emails: 'someone@example.com' })
    expect(invited.response.status).toBe(409)
    const stored = await pages.database.db.selectFrom('experiences').select(['canceled_at', 'title']).where('id', '=', experience.id).executeTakeFirstOrThrow()
    expect(stored).toEqual({ canceled_at: null, title: experience.title })

    // The edit page says why there is no form, and offers to duplicate.
    const edit = await text(`/activities/${experience.id}/edit`, host.cookie)
    expect(edit).not.toContain('name="title"')
    expect(edit).toContain('This activity has already taken place, so it can no longer be changed.')
    expect(edit).toContain(`href="/duplicate-activity?from=${experience.id}"`)
    expect(await validationOf(edit)).toEqual([])
    // A form posted anyway (an old tab) is refused by the API, with that message.
    const form = new FormData()
    for (const [name, value] of Object.entries({ title: 'Renamed', venueType: 'online', url: 'https://meet.example.com/x', startDate: '2030-01-10', startTime: '10:00' })) form.set(name, value)
    const saved = await page(`/activities/${experience.id}/edit`, host.cookie, { method: 'POST', body: form })
    expect(saved.status).toBe(409)
    expect(await saved.text()).toContain('This activity has already taken place, so it can no longer be changed.')
  })
})

describe('a cancelled activity', () => {
  it('offers no calendar, directions, sharing, fee or "people going"', async () => {
    const host = await member('Walter', 'Brooks')
    const ann = await member()
    const experience = await createExperience(pages.database.db, host.user.id, { no_show_fee_cents: 500 })
    await seat(experience.id, [ann.user.id])
    // While it is on, all of these are there.
    const before = await text(`/activities/${experience.id}`, ann.cookie)
    for (const shown of ['calendar.ics', 'Share by email', 'Get directions', '$5', '1 person going']) expect(before).toContain(shown)

    expect((await pages.web.api.request('DELETE', `v1/experiences/${experience.id}`, { token: host.token })).status).toBe(204)
    const html = await text(`/activities/${experience.id}`, ann.cookie)
    expect(html).toContain('Walter B., the host, canceled this activity on')
    for (const gone of ['calendar.ics', 'Share by email', 'Get directions', '$5', 'No-show fee', 'going', 'mailto:?subject']) expect(shown(html), gone).not.toContain(gone)
    expect(html).toContain('1 person had signed up')
    expect(await validationOf(html)).toEqual([])
  })
})

describe('cancelling late, said before a seat is saved', () => {
  it('within 12 hours of the start: said next to "Save my seat", before it; no fee is suggested', async () => {
    const host = await member('Walter', 'Brooks')
    const ann = await member()
    const soon = await createExperience(pages.database.db, host.user.id, { start_at: new Date(Date.now() + 6 * HOUR) })
    const html = await text(`/activities/${soon.id}`, ann.cookie)
    const actions = actionsText(html)
    expect(actions).toContain('This activity starts in less than 12 hours. If you save a seat and then cancel, the host is told you cannot come. Read the Attendance Policy Save my seat')
    expect(actions).not.toMatch(/fee/i)
  })

  it('with a fee set by the host: says the amount, that it is charged only on a late cancellation or not coming, and always after telling the member', async () => {
    const host = await member('Walter', 'Brooks')
    const ann = await member()
    const later = await createExperience(pages.database.db, host.user.id, { no_show_fee_cents: 1400 })
    const html = await text(`/activities/${later.id}`, ann.cookie)
    expect(actionsText(html)).toContain(
      'If you cancel within 12 hours of the start, the host is told you cannot come. This activity has a $14 no-show fee: it is charged only if you cancel less than 12 hours before the start or do not come, and you are always told first. Read the Attendance Policy',
    )
    expect(html).toContain('<dt>No-show fee</dt><dd>$14 (only if you agree to it when you save your seat)</dd>')

    const soon = await createExperience(pages.database.db, host.user.id, { no_show_fee_cents: 1400, start_at: new Date(Date.now() + 6 * HOUR) })
    expect(actionsText(await text(`/activities/${soon.id}`, ann.cookie))).toContain(
      'This activity starts in less than 12 hours. If you save a seat and then cancel, the host is told you cannot come. This activity has a $14 no-show fee',
    )
  })

  it('in French and Dutch too', async () => {
    const host = await member('Walter', 'Brooks')
    const french = await member('Odile', 'Roux', 'fr')
    const dutch = await member('Anouk', 'Smit', 'nl')
    const soon = await createExperience(pages.database.db, host.user.id, { no_show_fee_cents: 500, start_at: new Date(Date.now() + 6 * HOUR) })
    const fr = actionsText(await text(`/activities/${soon.id}`, french.cookie, { 'accept-language': 'fr' }))
    expect(fr).toContain('Cette activité commence dans moins de 12 heures.')
    expect(fr).toContain('vous êtes toujours prévenu(e) avant')
    const nl = actionsText(await text(`/activities/${soon.id}`, dutch.cookie, { 'accept-language': 'nl' }))
    expect(nl).toContain('Deze activiteit begint over minder dan 12 uur.')
    expect(nl).toContain('u krijgt altijd eerst bericht')
  })

  it('once the seat is saved: the warning under "Cancel my seat", and the confirmation page, say whether the seat is bound by the fee', async () => {
    const host = await member('Walter', 'Brooks')
    const ann = await member()
    const soon = await createExperience(pages.database.db, host.user.id, { no_show_fee_cents: 500, start_at: new Date(Date.now() + 6 * HOUR) })
    // A seat given to her without her agreement (the notify list, the team): not bound.
    await seat(soon.id, [ann.user.id])
    const going = actionsText(await text(`/activities/${soon.id}`, ann.cookie))
    expect(going).toContain('It starts in less than 12 hours: if you cancel now, the host is told you cannot come. No fee applies to your seat: you did not agree to one.')
    const confirm = words(await text(`/activities/${soon.id}?confirm=cancel`, ann.cookie))
    expect(confirm).toContain('Cancel your seat?')
    expect(confirm).toContain('If you cancel now, the host is told you cannot come. No fee applies to your seat: you did not agree to one.')
    // Bound by her agreement: the fee may be charged, and she is told first.
    const consent = await pages.database.db
      .insertInto('fee_consents')
      .values({ user_id: ann.user.id, experience_id: soon.id, amount_cents: 500, policy_version: 'v', text_shown: 'I agree', language: 'en', payment_method_id: null })
      .returning('id')
      .executeTakeFirstOrThrow()
    await pages.database.db.updateTable('experience_attendees').set({ fee_consent_id: consent.id }).where('experience_id', '=', soon.id).where('user_id', '=', ann.user.id).execute()
    expect(words(await text(`/activities/${soon.id}?confirm=cancel`, ann.cookie))).toContain(
      'You agreed to the $5 no-show fee for this seat, so it may be charged. We will tell you first, and you can tell us if it is wrong.',
    )
  })
})
