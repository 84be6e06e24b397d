import { sql } from 'kysely'
import type { DB } from '../db/database.ts'
import type { Database } from '../db/schema.ts'

/**
 * What deleting an account does with every column that names a member (issue 30 §4, decision
 * 068): one list, read by `deleteAccount` (api/users/account.ts) and by member-data.test.ts, which
 * reads the database's own catalogue and fails on a column that names a member and is not here.
 *
 * - `erase`: the rows naming the member there are deleted.
 * - `anonymize`: the column is set to null; the row stays for someone else.
 * - `keep`: the rows stay as they are, naming the tombstone (the `users` row, kept with state
 *   `deleted` and none of its personal columns, decision 028), for the reason given.
 *
 * Rules run first, in `deleteAccount`: the activities the member hosts that have not started are
 * cancelled (their attendees told), their seats at those not started are given back to the notify
 * list, their pending identity check and its photos are ended, their files removed, their support
 * conversation deleted. Rows these leave behind then meet their fate below.
 */
export type MemberDataFate = { fate: 'erase' | 'anonymize' | 'keep'; why: string }

const erase = (why: string): MemberDataFate => ({ fate: 'erase', why })
const anonymize = (why: string): MemberDataFate => ({ fate: 'anonymize', why })
const keep = (why: string): MemberDataFate => ({ fate: 'keep', why })

type MemberColumns = { [T in keyof Database]?: { [C in keyof Database[T] & string]?: MemberDataFate } }

export const memberColumns = {
  // --- The member's own data ---------------------------------------------------------------
  profiles: { user_id: erase('Their profile: bio, family, work, what they show.') },
  user_interests: { user_id: erase('Their interests.') },
  profile_prompts: { user_id: erase('Their answers to the profile prompts.') },
  media: {
    owner_id: erase('Their photos (avatar, covers, verification and message photos); the files go after the commit.'),
    impersonator_id: keep('The team member who uploaded a photo while acting for another member: the record stays with that photo.'),
  },
  banners: { created_by: keep('The admin who wrote a banner: the audit log keeps every change, and this says who on the banner itself.') },
  feature_flags: { updated_by: keep('The admin who last changed a flag: the audit log keeps every change, and this says who on the flag itself.') },
  impersonations: {
    subject_id: erase('The times the team viewed Circle 55 as them go with their account (the audit log keeps what was done, under the tombstone).'),
    actor_id: keep('A team member who viewed Circle 55 as someone else: that record of the team’s access stays with the member viewed.'),
  },
  verifications: {
    user_id: erase('Their identity checks; the encrypted document and selfie are deleted first.'),
    reviewed_by: keep('The admin who decided someone else’s check: the record of who decided stays with that member’s check.'),
  },
  medicare_consents: {
    user_id: keep('Their permissions to be called about Medicare plans (decision 086): evidence of what was agreed, to whom and when, and that it ended. Deleting the account ends any in force first and blanks the phone number (its last four digits stay), the topics and the browser.'),
  },
  medicare_partners: {
    created_by: keep('The team member who named a Medicare agency: the audit log keeps every change, and this says who on the agency itself.'),
    updated_by: keep('The team member who last changed a Medicare agency’s details: the audit log keeps every change.'),
  },
  analytics_events: { user_id: erase('Their page views and product events (decision 081); the daily aggregates name nobody and stay.') },
  credentials: { user_id: erase('Their password hash.') },
  web_sessions: { user_id: erase('Their sessions: a copied cookie stops working.') },
  devices: { user_id: erase('Their browsers’ push subscriptions.') },
  payment_methods: { user_id: erase('Their cards (token, brand, last four digits); each is forgotten at the provider first.') },
  payment_customers: { user_id: erase('Their customer id at the payments provider.') },
  card_setups: { user_id: erase('Each “Add a card” they started.') },
  fee_consents: {
    user_id: keep('Their agreements to no-show fees: the evidence of a fee charged or disputed (accounting records), under the account’s tombstone, naming nothing but the card’s last four digits.'),
  },
  no_show_fees: {
    user_id: keep('Their no-show fees (accounting records). Their cards are forgotten at the provider first, so a fee not yet charged can no longer be, and is dropped after 14 days.'),
    waived_by: keep('The team member who waived someone else’s fee: the record of who decided stays with that fee.'),
    refunded_by: keep('The team member who refunded someone else’s fee: the record of who gave the money back stays with that fee.'),
  },
  attendance_marks: {
    user_id: keep('Whether they came to a past activity, as its host said: part of the activity’s history, shown under the generic member label.'),
    marked_by: keep('The host who said who came: part of that activity’s history.'),
  },
  builtin_checkout_sessions: { user_id: erase('The built-in hosted card page’s sessions they opened.') },
  subscriptions: {
    user_id: erase('Their premium plan (decision 074). Charges and invoices stay with the provider (accounting records).'),
  },
  subscription_consents: {
    user_id: erase('Their consents to premium’s automatic renewal go with their plan (the rows cascade with it).'),
  },
  notification_global_settings: { user_id: erase('Their notification switches.') },
  notification_workflow_settings: { user_id: erase('Their notification switches per topic.') },
  notifications: { user_id: erase('Their own notifications (others’ that mention them stay with those members).') },
  popups: { user_id: erase('Their “Did you go?” and other popups.') },
  sms_outbox: { user_id: erase('Texts sent to them (their number, codes included).') },
  experience_reminders: { user_id: erase('The record of each reminder sent to them.') },
  surveys: { user_id: erase('Their answers: whether they went, their rating and comment. The host’s results count one answer fewer, as if they had not answered.') },
  attendance_cancellations: { user_id: erase('Their canceled seats (recorded by the cancellations above too); only the host’s attendee export reads them, and it leaves deleted members out.') },
  waitlist_entries: { user_id: erase('Their places on notify lists.') },
  experience_invitations: {
    user_id: erase('Invitations they received.'),
    invited_by: keep('Says whether the host or the team invited someone else (“invited by the host”); the invitation is that member’s.'),
  },
  blocks: {
    blocker_id: erase('Whom they blocked.'),
    blocked_id: erase('Who blocked them: with the account gone there is nobody left to keep away.'),
  },
  referrals: {
    referrer_id: erase('Whom they brought with their invite link.'),
    referred_user_id: anonymize('Someone else’s referral that brought them: the referrer keeps the count, not who it was.'),
  },
  referral_codes: { user_id: erase('Their invite code, its click count and whether the banner may show their first name.') },
  referral_signals: { user_id: erase('The keyed hashes of the browsers and internet addresses they signed in from (referral checks, decision 087).') },
  signup_attributions: { user_id: erase('The campaign their account came from (utm_source, utm_medium, utm_campaign).') },
  friend_invitations: {
    inviter_id: erase('The addresses they invited to activities with “Invite a friend” (keyed hashes only).'),
    email_hash: keep('A keyed hash of an address someone else invited, never the address: it only stops that inviter emailing it twice for one activity, and cannot be read back to a member.'),
  },
  // --- Shared history ----------------------------------------------------------------------
  experiences: {
    host_id: keep('Activities they hosted that had started (the others are canceled first): part of their attendees’ history, the host shown under the generic member label.'),
    canceled_by: keep('Who canceled an activity, the host or the team: its attendees’ page and emails say which.'),
  },
  experience_attendees: {
    user_id: keep('Seats at activities that had started (the others are given back first): the attendee list still agrees with its count, shown under the generic member label (decision 028).'),
  },
  message_channels: {
    created_by: anonymize('Conversations they opened stay with the other members; their own support conversation is deleted first.'),
  },
  channel_memberships: {
    user_id: keep('Their place in conversations with others: a direct conversation finds its other member here and shows them under the generic member label.'),
  },
  messages: {
    user_id: keep('What they wrote stays in the other members’ conversations, under the generic member label, as a letter stays with whoever received it; moderation needs it when one of them reports a scam.'),
    answered_by: keep('The admin who answered a support conversation: kept for the team, never shown to members.'),
  },
  // --- Moderation and accountability ---------------------------------------------------------
  reports: {
    reporter_id: anonymize('Reports they filed stay for moderation (about someone else); they are no longer named as who reported.'),
    reported_user_id: keep('Reports about them are moderation records about abuse: kept, with their snapshot, if the person comes back or the police ask.'),
    resolved_by: keep('The admin who handled a report: part of the moderation record.'),
  },
  audit_log: {
    actor_id: keep('What was done and by whom (security, moderation): ids, actions and times, nothing personal.'),
    impersonator_id: keep('The staff member who acted as someone else: always recorded.'),
    target_id: keep('What an action was done to; for a member, their id (the deletion’s own record among them).'),
  },
} as const satisfies MemberColumns

export type MemberColumn = { table: string; column: string } & MemberDataFate

/** Every column of `memberColumns`, with its fate. */
export function memberColumnList(): MemberColumn[] {
  return Object.entries(memberColumns).flatMap(([table, columns]) =>
    Object.entries(columns as Record<string, MemberDataFate | undefined>).flatMap(([column, fate]) => (fate ? [{ table, column, ...fate }] : [])),
  )
}

/**
 * Erases and anonymizes what `memberColumns` says, in `trx` (the deletion's transaction), once
 * the rules above have run.
 */
export async function applyMemberColumns(trx: DB, memberId: string) {
  for (const { table, column, fate } of memberColumnList()) {
    if (fate === 'erase') await sql`DELETE FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${memberId}`.execute(trx)
    else if (fate === 'anonymize') await sql`UPDATE ${sql.table(table)} SET ${sql.ref(column)} = NULL WHERE ${sql.ref(column)} = ${memberId}`.execute(trx)
  }
}
