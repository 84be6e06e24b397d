import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser } from '#api/db/schema.ts'
import { referralCodePattern } from '#contract/referral-code.ts'
import {
  createApiHarness,
  createExperience,
  signedInMember,
  type ApiHarness,
} from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { normalizeEmail } from './service.ts'

/**
 * Referrals (issue 33 §1, decision 087) through the API, against the real database: the invite
 * link and its counts, the banner's first name, a new account's sign-up following a link, the
 * referral counted only when the friend is marked present at a first activity, each rule that
 * keeps a lookalike account from counting, and "Invite a friend" from an activity.
 */
let database: TestDatabase
let api: ApiHarness

const HOUR = 3_600_000
const DAY = 24 * HOUR

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
})

afterAll(async () => {
  await database?.drop()
})

/** A member with their own API calls; a new account unless `created_at` says otherwise. */
function member(overrides: Partial<NewUser> = {}) {
  return signedInMember(api, overrides)
}
type Member = Awaited<ReturnType<typeof member>>

/** An older member who shares their invite link: their code. */
async function referrer(overrides: Partial<NewUser> = {}) {
  const who = await member({ created_at: new Date(Date.now() - 400 * DAY), ...overrides })
  const summary = (await who.call('GET', 'v1/users/me/referrals')).json.data[0]
  return { ...who, code: summary.code as string }
}

/** The friend's first sign-in after following `code`'s link: what the web app sends. */
const arrive = (who: Member, body: Record<string, unknown>) =>
  who.call('POST', 'v1/users/me/attribution', body)

const referralOf = (userId: string) =>
  database.db
    .selectFrom('referrals')
    .selectAll()
    .where('referred_user_id', '=', userId)
    .executeTakeFirst()
const toldTimes = async (userId: string) =>
  (
    await database.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', userId)
      .where('type', '=', 'referral.qualified')
      .execute()
  ).length

/** An activity that began an hour ago, the friend holding a seat, and its host to say who came. */
async function attendedActivity(friend: Member) {
  const host = await member({ created_at: new Date(Date.now() - 400 * DAY) })
  const experience = await createExperience(database.db, host.user.id, {
    start_at: new Date(Date.now() - HOUR),
    attendees_count: 1,
  })
  await database.db
    .insertInto('experience_attendees')
    .values({ experience_id: experience.id, user_id: friend.user.id })
    .execute()
  const mark = (present: boolean) =>
    host.call('POST', `v1/experiences/${experience.id}/attendance`, {
      marks: [{ user_id: friend.user.id, present }],
    })
  return { host, experience, mark }
}

describe('the invite link', () => {
  it('is a short, readable code at the public site, with counts that start at nothing and no reward', async () => {
    const margaret = await member()
    const answer = await margaret.call('GET', 'v1/users/me/referrals')
    expect(answer.status).toBe(200)
    const summary = answer.json.data[0]
    expect(summary.code).toMatch(referralCodePattern)
    expect(summary).toEqual({
      code: summary.code,
      link: `${api.env.PUBLIC_URL}/i/${summary.code}`,
      show_first_name: false,
      clicks: 0,
      joined: 0,
      attended: 0,
      incentive: null,
    })
    // The same code every time.
    expect((await margaret.call('GET', 'v1/users/me/referrals')).json.data[0].code).toBe(
      summary.code,
    )
  })

  it('gives the banner the first name only when its member allowed it, and nothing of a member who is gone', async () => {
    const margaret = await referrer({
      first_name: 'Margaret',
      last_name: 'Hughes',
      city: 'Portland',
    })
    expect((await api.request('GET', `v1/referrals/${margaret.code}`)).json.data).toEqual([
      { first_name: null },
    ])
    expect(
      (await margaret.call('PUT', 'v1/users/me/referrals', { show_first_name: true })).json.data[0]
        .show_first_name,
    ).toBe(true)
    // Read as typed from a letter: lower case and a dash.
    const typed = `${margaret.code.slice(0, 4).toLowerCase()}-${margaret.code.slice(4)}`
    expect((await api.request('GET', `v1/referrals/${typed}`)).json.data).toEqual([
      { first_name: 'Margaret' },
    ])
    expect((await api.request('GET', 'v1/referrals/NOPE2345')).status).toBe(404)
    expect(
      (await margaret.call('PUT', 'v1/users/me/referrals', { show_first_name: 'yes' })).json.error
        .fields,
    ).toEqual({ show_first_name: ['show_first_name_invalid'] })
    await database.db
      .updateTable('users')
      .set({ is_suspended: true })
      .where('id', '=', margaret.user.id)
      .execute()
    expect((await api.request('GET', `v1/referrals/${margaret.code}`)).status).toBe(404)
  })

  it('counts each opening, telling nobody', async () => {
    const margaret = await referrer()
    for (let index = 0; index < 3; index++)
      expect((await api.request('POST', `v1/referrals/${margaret.code}/clicks`)).status).toBe(204)
    expect((await api.request('POST', 'v1/referrals/NOPE2345/clicks')).status).toBe(404)
    expect((await margaret.call('GET', 'v1/users/me/referrals')).json.data[0].clicks).toBe(3)
    expect(await toldTimes(margaret.user.id)).toBe(0)
  })
})

describe('a friend who joins with the link', () => {
  it('is recorded once at sign-up with the campaign, and counts only once marked present at a first activity', async () => {
    const margaret = await referrer()
    const ruth = await member()
    const experience = await createExperience(database.db, margaret.user.id)
    const first = await arrive(ruth, {
      referral_code: margaret.code,
      experience_id: experience.id,
      device: 'ruth-phone',
      address: '203.0.113.7',
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring <walks>',
    })
    expect(first.json.data).toEqual([{ sign_up: true }])
    expect(await referralOf(ruth.user.id)).toMatchObject({
      referrer_id: margaret.user.id,
      status: 'signed_up',
      reason: null,
      experience_id: experience.id,
    })
    expect(
      await database.db
        .selectFrom('signup_attributions')
        .select(['utm_source', 'utm_medium', 'utm_campaign'])
        .where('user_id', '=', ruth.user.id)
        .executeTakeFirst(),
    ).toEqual({
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring walks',
    })
    // Signing in again records nothing more.
    expect((await arrive(ruth, { referral_code: margaret.code })).json.data).toEqual([
      { sign_up: false },
    ])
    expect((await margaret.call('GET', 'v1/users/me/referrals')).json.data[0]).toMatchObject({
      joined: 1,
      attended: 0,
    })

    const { mark, host } = await attendedActivity(ruth)
    expect((await mark(false)).status).toBe(200)
    expect((await referralOf(ruth.user.id))?.status).toBe('signed_up')
    expect(await toldTimes(margaret.user.id)).toBe(0)
    expect((await mark(true)).status).toBe(200)
    expect(await referralOf(ruth.user.id)).toMatchObject({
      status: 'qualified',
      qualifying_experience_id: expect.any(String),
    })
    expect((await margaret.call('GET', 'v1/users/me/referrals')).json.data[0]).toMatchObject({
      joined: 1,
      attended: 1,
    })
    expect(await toldTimes(margaret.user.id)).toBe(1)

    // Marked again, or present at a second activity: counted once, told once.
    await mark(true)
    const second = await attendedActivity(ruth)
    await second.mark(true)
    expect((await margaret.call('GET', 'v1/users/me/referrals')).json.data[0]).toMatchObject({
      joined: 1,
      attended: 1,
    })
    expect(await toldTimes(margaret.user.id)).toBe(1)
    void host
  })

  it('records nothing of an invite for an account older than a day (an existing member cannot attach to a referrer)', async () => {
    const margaret = await referrer()
    const old = await member({ created_at: new Date(Date.now() - 3 * DAY) })
    expect((await arrive(old, { referral_code: margaret.code })).json.data).toEqual([
      { sign_up: false },
    ])
    expect(await referralOf(old.user.id)).toBeUndefined()
  })

  it('keeps no campaign value that looks like an email address, and refuses a code that cannot be one', async () => {
    const ruth = await member()
    expect((await arrive(ruth, { referral_code: 'not a code' })).status).toBe(422)
    await arrive(ruth, { utm_source: 'ruth@example.com', utm_campaign: 'x'.repeat(100) })
    expect(
      await database.db
        .selectFrom('signup_attributions')
        .select(['utm_source', 'utm_campaign'])
        .where('user_id', '=', ruth.user.id)
        .executeTakeFirst(),
    ).toEqual({
      utm_source: null,
      utm_campaign: 'x'.repeat(100),
    })
  })
})

describe('an account that looks like the referrer’s own is never counted', () => {
  it('reads addresses as mailboxes: case, +tags and Gmail’s dots', () => {
    expect(normalizeEmail('Margaret.H+club@GoogleMail.com')).toBe('margareth@gmail.com')
    expect(normalizeEmail('m.hughes+x@example.org')).toBe('m.hughes@example.org')
  })

  it('the same member following their own link', async () => {
    const margaret = await member()
    const { code } = (await margaret.call('GET', 'v1/users/me/referrals')).json.data[0]
    await arrive(margaret, { referral_code: code })
    expect(await referralOf(margaret.user.id)).toMatchObject({
      status: 'not_counted',
      reason: 'self',
    })
  })

  it('the same mailbox under another spelling', async () => {
    const tag = Math.random().toString(36).slice(2, 8)
    const margaret = await referrer({ email: `margaret.h${tag}@gmail.com` })
    const second = await member({ email: `MargaretH${tag}+second@googlemail.com` })
    await arrive(second, { referral_code: margaret.code })
    expect(await referralOf(second.user.id)).toMatchObject({
      status: 'not_counted',
      reason: 'same_email',
    })
  })

  it('the same browser', async () => {
    const margaret = await referrer()
    await arrive(margaret, { device: 'margaret-laptop' })
    const second = await member()
    await arrive(second, { referral_code: margaret.code, device: 'margaret-laptop' })
    expect(await referralOf(second.user.id)).toMatchObject({
      status: 'not_counted',
      reason: 'same_device',
    })
    // The hashes are kept, never the values.
    const kept = await database.db
      .selectFrom('referral_signals')
      .select('hash')
      .where('user_id', '=', margaret.user.id)
      .execute()
    expect(kept.map((row) => row.hash)).not.toContain('margaret-laptop')
  })

  it('the same internet address (the household’s)', async () => {
    const margaret = await referrer()
    await arrive(margaret, { address: '198.51.100.20' })
    const second = await member()
    await arrive(second, { referral_code: margaret.code, address: '198.51.100.20' })
    expect(await referralOf(second.user.id)).toMatchObject({
      status: 'not_counted',
      reason: 'same_address',
    })
  })

  it('the same payment card, added after signing up: found when the friend attends, and the referrer is not told', async () => {
    const margaret = await referrer()
    const card = {
      provider: 'builtin',
      brand: 'visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2040,
    } as const
    await database.db
      .insertInto('payment_methods')
      .values({ user_id: margaret.user.id, provider_ref: `card_${margaret.user.id}`, ...card })
      .execute()
    const second = await member()
    await arrive(second, { referral_code: margaret.code })
    expect((await referralOf(second.user.id))?.status).toBe('signed_up')
    await database.db
      .insertInto('payment_methods')
      .values({ user_id: second.user.id, provider_ref: `card_${second.user.id}`, ...card })
      .execute()
    await (await attendedActivity(second)).mark(true)
    expect(await referralOf(second.user.id)).toMatchObject({
      status: 'not_counted',
      reason: 'same_card',
    })
    expect(await toldTimes(margaret.user.id)).toBe(0)
    expect((await margaret.call('GET', 'v1/users/me/referrals')).json.data[0]).toMatchObject({
      joined: 1,
      attended: 0,
    })
  })

  it('a ring: the referrer’s own second account bringing a third from the first one’s browser', async () => {
    const margaret = await referrer()
    await arrive(margaret, { device: 'ring-laptop' })
    const second = await member()
    await arrive(second, { referral_code: margaret.code, device: 'ring-tablet' })
    expect((await referralOf(second.user.id))?.status).toBe('signed_up')
    const secondCode = (await second.call('GET', 'v1/users/me/referrals')).json.data[0].code
    const third = await member()
    await arrive(third, { referral_code: secondCode, device: 'ring-laptop' })
    expect(await referralOf(third.user.id)).toMatchObject({
      referrer_id: second.user.id,
      status: 'not_counted',
      reason: 'same_device',
    })
  })
})

describe('Invite a friend', () => {
  /** An activity in five days hosted by Walter, with Margaret (writing in `locale`) going. */
  async function goingTo(locale: 'en' | 'fr' | 'nl' = 'en') {
    const walter = await member({ first_name: 'Walter', last_name: 'Brooks' })
    const margaret = await member({ first_name: 'Margaret', last_name: 'Hughes', locale })
    const experience = await createExperience(database.db, walter.user.id, {
      title: 'Garden walk',
      attendees_count: 1,
    })
    await database.db
      .insertInto('experience_attendees')
      .values({ experience_id: experience.id, user_id: margaret.user.id })
      .execute()
    const invite = (who: Member, email: string) =>
      who.call('POST', `v1/experiences/${experience.id}/invite-friend`, { email })
    return { walter, margaret, experience, invite }
  }
  const mailTo = (address: string) =>
    database.db
      .selectFrom('email_outbox')
      .select(['subject', 'text_body', 'locale'])
      .where('to_address', '=', address)
      .execute()

  it('answers the same for a member’s address and anyone else’s; a member is invited to the activity, anyone else is asked to join', async () => {
    const { margaret, experience, invite } = await goingTo()
    const ruth = await member({ first_name: 'Ruth', last_name: 'Owens' })
    const stranger = `friend.${Math.random().toString(36).slice(2, 8)}@example.net`
    const toMember = await invite(margaret, ruth.user.email!)
    const toStranger = await invite(margaret, stranger)
    expect(toMember.status).toBe(200)
    expect(toStranger.status).toBe(200)
    expect(Object.keys(toMember.json.data[0])).toEqual(Object.keys(toStranger.json.data[0]))
    expect(toMember.json.data).toEqual([{ email: ruth.user.email }])
    expect(toStranger.json.data).toEqual([{ email: stranger }])

    // The member: an invitation to the activity, named as Margaret (not the host, not the team).
    const invitation = (await ruth.call('GET', `v1/experiences/${experience.id}`)).json.data[0]
      .viewer.invitation
    expect(invitation.by).toEqual({ role: 'member', display_name: 'Margaret H.' })
    expect(await mailTo(ruth.user.email!)).toEqual([])
    expect(
      await database.db
        .selectFrom('notifications')
        .select('type')
        .where('user_id', '=', ruth.user.id)
        .execute(),
    ).toEqual([{ type: 'experience.invited' }])

    // Anyone else: an email from Circle 55 naming Margaret and the activity, with her invite link to it.
    const [mail] = await mailTo(stranger)
    const { code } = (await margaret.call('GET', 'v1/users/me/referrals')).json.data[0]
    expect(mail?.subject).toBe('Margaret invited you to “Garden walk” on Circle 55')
    expect(mail?.text_body).toContain(`${api.env.PUBLIC_URL}/i/${code}?activity=${experience.id}`)
    expect(mail?.text_body).not.toContain('Hughes')
  })

  it('never emails the same address twice for the same activity from the same inviter', async () => {
    const { margaret, walter, invite } = await goingTo()
    const stranger = `again.${Math.random().toString(36).slice(2, 8)}@example.net`
    await invite(margaret, stranger)
    const again = await invite(margaret, `  ${stranger.toUpperCase()}`)
    expect(again.status).toBe(200)
    expect(await mailTo(stranger)).toHaveLength(1)
    // The host inviting the same address is another inviter: one more email.
    await invite(walter, stranger)
    expect(await mailTo(stranger)).toHaveLength(2)
  })

  it('writes in the inviter’s language', async () => {
    const { margaret, invite } = await goingTo('fr')
    const stranger = `ami.${Math.random().toString(36).slice(2, 8)}@example.net`
    await invite(margaret, stranger)
    const [mail] = await mailTo(stranger)
    expect(mail?.locale).toBe('fr')
    expect(mail?.subject).toBe('Margaret vous invite à « Garden walk » sur Circle 55')
  })

  it('flags a malformed address, and is for the host and the people going only, before the activity', async () => {
    const { margaret, experience, invite } = await goingTo()
    expect((await invite(margaret, 'margaret at example')).json.error).toMatchObject({
      code: 'invalid_input',
      fields: { email: ['email_invalid'] },
    })
    expect((await invite(margaret, '  ')).json.error.fields).toEqual({ email: ['email_required'] })
    const bystander = await member()
    expect((await invite(bystander, 'someone@example.net')).status).toBe(403)
    expect(
      (
        await api.request('POST', `v1/experiences/${experience.id}/invite-friend`, {
          body: { email: 'someone@example.net' },
        })
      ).status,
    ).toBe(401)
    await database.db
      .updateTable('experiences')
      .set({ start_at: new Date(Date.now() - HOUR) })
      .where('id', '=', experience.id)
      .execute()
    expect((await invite(margaret, 'someone@example.net')).json.error.code).toBe('experience_past')
  })

  it('allows twenty addresses a day per inviter', async () => {
    const { margaret, invite } = await goingTo()
    for (let index = 0; index < 20; index++)
      expect((await invite(margaret, `limit${index}@example.net`)).status).toBe(200)
    const over = await invite(margaret, 'limit-over@example.net')
    expect(over.status).toBe(429)
    expect(over.json.error.code).toBe('too_many_invitations')
    expect(await mailTo('limit-over@example.net')).toEqual([])
  })
})
