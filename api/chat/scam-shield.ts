import { sql } from 'kysely'
import type { DB, Trx } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { ApiProblem, problems } from '../http/errors.ts'
import { verifiedUserIds } from '../verification/queries.ts'
import { containsLink } from '#contract/links.ts'
import { containsContactDetails } from '#contract/scam-shield.ts'
import { newAccountDays, newConversationsPerDay } from '#contract/limits.ts'

/**
 * The scam shield's limits on the sender (issue 14 §6, decision 038), checked for every client.
 * - Opening a direct channel with someone one had no channel with *starts a conversation* (the
 *   other member sees a message request at once): a new or unverified member starts at most 5
 *   in any 24 hours (`openDirectChannel`, under the member's own lock).
 * - A direct channel's *opening messages* are those sent while the other member has not accepted
 *   it (replying accepts), or, in a conversation an attendee opened with their activity's host
 *   (accepted for the host at once, decision 060), until the host writes: in them a new or
 *   unverified member cannot share a link, and anyone sharing a phone number or email is
 *   reminded once (`sendMessage`).
 * The warning patterns (`scamSignals`) are for the reader and are not checked here.
 */

const DAY = 86_400_000

/** Under 14 days old, or not verified (their latest identity check was not approved). */
export async function isLimitedSender(db: DB | Trx, member: User, now = new Date()) {
  if (member.created_at.getTime() > now.getTime() - newAccountDays * DAY) return true
  const verified = await verifiedUserIds(db, [member.id])
  return !verified.has(member.id)
}

/**
 * Direct channels between two members that `memberId` opened in the last 24 hours (not the
 * product's or support's), and the seconds until the oldest of them leaves that window.
 */
async function conversationsStartedToday(db: DB | Trx, memberId: string) {
  const { rows } = await sql<{ count: number; frees_in: number | null }>`
    SELECT count(*)::int AS count,
      ceil(extract(epoch FROM min(created_at) + interval '24 hours' - now()))::int AS frees_in
    FROM message_channels
    WHERE created_by = ${memberId} AND kind = 'direct' AND created_at > now() - interval '24 hours'
      AND direct_key ~ '^[0-9a-f-]{36}:[0-9a-f-]{36}$'`.execute(db)
  return { count: rows[0]?.count ?? 0, freesInSeconds: Math.max(1, rows[0]?.frees_in ?? 1) }
}

/**
 * Before `openDirectChannel` makes a new channel, in its transaction: a new or unverified member
 * who already started 5 conversations in the last 24 hours is refused (429
 * `new_conversations_limit`, Retry-After when the oldest of them is 24 hours old). The member's
 * own lock is held until the channel is committed, so requests at once are counted one after the other.
 */
export async function checkNewConversation(trx: Trx, caller: User) {
  if (!(await isLimitedSender(trx, caller))) return
  await sql`SELECT pg_advisory_xact_lock(hashtext('chat:new-conversations'), hashtext(${caller.id}))`.execute(trx)
  const started = await conversationsStartedToday(trx, caller.id)
  if (started.count >= newConversationsPerDay) {
    throw problems.tooMany(
      'new_conversations_limit',
      `You can start ${newConversationsPerDay} new conversations a day while your account is new or not yet verified. Please try again tomorrow.`,
      started.freesInSeconds,
    )
  }
}

/** Whether the opening-message rules could apply to `text` at all (a link or contact details): saves a query on every other send. */
export function mayBeRefusedAsOpening(text: string) {
  return containsLink(text) || containsContactDetails(text)
}

/**
 * A conversation an attendee opened with the host of an activity they attend is accepted for the
 * host at once (not a message request, decision 060), but it is not one the host answered yet:
 * the attendee's messages stay opening messages until the host writes in it. True when
 * `senderId` holds a seat at an activity `otherId` hosts, the host did not open the channel and
 * has not written in it.
 */
export async function awaitsHostReply(db: DB | Trx, channelId: string, senderId: string, otherId: string) {
  const { rows } = await sql<{ awaits: boolean }>`SELECT (ch.created_by IS DISTINCT FROM ${otherId}
      AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.channel_id = ch.id AND m.user_id = ${otherId})
      AND EXISTS (SELECT 1 FROM experience_attendees a JOIN experiences e ON e.id = a.experience_id
        WHERE a.user_id = ${senderId} AND e.host_id = ${otherId})) AS awaits
    FROM message_channels ch WHERE ch.id = ${channelId}`.execute(db)
  return rows[0]?.awaits === true
}

/**
 * In `sendMessage`'s transaction, for an opening message: one in a direct channel whose other
 * member has not accepted it yet (`waitingFor` 'acceptance'), or an attendee's to a host who has
 * not replied yet ('reply', `awaitsHostReply`). Refuses a new or unverified member's link (422
 * `links_not_allowed_yet`, or `links_not_allowed_until_reply`, on `text`), and a phone number or
 * email until the member saw the one-time reminder (409 `contact_reminder`);
 * `acknowledge_contact_reminder` records it as seen and lets the message go.
 */
export async function checkOpeningMessage(
  trx: Trx,
  sender: User,
  otherName: string | null,
  input: { text: string; acknowledge_contact_reminder?: boolean | undefined },
  waitingFor: 'acceptance' | 'reply' = 'acceptance',
) {
  if (containsLink(input.text) && (await isLimitedSender(trx, sender))) {
    const name = otherName ?? 'the other member'
    throw waitingFor === 'reply'
      ? new ApiProblem(422, 'invalid_input', `Links can be shared once ${name} has replied.`, { text: ['links_not_allowed_until_reply'] })
      : new ApiProblem(422, 'invalid_input', `Links can be shared once ${name} has accepted your message request.`, { text: ['links_not_allowed_yet'] })
  }
  if (containsContactDetails(input.text) && !sender.contact_reminder_seen_at) {
    if (!input.acknowledge_contact_reminder) {
      throw new ApiProblem(
        409,
        'contact_reminder',
        'Sharing your phone number or email? Only share it with people you have met and trust. Send again with acknowledge_contact_reminder: true to send it.',
      )
    }
    await trx.updateTable('users').set({ contact_reminder_seen_at: new Date() }).where('id', '=', sender.id).execute()
  }
}
