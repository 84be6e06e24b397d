import { sql, type Kysely } from 'kysely'

/**
 * Profiles (issue 13 §1, §3, §6): interests and prompts become keys of the catalogues in
 * `contract/profile.ts` (their words live in the locale files, so the catalogue has one source);
 * the member's privacy choices (age by decade, who sees them near by); where onboarding stopped;
 * an email change waiting for its code.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    DROP TABLE user_interests;
    DROP TABLE interests;
    CREATE TABLE user_interests (
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      interest text NOT NULL,
      position int NOT NULL DEFAULT 0,
      PRIMARY KEY (user_id, interest)
    );
    CREATE INDEX user_interests_interest ON user_interests (interest);

    ALTER TABLE profile_prompts ADD CONSTRAINT profile_prompts_answer_length CHECK (char_length(answer) <= 300);

    ALTER TABLE profiles
      ADD COLUMN show_age boolean NOT NULL DEFAULT false,
      ADD COLUMN nearby_visibility text NOT NULL DEFAULT 'everyone'
        CHECK (nearby_visibility IN ('everyone', 'attended', 'nobody'));

    ALTER TABLE users ADD COLUMN onboarding_step text;

    ALTER TABLE login_codes DROP CONSTRAINT IF EXISTS login_codes_purpose_check;
    ALTER TABLE login_codes ADD CONSTRAINT login_codes_purpose_check
      CHECK (purpose IN ('sign_in', 'sign_up', 'reset_password', 'change_email'));
  `.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    DELETE FROM login_codes WHERE purpose = 'change_email';
    ALTER TABLE login_codes DROP CONSTRAINT IF EXISTS login_codes_purpose_check;
    ALTER TABLE login_codes ADD CONSTRAINT login_codes_purpose_check
      CHECK (purpose IN ('sign_in', 'sign_up', 'reset_password'));
    ALTER TABLE users DROP COLUMN IF EXISTS onboarding_step;
    ALTER TABLE profiles DROP COLUMN IF EXISTS show_age, DROP COLUMN IF EXISTS nearby_visibility;
    ALTER TABLE profile_prompts DROP CONSTRAINT IF EXISTS profile_prompts_answer_length;
    DROP TABLE user_interests;
    CREATE TABLE interests (id serial PRIMARY KEY, slug text NOT NULL UNIQUE, name text NOT NULL);
    CREATE TABLE user_interests (
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      interest_id int NOT NULL REFERENCES interests(id) ON DELETE CASCADE,
      PRIMARY KEY (user_id, interest_id)
    );
  `.execute(db)
}
