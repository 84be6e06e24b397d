import { sql, type Kysely } from 'kysely'

/**
 * Referrals, "Invite a friend" and sign-up attribution (issue 33 §1, decision 087).
 *
 * - `referral_codes`: each member's one invite code (short, readable), whether the banner may show
 *   their first name to the people they invite, and how often the link was opened.
 * - `referrals` (0001, never written): one row per member brought by someone's link, no longer
 *   holding the code (that is `referral_codes`'), with its status (signed_up → qualified, or
 *   not_counted with the reason), the activity the invitation was for, and the first activity the
 *   friend attended, which is what counts.
 * - `referral_signals`: keyed hashes of the browsers (a first-party device cookie) and internet
 *   addresses a member signed in from, to tell a second account of the referrer's own.
 * - `friend_invitations`: who invited which address (a keyed hash, never the address) to which
 *   activity, so the same address is emailed once per inviter and activity.
 * - `signup_attributions`: the campaign a new account came from (`utm_*`), once per account.
 * - `experience_invitations.by_friend`: an invitation sent by an attendee ("Invite a friend"),
 *   named as them rather than as the host.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE referral_codes (
      user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      code text NOT NULL UNIQUE CHECK (code ~ '^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$'),
      show_first_name boolean NOT NULL DEFAULT false,
      clicks int NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    DELETE FROM referrals;
    ALTER TABLE referrals
      DROP COLUMN code,
      ADD COLUMN status text NOT NULL DEFAULT 'signed_up' CHECK (status IN ('signed_up', 'qualified', 'not_counted')),
      ADD COLUMN reason text CHECK (reason IN ('self', 'same_email', 'same_device', 'same_address', 'same_card')),
      ADD COLUMN experience_id uuid REFERENCES experiences(id) ON DELETE SET NULL,
      ADD COLUMN qualified_at timestamptz,
      ADD COLUMN qualifying_experience_id uuid REFERENCES experiences(id) ON DELETE SET NULL,
      ADD COLUMN referrer_told_at timestamptz,
      ADD CONSTRAINT referrals_reason CHECK ((status = 'not_counted') = (reason IS NOT NULL));
    CREATE INDEX referrals_referrer ON referrals (referrer_id, status);
    CREATE TABLE referral_signals (
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('device', 'address')),
      hash text NOT NULL,
      seen_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, kind, hash)
    );
    CREATE INDEX referral_signals_hash ON referral_signals (kind, hash);
    CREATE TABLE friend_invitations (
      inviter_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      experience_id uuid NOT NULL REFERENCES experiences(id) ON DELETE CASCADE,
      email_hash text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (inviter_id, experience_id, email_hash)
    );
    CREATE TABLE signup_attributions (
      user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      utm_source text CHECK (char_length(utm_source) <= 100),
      utm_medium text CHECK (char_length(utm_medium) <= 100),
      utm_campaign text CHECK (char_length(utm_campaign) <= 100),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    ALTER TABLE experience_invitations ADD COLUMN by_friend boolean NOT NULL DEFAULT false`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE experience_invitations DROP COLUMN by_friend;
    DROP TABLE signup_attributions;
    DROP TABLE friend_invitations;
    DROP TABLE referral_signals;
    DROP INDEX referrals_referrer;
    DELETE FROM referrals;
    ALTER TABLE referrals
      DROP CONSTRAINT referrals_reason,
      DROP COLUMN status, DROP COLUMN reason, DROP COLUMN experience_id, DROP COLUMN qualified_at,
      DROP COLUMN qualifying_experience_id, DROP COLUMN referrer_told_at,
      ADD COLUMN code text NOT NULL UNIQUE;
    DROP TABLE referral_codes`.execute(db)
}
