import { randomBytes } from 'node:crypto'
import { hash } from '@node-rs/argon2'
import type { Browser, Page } from '@playwright/test'
import { createDatabase } from '../../api/db/database.ts'
import type { NewUser } from '../../api/db/schema.ts'
import { openActivityChat } from '../../api/chat/queries.ts'
import { createExperience, createUser } from '../factories.ts'
import { newVisitor, password, signedInEmail, signInOverHttp, uniqueEmail } from './helpers.ts'

/**
 * Test data made with the API tests' factories (tests/factories.ts), in the end-to-end server's own
 * database (scripts/e2e.ts gives its address): a fresh member for the test that needs one, instead
 * of signing one up through the pages (the sign-up tests do that) or sharing a demo member.
 */
let database: ReturnType<typeof createDatabase> | undefined
/** The end-to-end server's database, for specs that build their scene in it. */
export function db() {
  const url = process.env.E2E_DATABASE_URL
  if (!url) throw new Error('Run through scripts/e2e.ts, which gives the server’s database')
  database ??= createDatabase(url, { max: 2 })
  return database.db
}

/** The shared test password's hash, made once per worker (argon2id with the app's settings). */
let passwordHash: Promise<string> | undefined

/**
 * A new member who has finished "Get started" (active, onboarded, in English), with the test
 * password: sign them in with `signInOverHttp(context, email)`.
 */
export async function freshMember(overrides: Partial<NewUser> = {}) {
  const email = overrides.email ?? uniqueEmail()
  const user = await createUser(db(), { email, first_name: 'Maria', last_name: 'Testing', ...overrides })
  await db()
    .insertInto('credentials')
    .values({ user_id: user.id, password_hash: await (passwordHash ??= hash(password)) })
    .execute()
  return { id: user.id, email, firstName: user.first_name, lastName: user.last_name, slug: user.slug }
}

/**
 * A fresh member, signed in in `page`'s browser context: for the tests where signing up is not
 * the point (the sign-up and onboarding tests go through the pages with `signUp`).
 */
export async function signedInFreshMember(page: Page, overrides: Partial<NewUser> = {}) {
  const member = await freshMember(overrides)
  await signInOverHttp(page.context(), member.email)
  return { ...member, password }
}

/** A fresh member signed in in a new browser context of their own, JavaScript off unless asked. */
export async function freshMemberPage(browser: Browser, options: { js?: boolean } = {}, overrides: Partial<NewUser> = {}) {
  const member = await freshMember(overrides)
  return { page: await signedInPage(browser, member.email, options), member: { ...member, password } }
}

/**
 * An activity published by the member signed in in `page` (in Portland, as the create form's
 * tests publish theirs), made as the API makes one: the row and its group chat with its host in it.
 * The page then shows it, as after publishing. For tests where creating it is not the point (the
 * create form is tested in activities.spec.ts and the journeys).
 */
export async function publishedActivity(page: Page, activity: { title: string; capacity?: number; feeCents?: number; startsInMs?: number }) {
  const host = await db().selectFrom('users').select('id').where('email', '=', signedInEmail(page)).executeTakeFirstOrThrow()
  const step = 5 * 60_000
  const start = new Date(Math.ceil((Date.now() + (activity.startsInMs ?? 3 * 86_400_000)) / step) * step)
  const id = await db()
    .transaction()
    .execute(async (trx) => {
      const row = await createExperience(trx, host.id, {
        title: activity.title,
        description: 'We meet at the pavilion and walk for an hour.',
        start_at: start,
        end_at: new Date(start.getTime() + 2 * 3_600_000),
        ...(activity.capacity ? { max_attendees: activity.capacity } : {}),
        ...(activity.feeCents ? { no_show_fee_cents: activity.feeCents } : {}),
      })
      await openActivityChat(trx, row, host.id)
      return row.id
    })
  await page.goto(`/activities/${id}`)
  return id
}

/** A member made by `freshMember` (the test password), signed in in a new browser context, JavaScript off unless asked. */
export async function signedInPage(browser: Browser, email: string, options: { js?: boolean } = {}) {
  const context = await newVisitor(browser, { javaScriptEnabled: options.js ?? false })
  await signInOverHttp(context, email)
  return context.newPage()
}

/** A US number for one test: 202-555 and four random digits (a clash is one chance in ten thousand per pair). */
export function uniquePhone() {
  return `+1202555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`
}

const HOUR = 3_600_000

/**
 * The post-activity survey's scene (decision 046): an activity in Portland that ended two hours
 * ago, hosted by one fresh member and attended by another.
 */
export async function surveyScene(title: string) {
  const host = await freshMember({ first_name: 'Rosa', last_name: 'Delgado' })
  const attendee = await freshMember({ first_name: 'Hélène', last_name: 'Van Acker' })
  const start = new Date(Date.now() - 4 * HOUR)
  const experience = await createExperience(db(), host.id, {
    title,
    description: 'Tea, scones and a slow stroll among the roses.',
    max_attendees: null,
    start_at: start,
    end_at: new Date(start.getTime() + 2 * HOUR),
    attendees_count: 1,
  })
  await db().insertInto('experience_attendees').values({ experience_id: experience.id, user_id: attendee.id }).execute()
  return { host, attendee, id: experience.id }
}

/**
 * The text messages' scene (decision 049): a one-seat activity in three days; `attendee` holds
 * the seat, has a phone not confirmed yet and was texted `reminder` about it an hour ago; `waiting`
 * is first on the notify list.
 */
export async function textedReminderScene(title: string, reminder: string) {
  const host = await freshMember({ first_name: 'Walter', last_name: 'Brooks' })
  const phone = uniquePhone()
  const attendee = await freshMember({ first_name: 'Margaret', last_name: 'Hughes', phone })
  const waiting = await freshMember({ first_name: 'Joost', last_name: 'de Vries' })
  const start = new Date(Math.ceil((Date.now() + 3 * 24 * HOUR) / HOUR) * HOUR)
  const experience = await createExperience(db(), host.id, { title, max_attendees: 1, attendees_count: 1, start_at: start, end_at: new Date(start.getTime() + 2 * HOUR) })
  await db().insertInto('experience_attendees').values({ experience_id: experience.id, user_id: attendee.id }).execute()
  await db().insertInto('waitlist_entries').values({ experience_id: experience.id, user_id: waiting.id }).execute()
  await db()
    .insertInto('sms_outbox')
    .values({ user_id: attendee.id, to_number: phone, body: reminder, kind: 'reminder', locale: 'en', experience_id: experience.id, created_at: new Date(Date.now() - HOUR) })
    .execute()
  return { host, attendee, waiting, id: experience.id }
}

/**
 * A card the member saved earlier, as the built-in hosted card page leaves it (decision 073): Visa
 * •••• 4242 (or another of Stripe's test Visas by its last four: 3184 always wants the member to
 * confirm), their default, in the built-in bank's vault. `who` is the member's id or email.
 */
export async function savedCard(who: string, last4 = '4242') {
  const user = await db().selectFrom('users').select('id').where(who.includes('@') ? 'email' : 'id', '=', who).executeTakeFirstOrThrow()
  const customer = `cus_builtin_${user.id}`
  const token = `card_${randomBytes(12).toString('hex')}`
  const card = { brand: 'visa' as const, last4, exp_month: 8, exp_year: 2040 }
  await db().insertInto('payment_customers').values({ user_id: user.id, provider: 'builtin', customer_ref: customer }).onConflict((conflict) => conflict.doNothing()).execute()
  await db().insertInto('builtin_vault_cards').values({ token, customer, ...card }).execute()
  await db().updateTable('payment_methods').set({ is_default: false }).where('user_id', '=', user.id).execute()
  await db().insertInto('payment_methods').values({ user_id: user.id, provider: 'builtin', provider_ref: token, is_default: true, ...card }).execute()
}
