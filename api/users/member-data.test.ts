import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { User } from '#api/db/schema.ts'
import { createLocalStorage } from '#api/providers/storage/local.ts'
import { askAttendance } from '#api/surveys/service.ts'
import { createApiHarness, createExperience, createUser, testNotifier, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { memberColumnList } from './member-data.ts'

/**
 * Issue 30 §4: deleting an account named its tables by hand and missed the ones added since
 * (surveys, reminders sent, cancellations, reports filed, referrals, subscriptions, the support
 * conversation…). The database's own catalogue is read here: every column that names a member
 * (a foreign key to `users`, or a name that says so) must have a fate in `memberColumns`, the
 * list `deleteAccount` applies; and a member with rows in every one of them, once deleted, is
 * named only where the list keeps them on purpose.
 */
let database: TestDatabase
let api: ApiHarness
const media = createLocalStorage(await mkdtemp(join(tmpdir(), 'circle55-member-data-')))

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db, {}, { media, codeSecret: 'a test code secret' })
})

afterAll(async () => {
  await database?.drop()
})

/** Column names that name a member without a foreign key saying so (a text id, a new table's oversight). */
const memberNamePattern = '^(user|member|host|author|owner|actor|impersonator|reporter|referrer|blocker|blocked|attendee|sender|recipient|invitee|reviewer|moderator|admin|agent|creator)_id$|_(user|member)_id$|_by$'

/** Every column of the public schema that names a member: `table.column`, sorted. */
async function columnsNamingMembers() {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    SELECT kcu.table_name, kcu.column_name
    FROM information_schema.referential_constraints rc
    JOIN information_schema.key_column_usage kcu ON kcu.constraint_schema = rc.constraint_schema AND kcu.constraint_name = rc.constraint_name
    JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_schema = rc.unique_constraint_schema AND ccu.constraint_name = rc.unique_constraint_name
    WHERE rc.constraint_schema = 'public' AND ccu.table_name = 'users' AND ccu.column_name = 'id'
    UNION
    SELECT c.table_name, c.column_name
    FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
    WHERE c.table_schema = 'public' AND c.data_type IN ('uuid', 'text', 'character varying') AND c.column_name ~ ${memberNamePattern}`.execute(database.db)
  return rows.map((row) => `${row.table_name}.${row.column_name}`).sort()
}

const declared = () => memberColumnList().map((entry) => `${entry.table}.${entry.column}`).sort()

describe('the member columns deleting an account looks after (memberColumns)', () => {
  it('gives every column that names a member a fate: erased, anonymized or kept on purpose', async () => {
    const found = await columnsNamingMembers()
    // What the catalogue finds today (a new table with a member column makes this list longer).
    expect(found.length).toBeGreaterThanOrEqual(39)
    expect(found.filter((column) => !declared().includes(column)), 'columns naming a member that deleting an account ignores').toEqual([])
  })

  it('names only columns that exist, anonymizes only nullable ones, and says why for each', async () => {
    const { rows } = await sql<{ name: string; is_nullable: string }>`
      SELECT table_name || '.' || column_name AS name, is_nullable FROM information_schema.columns WHERE table_schema = 'public'`.execute(database.db)
    const nullable = new Map(rows.map((row) => [row.name, row.is_nullable === 'YES']))
    for (const entry of memberColumnList()) {
      const name = `${entry.table}.${entry.column}`
      expect(nullable.has(name), name).toBe(true)
      if (entry.fate === 'anonymize') expect(nullable.get(name), `${name} is anonymized, so it must take null`).toBe(true)
      expect(entry.why.length, name).toBeGreaterThanOrEqual(10)
    }
  })
})

describe('deleting an account leaves no row that names the member, but those kept on purpose', () => {
  const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000)

  /** A member with a row in every table that can name one; the others involved are returned too. */
  async function memberEverywhere() {
    const db = database.db
    const member = await createUser(db, { phone: '+15035550177', phone_confirmed_at: new Date() })
    const other = await createUser(db)
    const host = await createUser(db)
    const upcoming = await createExperience(db, host.id, { attendees_count: 1 })
    const past = await createExperience(db, host.id, { start_at: inHours(-3), attendees_count: 2 })
    const hostedPast = await createExperience(db, member.id, { start_at: inHours(-72) })
    await createExperience(db, host.id, { canceled_at: new Date(), canceled_by: member.id })
    const id = member.id

    await db.insertInto('profiles').values({ user_id: id, bio: 'I love walks', family: [] }).execute()
    await db.insertInto('user_interests').values({ user_id: id, interest: 'walking' }).execute()
    await db.insertInto('profile_prompts').values({ user_id: id, prompt: 'favourite_place', answer: 'The coast' }).execute()
    const photo = await db
      .insertInto('media')
      .values({ owner_id: id, target: 'message', storage_key: `messages/${id}.jpg`, mime_type: 'image/jpeg', width: 10, height: 10, bytes: 3 })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db.insertInto('verifications').values([{ user_id: id }, { user_id: other.id, reviewed_by: id, status: 'verified' }]).execute()
    // They were viewed as by the team once, and (on the team) viewed someone else and uploaded their photo.
    await db.insertInto('impersonations').values([
      { actor_id: other.id, subject_id: id, reason: 'Help', expires_at: inHours(1) },
      { actor_id: id, subject_id: other.id, reason: 'Help', expires_at: inHours(1), ended_at: new Date() },
    ]).execute()
    await db.insertInto('feature_flags').values({ key: `member-data-${id.slice(0, 8)}`, updated_by: id }).execute()
    // A banner they wrote (on the team), and one they hid.
    const banner = await db.insertInto('banners').values({ title: JSON.stringify({ en: 'Hi' }), body: JSON.stringify({ en: 'Hi' }), created_by: id }).returning(['id', 'content_hash']).executeTakeFirstOrThrow()
    await db.insertInto('popups').values({ user_id: id, type: 'BANNER', banner_id: banner.id, content_hash: banner.content_hash, dismissed_at: new Date() }).execute()
    await db.insertInto('analytics_events').values({ name: 'rsvp_created', user_id: id, props: JSON.stringify({ experience_id: upcoming.id, waitlisted: false }) }).execute()
    await db.insertInto('media').values({ owner_id: other.id, impersonator_id: id, target: 'message', storage_key: `messages/${other.id}.jpg`, mime_type: 'image/jpeg', width: 10, height: 10, bytes: 3 }).execute()
    // A Medicare agency they named (on the team), and their own permission to be called by it (decision 086).
    const agency = await db
      .insertInto('medicare_partners')
      .values({ name: 'Member Data Agency', license: 'License 1', phone: '+15035550100', disclaimer: 'Ours.', organization_count: 1, plan_count: 2, created_by: id, updated_by: id, retired_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db
      .insertInto('medicare_consents')
      .values({ user_id: id, partner_id: agency.id, partner_revision: 1, phone: '+15035550177', phone_last4: '0177', topics: ['dental'], text_version: 'v', text_shown: 'I agree', locale: 'en', method: 'web_form', user_agent: 'Firefox' })
      .execute()
    await db.insertInto('credentials').values({ user_id: id, password_hash: 'x' }).execute()
    await db.insertInto('web_sessions').values({ id: `s-${id}`, user_id: id, data: '{}', expires_at: inHours(1) }).execute()
    await db.insertInto('devices').values({ user_id: id, kind: 'web_push', token: `https://push.example/${id}`, keys: JSON.stringify({ p256dh: 'k', auth: 'a' }) }).execute()
    const card = await db.insertInto('payment_methods').values({ user_id: id, provider: 'builtin', provider_ref: `pm-${id}`, brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 }).returning('id').executeTakeFirstOrThrow()
    // A no-show fee they agreed to at the past activity, the host's mark, and fees of someone else's they waived and refunded.
    const consent = await db
      .insertInto('fee_consents')
      .values({ user_id: id, experience_id: past.id, amount_cents: 500, policy_version: 'v', text_shown: 'I agree', language: 'en', payment_method_id: card.id })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db.insertInto('no_show_fees').values({ user_id: id, experience_id: past.id, consent_id: consent.id, reason: 'no_show', amount_cents: 500, status: 'noticed', charge_on: inHours(48) }).execute()
    await db.insertInto('no_show_fees').values({ user_id: other.id, experience_id: past.id, consent_id: consent.id, reason: 'no_show', amount_cents: 500, status: 'waived', waiver: 'admin', waived_by: id, charge_on: inHours(48) }).execute()
    await db.insertInto('no_show_fees').values({ user_id: other.id, experience_id: hostedPast.id, consent_id: consent.id, reason: 'no_show', amount_cents: 500, status: 'refunded', refund_note: 'Wrong member marked', refunded_by: id, charge_on: inHours(48) }).execute()
    await db.insertInto('attendance_marks').values([{ experience_id: past.id, user_id: id, present: false, marked_by: host.id }, { experience_id: hostedPast.id, user_id: other.id, present: true, marked_by: id }]).execute()
    const plan = await db.insertInto('subscriptions').values({ user_id: id, plan: 'premium', status: 'active' }).returning('id').executeTakeFirstOrThrow()
    await db
      .insertInto('subscription_consents')
      .values({ user_id: id, subscription_id: plan.id, text_version: 'v', text: 'It renews each year until I cancel.', locale: 'en', price_cents: 2000, renewal_interval: 'year', payment_method_id: card.id })
      .execute()
    await db.insertInto('payment_customers').values({ user_id: id, provider: 'builtin', customer_ref: `cus_builtin_${id}` }).execute()
    await db.insertInto('card_setups').values({ user_id: id, provider: 'builtin', return_path: '/account/payments' }).execute()
    await db.insertInto('builtin_checkout_sessions').values({ id: `cs_builtin_${id}`, user_id: id, customer: `cus_builtin_${id}`, mode: 'setup', success_url: 'x', cancel_url: 'y', expires_at: inHours(1) }).execute()
    await db.insertInto('notification_global_settings').values({ user_id: id, channel: 'email', enabled: false }).execute()
    await db.insertInto('notification_workflow_settings').values({ user_id: id, template_id: 'reminders', channel: 'sms', enabled: true }).execute()
    await db.insertInto('notifications').values({ user_id: id, type: 'sample', data: JSON.stringify({}) }).execute()
    await db.insertInto('popups').values({ user_id: id, type: 'EXPERIENCE_ATTENDANCE', experience_id: past.id }).execute()
    await db.insertInto('sms_outbox').values({ user_id: id, to_number: '+15035550177', body: 'Reminder: Riverside walk tomorrow', kind: 'reminder', locale: 'en' }).execute()
    await db.insertInto('experience_reminders').values({ experience_id: upcoming.id, user_id: id, slot: '24h', start_at: upcoming.start_at! }).execute()
    await db.insertInto('surveys').values({ user_id: id, type: 'POST_EXPERIENCE_SURVEY', experience_id: past.id, rating: 5, feedback: 'Lovely, thank you Ann' }).execute()
    await db.insertInto('attendance_cancellations').values({ experience_id: past.id, user_id: id, is_late: true }).execute()
    await db.insertInto('experience_attendees').values([{ experience_id: upcoming.id, user_id: id }, { experience_id: past.id, user_id: id }]).execute()
    await db.insertInto('waitlist_entries').values({ experience_id: upcoming.id, user_id: other.id }).execute()
    const full = await createExperience(db, host.id, { max_attendees: 1, attendees_count: 1 })
    await db.insertInto('waitlist_entries').values({ experience_id: full.id, user_id: id }).execute()
    await db
      .insertInto('experience_invitations')
      .values([
        { experience_id: upcoming.id, user_id: id, invited_by: host.id },
        { experience_id: hostedPast.id, user_id: other.id, invited_by: id },
      ])
      .execute()
    await db.insertInto('blocks').values([{ blocker_id: id, blocked_id: other.id }, { blocker_id: host.id, blocked_id: id }]).execute()
    await db.insertInto('referrals').values([{ referrer_id: id }, { referrer_id: other.id, referred_user_id: id }]).execute()
    await db.insertInto('referral_codes').values({ user_id: id, code: 'ABCD2345' }).execute()
    await db.insertInto('referral_signals').values({ user_id: id, kind: 'device', hash: 'device-hash' }).execute()
    await db.insertInto('signup_attributions').values({ user_id: id, utm_source: 'newsletter' }).execute()
    // The hash column holds a keyed hash of an address, never an id: this row stands for "an
    // address someone invited" so that every listed column has one (it is kept, decision 087).
    await db
      .insertInto('friend_invitations')
      .values([
        { inviter_id: id, experience_id: upcoming.id, email_hash: 'hash-of-an-address' },
        { inviter_id: other.id, experience_id: upcoming.id, email_hash: id },
      ])
      .execute()

    // Conversations: a direct one the member opened, their support conversation, and a support
    // answer they gave as an admin in someone else's.
    const direct = await db.insertInto('message_channels').values({ kind: 'direct', direct_key: `direct:${id}`, created_by: id }).returning('id').executeTakeFirstOrThrow()
    const support = await db.insertInto('message_channels').values({ kind: 'support', direct_key: `support:${id}`, created_by: id }).returning('id').executeTakeFirstOrThrow()
    const othersSupport = await db.insertInto('message_channels').values({ kind: 'support', direct_key: `support:${other.id}`, created_by: other.id }).returning('id').executeTakeFirstOrThrow()
    await db
      .insertInto('channel_memberships')
      .values([
        { channel_id: direct.id, user_id: id, is_accepted: true },
        { channel_id: direct.id, user_id: other.id, is_accepted: true },
        { channel_id: support.id, user_id: id, is_accepted: true },
      ])
      .execute()
    const message = await db.insertInto('messages').values({ channel_id: direct.id, user_id: id, body: 'Shall we walk on Saturday?', media_id: photo.id }).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('messages').values({ channel_id: support.id, user_id: id, body: 'My phone number is +1 503 555 0177' }).execute()
    await db.insertInto('messages').values({ channel_id: othersSupport.id, user_id: null, is_system: true, body: 'Happy to help', answered_by: id }).execute()

    await db
      .insertInto('reports')
      .values([
        { reporter_id: id, reported_user_id: other.id, reason: 'fake_or_scam', details: 'Asked me for gift cards' },
        { reporter_id: other.id, reported_user_id: id, message_id: message.id, channel_id: direct.id, reason: 'inappropriate_or_offensive' },
        { reporter_id: other.id, reported_user_id: host.id, reason: 'something_else', resolved_by: id, resolved_at: new Date(), outcome: 'dismissed' },
      ])
      .execute()
    await db
      .insertInto('audit_log')
      .values([
        { actor_id: id, action: 'user.sign_out_everywhere', target_type: 'user', target_id: id },
        { actor_id: host.id, impersonator_id: id, action: 'experience.update', target_type: 'experience', target_id: upcoming.id },
      ])
      .execute()
    await db.insertInto('email_outbox').values({ to_address: member.email!, subject: 'Your reminder', text_body: 'Hello Ann', kind: 'notification', locale: 'en' }).execute()
    return { member, other, host, past, upcoming, direct, support, message }
  }

  /** How many rows of each declared column name `memberId`. */
  async function rowsNaming(memberId: string) {
    const counts: Record<string, number> = {}
    for (const { table, column } of memberColumnList()) {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE ${sql.ref(column)}::text = ${memberId}`.execute(database.db)
      counts[`${table}.${column}`] = rows[0]!.n
    }
    return counts
  }

  it('erases and anonymizes every row that names them, keeps the shared history under the generic label', async () => {
    const { member, other, direct, support, message } = await memberEverywhere()
    const before = await rowsNaming(member.id)
    // The test itself covers every column of the list: a new one needs a row above.
    expect(Object.entries(before).filter(([, n]) => n === 0).map(([column]) => column), 'columns the test gave no row').toEqual([])

    const token = await api.signToken(member.id)
    expect((await api.request('DELETE', `v1/users/${member.id}`, { token })).status).toBe(204)

    const after = await rowsNaming(member.id)
    const fates = new Map(memberColumnList().map((entry) => [`${entry.table}.${entry.column}`, entry.fate]))
    const stillNaming = Object.entries(after).filter(([column, n]) => n > 0 && fates.get(column) !== 'keep')
    expect(stillNaming, 'rows still naming the deleted member').toEqual([])

    // Kept on purpose, and still there: their past seat, their message to the other member (its
    // photo gone), the report about them, the audit trail.
    expect(after).toMatchObject({ 'experience_attendees.user_id': 1, 'messages.user_id': 1, 'reports.reported_user_id': 1, 'experiences.host_id': 1 })
    expect(after['audit_log.actor_id']).toBeGreaterThanOrEqual(2) // theirs, and the deletion's own
    const kept = await database.db.selectFrom('messages').select(['body', 'media_id']).where('id', '=', message.id).executeTakeFirstOrThrow()
    expect(kept).toEqual({ body: 'Shall we walk on Saturday?', media_id: null })
    // Their support conversation is gone; the direct one stays with the other member.
    expect(await database.db.selectFrom('message_channels').select('id').where('id', '=', support.id).execute()).toEqual([])
    expect(await database.db.selectFrom('message_channels').select('created_by').where('id', '=', direct.id).executeTakeFirstOrThrow()).toEqual({ created_by: null })
    // Reports they filed stay, without them.
    const filed = await database.db.selectFrom('reports').select(['reporter_id', 'details']).where('reported_user_id', '=', other.id).execute()
    expect(filed).toEqual([{ reporter_id: null, details: 'Asked me for gift cards' }])
    // Rows that name them by address rather than by id.
    expect(await database.db.selectFrom('email_outbox').select('id').where('to_address', '=', member.email!).execute()).toEqual([])
    expect(await database.db.selectFrom('sms_outbox').select('id').where('to_number', '=', member.phone!).execute()).toEqual([])
    // Their permission to be called about Medicare ended with the account; the record stays without the number or the topics.
    const consent = await database.db.selectFrom('medicare_consents').select(['id', 'phone', 'phone_last4', 'topics', 'user_agent', 'text_shown']).where('user_id', '=', member.id).executeTakeFirstOrThrow()
    expect(consent).toMatchObject({ phone: null, phone_last4: '0177', topics: [], user_agent: null, text_shown: 'I agree' })
    expect(await database.db.selectFrom('medicare_consent_revocations').select('method').where('consent_id', '=', consent.id).executeTakeFirstOrThrow()).toEqual({ method: 'account_deleted' })
  })

  it('names them nowhere new afterwards: the attendance survey skips a deleted member’s past seat', async () => {
    const db = database.db
    const host = await createUser(db)
    const member: User = await createUser(db)
    const ended = await createExperience(db, host.id, { start_at: inHours(-3), end_at: inHours(-1), attendees_count: 1 })
    await db.insertInto('experience_attendees').values({ experience_id: ended.id, user_id: member.id }).execute()
    expect((await api.request('DELETE', `v1/users/${member.id}`, { token: await api.signToken(member.id) })).status).toBe(204)

    const { notify } = testNotifier(db)
    await askAttendance(db, notify)
    expect(await db.selectFrom('popups').select('id').where('user_id', '=', member.id).execute()).toEqual([])
    expect(await db.selectFrom('notifications').select('id').where('user_id', '=', member.id).execute()).toEqual([])
  })
})
