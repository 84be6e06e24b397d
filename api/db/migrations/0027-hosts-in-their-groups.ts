import { sql, type Kysely } from 'kysely'

/**
 * Hosts in their activities' group chats (issue 29 §3, decision 060). From now on an activity's
 * group is made with the activity, its host in it; this brings the activities made before up to
 * that, without telling anyone (no notification, no message):
 * - every existing group gets its host as a member, unless the host has a membership already (one
 *   they left stays left: they chose to). What was asked in a group whose chat is still open is
 *   unread for the host (the questions they never saw); in a chat that closed (7 days after the
 *   activity ended or was cancelled) it is marked read, so old chats join the list without filling
 *   the badge.
 * - an activity whose chat is still open and has no group yet gets one, dated from the activity
 *   (so it takes its place in the host's list, not the top), with its host in it. Activities whose
 *   chat closed get none: nobody can write in it any more.
 * Hostless activities (no `host_id`) and deleted hosts are left alone. Running it again changes
 * nothing. The chat provider (Stream) receives these groups at their next change (decision 036).
 */
/** `chatClosesAt` (api/chat/service.ts) as of this migration: 7 days after the end (the start + 2 hours) or the cancellation; an undated activity never closes. */
const chatStillOpen = sql`(
  least(e.canceled_at, coalesce(e.end_at, e.start_at + interval '120 minutes')) IS NULL
  OR least(e.canceled_at, coalesce(e.end_at, e.start_at + interval '120 minutes')) + interval '7 days' > now()
)`

export async function up(db: Kysely<unknown>) {
  await sql`
    INSERT INTO message_channels (kind, experience_id, created_by, created_at)
    SELECT 'experience', e.id, e.host_id, e.created_at
    FROM experiences e
    JOIN users h ON h.id = e.host_id AND h.state <> 'deleted'
    WHERE ${chatStillOpen}
      AND NOT EXISTS (SELECT 1 FROM message_channels ch WHERE ch.experience_id = e.id)
    ON CONFLICT (experience_id) DO NOTHING
  `.execute(db)
  await sql`
    INSERT INTO channel_memberships (channel_id, user_id, is_accepted, last_read_at)
    SELECT ch.id, e.host_id, true, CASE WHEN ${chatStillOpen} THEN NULL ELSE now() END
    FROM message_channels ch
    JOIN experiences e ON e.id = ch.experience_id
    JOIN users h ON h.id = e.host_id AND h.state <> 'deleted'
    WHERE ch.kind = 'experience'
    ON CONFLICT (channel_id, user_id) DO NOTHING
  `.execute(db)
}

/** Nothing to undo: the memberships and groups are what the product makes anyway. */
export async function down(_db: Kysely<unknown>) {}
