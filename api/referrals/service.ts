import { createHmac, randomInt } from 'node:crypto'
import { sql } from 'kysely'
import {
  referralCodeAlphabet,
  referralCodeLength,
  normalizeReferralCode,
  cleanCampaignValue,
} from '#contract/referral-code.ts'
import type {
  Attribution,
  AttributionResult,
  ReferralBanner,
  ReferralSettings,
  ReferralSummary,
} from '#contract/referrals.ts'
import type { DB, Trx } from '../db/database.ts'
import { isOn } from '../flags/service.ts'
import type { ReferralReason, ReferralSignalKind, User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import type { Notify } from '../notifications/service.ts'
import { visibleMembers } from '../policy/members.ts'
import { requirePermission } from '../policy/permissions.ts'

/**
 * Referrals (issue 33 §1, decision 087): each member's invite code and link, what the referral
 * banner may say of them, the clicks, and the one place a referral is written (`settleReferral`):
 * a row when a new account followed someone's link, counted only when the new member is marked
 * present at a first activity, and never counted when the new account looks like the referrer's
 * own (the same member, address, browser, card or internet address). Research §3's pitfall
 * (origin #4250): a second code path that writes referrals without the checks. There is none.
 */

/**
 * The `referrals` feature flag (migration 0044, decision 087), on unless an admin narrows it. It is
 * evaluated for the member whose invite it is: off, they are offered none of it (their calls here
 * answer 404 like a page that does not exist), and their links already sent still lead where they
 * lead but are not counted, name nobody, and credit nothing.
 */
export const referralsFlag = 'referrals'

/** Whether referrals are on for `member` (the flag's rules read their role, region and language). */
export function referralsOn(db: DB, member: Parameters<typeof isOn>[1]) {
  return isOn(db, member, referralsFlag, true)
}

/** Referrals off for the caller: answered as an address that does not exist. */
async function requireReferralsOn(db: DB, caller: User) {
  if (!(await referralsOn(db, caller))) throw problems.notFound('Not found.')
}

/**
 * Whether referrals are on for the member `userId` (read in `trx`), asked of `db`'s flags (a
 * transaction has no flags of its own).
 */
async function referralsOnForId(db: DB, trx: DB | Trx, userId: string) {
  const member = await trx
    .selectFrom('users')
    .select(['id', 'staff_role', 'banned', 'is_suspended', 'state', 'region', 'locale'])
    .where('id', '=', userId)
    .executeTakeFirst()
  return member ? referralsOn(db, member) : false
}

/** A new account's invite and campaign are recorded at most this long after the account was made. */
export const attributionWindowMs = 24 * 60 * 60 * 1000
/** How many of a member's browsers and internet addresses are kept (the latest), and for how long. */
const signalsKept = 20
const signalDays = 180
/** How far up the chain of who-brought-whom a new account is compared (a ring of one's own accounts). */
const chainDepth = 5

/** A keyed hash (HMAC-SHA-256) of a value for one purpose: it cannot be worked back, nor matched without the server's secret. */
export function keyedHash(secret: string, purpose: string, value: string) {
  return createHmac('sha256', secret).update(`${purpose}\u0000${value}`).digest('base64url')
}

/**
 * An email address as a person's mailbox: lower-case, without a `+tag`, and for Gmail without the
 * dots Gmail ignores (googlemail.com is gmail.com). Two addresses that read the same here reach the
 * same person.
 */
export function normalizeEmail(email: string) {
  const [local = '', domain = ''] = email
    .trim()
    .toLowerCase()
    .split(/@(?=[^@]*$)/)
  const gmail = domain === 'gmail.com' || domain === 'googlemail.com'
  const withoutTag = local.split('+')[0] ?? ''
  return `${gmail ? withoutTag.replace(/\./g, '') : withoutTag}@${gmail ? 'gmail.com' : domain}`
}

/** A random code of the readable alphabet. */
function newCode() {
  let code = ''
  for (let index = 0; index < referralCodeLength; index++)
    code += referralCodeAlphabet[randomInt(referralCodeAlphabet.length)]
  return code
}

/** The member's invite code, made the first time it is asked for. */
export async function codeOf(db: DB | Trx, userId: string) {
  const existing = await db
    .selectFrom('referral_codes')
    .select(['code', 'show_first_name', 'clicks'])
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (existing) return existing
  for (let attempt = 0; attempt < 5; attempt++) {
    // A code another member holds is tried again; the member's own row made meanwhile wins.
    await db
      .insertInto('referral_codes')
      .values({ user_id: userId, code: newCode() })
      .onConflict((oc) => oc.doNothing())
      .execute()
    const made = await db
      .selectFrom('referral_codes')
      .select(['code', 'show_first_name', 'clicks'])
      .where('user_id', '=', userId)
      .executeTakeFirst()
    if (made) return made
  }
  throw new Error('No free invite code after five tries')
}

/** `GET v1/users/me/referrals`. */
export async function referralSummary(
  db: DB,
  caller: User,
  publicUrl: string,
): Promise<ReferralSummary> {
  requirePermission(caller, 'read:referrals')
  await requireReferralsOn(db, caller)
  const code = await codeOf(db, caller.id)
  const counts = await db
    .selectFrom('referrals')
    .select([
      sql<number>`count(*)::int`.as('joined'),
      sql<number>`count(*) FILTER (WHERE status = 'qualified')::int`.as('attended'),
    ])
    .where('referrer_id', '=', caller.id)
    .executeTakeFirstOrThrow()
  return {
    code: code.code,
    link: `${publicUrl}/i/${code.code}`,
    show_first_name: code.show_first_name,
    clicks: code.clicks,
    joined: counts.joined,
    attended: counts.attended,
    // No reward exists (decision 087). Should one come, it is said here, and every share text says it.
    incentive: null,
  }
}

/** `PUT v1/users/me/referrals`: whether the banner names the caller. */
export async function updateReferralSettings(
  db: DB,
  caller: User,
  settings: ReferralSettings,
  publicUrl: string,
) {
  requirePermission(caller, 'update:referrals')
  await requireReferralsOn(db, caller)
  await codeOf(db, caller.id)
  await db
    .updateTable('referral_codes')
    .set({ show_first_name: settings.show_first_name })
    .where('user_id', '=', caller.id)
    .execute()
  return referralSummary(db, caller, publicUrl)
}

/** The member whose code this is, if others may see them (not suspended, banned or deleted). */
async function referrerOf(db: DB | Trx, input: string) {
  const code = normalizeReferralCode(input)
  if (!code) return undefined
  return db
    .selectFrom('referral_codes as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select(['c.user_id', 'c.code', 'c.show_first_name', 'u.first_name'])
    .where('c.code', '=', code)
    .where(visibleMembers('u'))
    .executeTakeFirst()
}

const noSuchCode = () => problems.notFound('No such invite code.')

/** `GET v1/referrals/{code}`: the first name only if its member allowed it; nothing else of them, ever. */
export async function referralBanner(
  db: DB,
  caller: User | null,
  input: string,
): Promise<ReferralBanner> {
  requirePermission(caller, 'read:referral:banner')
  const referrer = await referrerOf(db, input)
  // Referrals off for its member: the code is answered as nobody's (no banner, nothing kept).
  if (!referrer || !(await referralsOnForId(db, db, referrer.user_id))) throw noSuchCode()
  const firstName = referrer.first_name?.trim()
  return { first_name: referrer.show_first_name && firstName ? firstName : null }
}

/** `POST v1/referrals/{code}/clicks`: the link was opened (a count; nobody is told, so replaying it spams nobody). */
export async function recordClick(db: DB, caller: User | null, input: string) {
  requirePermission(caller, 'read:referral:banner')
  const code = normalizeReferralCode(input)
  // Referrals off for its member: not counted, and answered as nobody's code (the web keeps nothing).
  const referrer = code ? await referrerOf(db, code) : undefined
  if (referrer && !(await referralsOnForId(db, db, referrer.user_id))) throw noSuchCode()
  const updated = code
    ? await db
        .updateTable('referral_codes')
        .set((eb) => ({ clicks: eb('clicks', '+', 1) }))
        .where('code', '=', code)
        .where('clicks', '<', 2_000_000_000)
        .executeTakeFirst()
    : undefined
  if (!updated || updated.numUpdatedRows === 0n) throw noSuchCode()
}

// Signals and sign-up -----------------------------------------------------------------------------

export interface AttributionDeps {
  db: DB
  notify: Notify
  /** Keys the hashes of browsers, internet addresses and invited addresses. */
  secret: string
}

/** Keeps the keyed hash of a browser or an internet address the member came from (the latest 20, for 180 days). */
async function recordSignal(
  trx: Trx,
  secret: string,
  userId: string,
  kind: ReferralSignalKind,
  value: string | undefined,
) {
  if (!value) return
  const hash = keyedHash(secret, `referral-${kind}`, value)
  await trx
    .insertInto('referral_signals')
    .values({ user_id: userId, kind, hash })
    .onConflict((oc) =>
      oc.columns(['user_id', 'kind', 'hash']).doUpdateSet({ seen_at: new Date() }),
    )
    .execute()
  await sql`
    DELETE FROM referral_signals WHERE user_id = ${userId} AND kind = ${kind} AND (
      seen_at < now() - make_interval(days => ${signalDays})
      OR hash NOT IN (SELECT hash FROM referral_signals WHERE user_id = ${userId} AND kind = ${kind} ORDER BY seen_at DESC LIMIT ${signalsKept}))`.execute(
    trx,
  )
}

/**
 * `POST v1/users/me/attribution`, sent by the web app at every sign-in: the browser and internet
 * address are kept (hashed) for the checks. Once per account, within a day of it being made, the
 * campaign it came from is recorded, and the referral when it followed someone's invite link.
 */
export async function recordAttribution(
  deps: AttributionDeps,
  caller: User,
  input: Attribution,
  now = new Date(),
): Promise<AttributionResult> {
  requirePermission(caller, 'update:user', { id: caller.id })
  const { db, secret } = deps
  return db.transaction().execute(async (trx) => {
    await recordSignal(trx, secret, caller.id, 'device', input.device)
    await recordSignal(trx, secret, caller.id, 'address', input.address)
    if (now.getTime() - caller.created_at.getTime() > attributionWindowMs) return { sign_up: false }
    const first = await trx
      .insertInto('signup_attributions')
      .values({
        user_id: caller.id,
        utm_source: cleanCampaignValue(input.utm_source),
        utm_medium: cleanCampaignValue(input.utm_medium),
        utm_campaign: cleanCampaignValue(input.utm_campaign),
      })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .returning('user_id')
      .executeTakeFirst()
    if (!first) return { sign_up: false }
    const referrer = input.referral_code ? await referrerOf(trx, input.referral_code) : undefined
    if (referrer)
      await settleReferral(
        { ...deps, db: trx, flags: db },
        {
          kind: 'signed_up',
          referrerId: referrer.user_id,
          memberId: caller.id,
          experienceId: input.experience_id ?? null,
        },
      )
    return { sign_up: true }
  })
}

// The one writer ------------------------------------------------------------------------------------

export type ReferralEvent =
  /** A new account followed `referrerId`'s invite link (`experienceId`: the activity it was for). */
  | { kind: 'signed_up'; referrerId: string; memberId: string; experienceId: string | null }
  /** The host marked `memberId` present at `experienceId`. */
  | { kind: 'attended'; memberId: string; experienceId: string }

/**
 * Every write to `referrals` (decision 087). A sign-up makes the row: `signed_up`, or
 * `not_counted` with the reason when the new account looks like the referrer's own. Attending
 * re-checks (a card or browser may have been added since) and makes it `qualified` once, telling
 * the referrer once; a second activity, or the host marking it again, changes nothing.
 */
export async function settleReferral(
  deps: {
    db: Trx
    /** The database whose flags are asked (the `referrals` flag, for the referrer). */
    flags: DB
    notify: Notify
  },
  event: ReferralEvent,
) {
  const { db, notify } = deps
  if (event.kind === 'signed_up') {
    // Referrals off for the referrer: the sign-up is not theirs to count (nothing is written).
    if (!(await referralsOnForId(deps.flags, db, event.referrerId))) return
    const reason = await lookalikeReason(db, event.referrerId, event.memberId)
    await db
      .insertInto('referrals')
      .values({
        referrer_id: event.referrerId,
        referred_user_id: event.memberId,
        experience_id: event.experienceId,
        status: reason ? 'not_counted' : 'signed_up',
        reason,
      })
      .onConflict((oc) => oc.column('referred_user_id').doNothing())
      .execute()
    return
  }
  const referral = await db
    .selectFrom('referrals')
    .select(['id', 'referrer_id'])
    .where('referred_user_id', '=', event.memberId)
    .where('status', '=', 'signed_up')
    .forUpdate()
    .executeTakeFirst()
  if (!referral) return
  // Referrals off for the referrer: not credited now (it stays `signed_up`; a later first activity
  // counts if they are back on by then).
  if (!(await referralsOnForId(deps.flags, db, referral.referrer_id))) return
  const reason = await lookalikeReason(db, referral.referrer_id, event.memberId)
  if (reason) {
    await db
      .updateTable('referrals')
      .set({ status: 'not_counted', reason })
      .where('id', '=', referral.id)
      .execute()
    return
  }
  const now = new Date()
  await db
    .updateTable('referrals')
    .set({
      status: 'qualified',
      qualified_at: now,
      qualifying_experience_id: event.experienceId,
      referrer_told_at: now,
    })
    .where('id', '=', referral.id)
    .execute()
  await notify(
    { type: 'referral.qualified', to: [referral.referrer_id], data: { referral_id: referral.id } },
    db,
  )
}

/**
 * Why the new account is not counted, or null: it is the referrer (or someone above them in the
 * chain of who brought whom, which would be a ring of one's own accounts), or shares with them a
 * mailbox (the normalised address), a browser, a payment card, or an internet address (a
 * household's; the only address we hold that is finer than a city).
 */
async function lookalikeReason(
  db: DB | Trx,
  referrerId: string,
  memberId: string,
): Promise<ReferralReason | null> {
  const chain = await referrerChain(db, referrerId)
  if (chain.includes(memberId)) return 'self'
  const people = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('id', 'in', [memberId, ...chain])
    .execute()
  const emailOf = (id: string) => people.find((person) => person.id === id)?.email ?? null
  const memberEmail = emailOf(memberId)
  if (
    memberEmail &&
    chain.some((id) => emailOf(id) && normalizeEmail(emailOf(id)!) === normalizeEmail(memberEmail))
  )
    return 'same_email'
  if (await sharesSignal(db, 'device', memberId, chain)) return 'same_device'
  if (await sharesCard(db, memberId, chain)) return 'same_card'
  if (await sharesSignal(db, 'address', memberId, chain)) return 'same_address'
  return null
}

/** The referrer, who brought them, and so on up (at most `chainDepth`, never looping). */
async function referrerChain(db: DB | Trx, referrerId: string) {
  const chain = [referrerId]
  while (chain.length < chainDepth) {
    const above = await db
      .selectFrom('referrals')
      .select('referrer_id')
      .where('referred_user_id', '=', chain[chain.length - 1]!)
      .executeTakeFirst()
    if (!above || chain.includes(above.referrer_id)) break
    chain.push(above.referrer_id)
  }
  return chain
}

async function sharesSignal(
  db: DB | Trx,
  kind: ReferralSignalKind,
  memberId: string,
  others: string[],
) {
  const found = await db
    .selectFrom('referral_signals as mine')
    .innerJoin('referral_signals as theirs', (join) =>
      join.onRef('theirs.kind', '=', 'mine.kind').onRef('theirs.hash', '=', 'mine.hash'),
    )
    .select('mine.hash')
    .where('mine.user_id', '=', memberId)
    .where('mine.kind', '=', kind)
    .where('theirs.user_id', 'in', others)
    .executeTakeFirst()
  return found !== undefined
}

/**
 * The same card (removed ones too): we keep no card fingerprint (decision 073 stores only the
 * token, brand, last four digits and expiry), so a card is these four together, which two
 * different people's cards share very rarely.
 */
async function sharesCard(db: DB | Trx, memberId: string, others: string[]) {
  const found = await db
    .selectFrom('payment_methods as mine')
    .innerJoin('payment_methods as theirs', (join) =>
      join
        .onRef('theirs.brand', '=', 'mine.brand')
        .onRef('theirs.last4', '=', 'mine.last4')
        .onRef('theirs.exp_month', '=', 'mine.exp_month')
        .onRef('theirs.exp_year', '=', 'mine.exp_year'),
    )
    .select('mine.id')
    .where('mine.user_id', '=', memberId)
    .where('theirs.user_id', 'in', others)
    .executeTakeFirst()
  return found !== undefined
}
