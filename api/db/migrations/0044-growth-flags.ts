import { sql, type Kysely } from 'kysely'

/**
 * Flags for what issue 33 shipped (issue 32 §3: "use flags for the features this issue and the
 * next ones ship"), both on, so nothing changes until an admin narrows them at `/admin/flags`:
 * - `referrals` (decision 087): "Invite a friend", `/referrals` and the referral banner; evaluated
 *   for the member whose invite it is, so their links stop counting and crediting too.
 * - `medicare-calls` (decision 086): whether calls about Medicare plans are offered. Off never
 *   hides a consent in force nor its stop.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    INSERT INTO feature_flags (key, description, enabled)
      VALUES
        ('referrals', 'Members invite friends (decision 087): "Invite a friend" on activities, the Invite friends page, the referral banner; their links count and credit. Off: none of it is offered (/referrals is not found, the API answers 404), links already sent still open the activity or Home but count and credit nothing.', true),
        ('medicare-calls', 'Calls about Medicare plans are offered (decision 086). Off: nothing is offered (onboarding and /account/medicare say so, a new consent is refused); a member with a consent in force still sees it and can stop it, and the agency''s list still holds it.', true)
      ON CONFLICT (key) DO NOTHING`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`DELETE FROM feature_flags WHERE key IN ('referrals', 'medicare-calls')`.execute(db)
}
