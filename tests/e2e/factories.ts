import { hash } from '@node-rs/argon2'
import type { Browser, Page } from '@playwright/test'
import { createDatabase } from '../../api/db/database.ts'
import type { NewUser } from '../../api/db/schema.ts'
import { createUser } from '../factories.ts'
import { newVisitor, password, signInOverHttp, uniqueEmail } from './helpers.ts'

/**
 * Test data made with the API tests' factories (tests/factories.ts), in the end-to-end server's own
 * database (scripts/e2e.ts gives its address): a fresh member for the test that needs one, instead
 * of signing one up through the pages (the sign-up tests do that) or sharing a demo member.
 */
let database: ReturnType<typeof createDatabase> | undefined
function db() {
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
  const context = await newVisitor(browser, { javaScriptEnabled: options.js ?? false })
  const page = await context.newPage()
  return { page, member: await signedInFreshMember(page, overrides) }
}
