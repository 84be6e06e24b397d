import { describe, expect, it } from 'vitest'
import { unsubscribeToken } from '#api/notifications/unsubscribe.ts'
import { createUser, TEST_UNSUBSCRIBE_SECRET } from '#tests/api-harness.ts'
import { routePages, validationOf } from '#tests/route-pages.ts'
import * as unsubscribe from './unsubscribe.$token.tsx'

/** An email's unsubscribe link opened in a browser, signed out and without JavaScript (issue 15 §3, decision 047). */
const pages = routePages([{ id: 'routes/unsubscribe.$token', path: 'unsubscribe/:token', module: unsubscribe as never }])

const emailSwitch = (userId: string) =>
  pages.database.db
    .selectFrom('notification_workflow_settings')
    .select(['template_id', 'enabled'])
    .where('user_id', '=', userId)
    .where('channel', '=', 'email')
    .execute()

describe('/unsubscribe/{token}', () => {
  it('names the topic, asks once, and turns its emails off without signing in', async () => {
    const member = await createUser(pages.database.db)
    const token = unsubscribeToken(TEST_UNSUBSCRIBE_SECRET, member.id, 'reminders')
    const html = await pages.text(`/unsubscribe/${token}`, '')
    expect(html).toContain('Stop emails about “Reminders”?')
    expect(html).toContain('Stop these emails')
    expect(await validationOf(html)).toEqual([])
    expect(await emailSwitch(member.id)).toEqual([])

    const { response } = await pages.post(`/unsubscribe/${token}`, '', {})
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`/unsubscribe/${token}?done=1`)
    expect(await emailSwitch(member.id)).toEqual([{ template_id: 'reminders', enabled: false }])
    expect(await pages.text(`/unsubscribe/${token}?done=1`, '')).toContain('Done: no more emails about “Reminders”')
  })

  it("answers a mail program's one-click POST (RFC 8058) with the done page, not a redirect", async () => {
    const member = await createUser(pages.database.db)
    const token = unsubscribeToken(TEST_UNSUBSCRIBE_SECRET, member.id, 'hosting')
    const { response, html } = await pages.post(`/unsubscribe/${token}`, '', { 'List-Unsubscribe': 'One-Click' })
    expect(response.status).toBe(200)
    expect(html).toContain('Done: no more emails about “Activities you host”')
    expect(await emailSwitch(member.id)).toEqual([{ template_id: 'hosting', enabled: false }])
    // Mail programs retry; a link that is not ours is a 404.
    expect((await pages.post(`/unsubscribe/${token}`, '', { 'List-Unsubscribe': 'One-Click' })).response.status).toBe(200)
    expect((await pages.post('/unsubscribe/not-a-real-link', '', { 'List-Unsubscribe': 'One-Click' })).response.status).toBe(404)
  })

  it('says plainly when the link does not work', async () => {
    const { response, html } = await pages.get('/unsubscribe/not-a-real-link', '')
    expect(response.status).toBe(404)
    expect(html).toContain('This link does not work')
    expect(html).toContain('href="/account/notification-settings"')
  })
})
