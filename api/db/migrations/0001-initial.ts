import { sql, type Kysely } from 'kysely'

/**
 * The schema for every entity of spec §3. Later features fill the tables; the columns are
 * designed now so that they do not need reshaping. Enumerations follow the spec exactly.
 */
export async function up(db: Kysely<unknown>) {
  // Multi-valued enumerations are text[] with CHECK constraints: node-postgres does not parse
  // arrays of custom enum types.
  await sql`
    CREATE EXTENSION IF NOT EXISTS citext;
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE EXTENSION IF NOT EXISTS cube;
    CREATE EXTENSION IF NOT EXISTS earthdistance;

    CREATE TYPE user_state AS ENUM ('active', 'created', 'deleted', 'suspended');
    CREATE TYPE gender AS ENUM ('woman', 'man', 'other');
    CREATE TYPE employment AS ENUM ('part_time', 'full_time', 'retired', 'other');
    CREATE TYPE relationship_status AS ENUM ('single', 'widowed', 'divorced', 'in_relationship', 'married', 'other');
    CREATE TYPE venue_type AS ENUM ('in_person', 'online');
    CREATE TYPE media_target AS ENUM ('avatar', 'experience_cover', 'verification', 'message');
    CREATE TYPE channel_kind AS ENUM ('experience', 'direct');
    CREATE TYPE report_reason AS ENUM ('fake_or_scam', 'harmful_or_illegal', 'happened_in_person', 'inappropriate_or_offensive', 'low_quality_or_spam', 'something_else');
    CREATE TYPE verification_status AS ENUM ('not_verified', 'processing', 'verified');
    CREATE TYPE survey_type AS ENUM ('EXPERIENCE_ATTENDANCE_SURVEY', 'POST_EXPERIENCE_SURVEY');
    CREATE TYPE popup_type AS ENUM ('EXPERIENCE_ATTENDANCE');
    CREATE TYPE subscription_status AS ENUM ('incomplete', 'active', 'past_due', 'canceled');
    CREATE TYPE device_kind AS ENUM ('web_push', 'ios', 'android');

    CREATE TABLE media (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      owner_id uuid,
      target media_target NOT NULL,
      storage_key text NOT NULL UNIQUE,
      thumbnail_key text,
      mime_type text NOT NULL,
      width int NOT NULL,
      height int NOT NULL,
      bytes int NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      auth_subject text UNIQUE,
      stream_id text NOT NULL UNIQUE DEFAULT replace(gen_random_uuid()::text, '-', ''),
      slug citext NOT NULL UNIQUE,
      email citext UNIQUE,
      phone text,
      first_name text,
      last_name text,
      name text,
      formatted_name text,
      dob date,
      gender gender,
      join_reasons text[] NOT NULL DEFAULT '{}' CHECK (join_reasons <@ ARRAY['close_friends', 'new_people', 'relationship', 'things_to_do']),
      avatar_media_id uuid REFERENCES media(id) ON DELETE SET NULL,
      is_admin boolean NOT NULL DEFAULT false,
      banned boolean NOT NULL DEFAULT false,
      is_suspended boolean NOT NULL DEFAULT false,
      state user_state NOT NULL DEFAULT 'created',
      lat double precision,
      long double precision,
      city text,
      region text,
      locale text CHECK (locale IN ('en', 'fr', 'nl')),
      onboarded_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    );
    CREATE INDEX users_name_trgm ON users USING gin ((coalesce(first_name, '') || ' ' || coalesce(last_name, '')) gin_trgm_ops);
    CREATE INDEX users_location ON users USING gist (ll_to_earth(lat, long)) WHERE lat IS NOT NULL AND long IS NOT NULL;
    ALTER TABLE media ADD CONSTRAINT media_owner_fk FOREIGN KEY (owner_id) REFERENCES users(id) ON DELETE CASCADE;

    -- Identity provider: credentials and one-time codes live apart from the profile.
    CREATE TABLE credentials (
      user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      password_hash text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE login_codes (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      email citext NOT NULL,
      purpose text NOT NULL CHECK (purpose IN ('sign_in', 'sign_up', 'reset_password')),
      code_hash text NOT NULL,
      payload jsonb,
      attempts int NOT NULL DEFAULT 0,
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX login_codes_email ON login_codes (email, purpose, created_at DESC);
    CREATE TABLE oidc_payloads (
      id text NOT NULL,
      type text NOT NULL,
      payload jsonb NOT NULL,
      grant_id text,
      user_code text,
      uid text,
      expires_at timestamptz,
      consumed_at timestamptz,
      PRIMARY KEY (type, id)
    );
    CREATE INDEX oidc_payloads_grant ON oidc_payloads (grant_id);
    CREATE INDEX oidc_payloads_uid ON oidc_payloads (uid);
    CREATE INDEX oidc_payloads_expires ON oidc_payloads (expires_at);

    -- Web tier: revocable server-side sessions.
    CREATE TABLE web_sessions (
      id text PRIMARY KEY,
      user_id uuid REFERENCES users(id) ON DELETE CASCADE,
      data jsonb NOT NULL DEFAULT '{}',
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX web_sessions_user ON web_sessions (user_id);
    CREATE INDEX web_sessions_expires ON web_sessions (expires_at);

    CREATE TABLE rate_limits (
      key text PRIMARY KEY,
      window_start timestamptz NOT NULL,
      count int NOT NULL
    );

    CREATE TABLE app_secrets (
      name text PRIMARY KEY,
      value jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE email_outbox (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      to_address citext NOT NULL,
      subject text NOT NULL,
      text_body text NOT NULL,
      html_body text,
      kind text NOT NULL,
      locale text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz
    );
    CREATE INDEX email_outbox_to ON email_outbox (to_address, created_at DESC);

    CREATE TABLE profiles (
      user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      bio text,
      employment employment,
      relationship relationship_status,
      family text[] NOT NULL DEFAULT '{}' CHECK (family <@ ARRAY['pets', 'children', 'grandchildren']),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE interests (
      id serial PRIMARY KEY,
      slug text NOT NULL UNIQUE,
      name text NOT NULL
    );
    CREATE TABLE user_interests (
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      interest_id int NOT NULL REFERENCES interests(id) ON DELETE CASCADE,
      PRIMARY KEY (user_id, interest_id)
    );
    CREATE TABLE profile_prompts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      prompt text NOT NULL,
      answer text NOT NULL,
      position int NOT NULL DEFAULT 0,
      UNIQUE (user_id, prompt)
    );

    CREATE TABLE experiences (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      slug citext NOT NULL UNIQUE,
      host_id uuid REFERENCES users(id) ON DELETE SET NULL,
      title text NOT NULL,
      description text NOT NULL DEFAULT '',
      cover_media_id uuid REFERENCES media(id) ON DELETE SET NULL,
      max_attendees int CHECK (max_attendees IS NULL OR max_attendees >= 0),
      attendees_count int NOT NULL DEFAULT 0 CHECK (attendees_count >= 0),
      start_at timestamptz,
      end_at timestamptz,
      timezone text NOT NULL DEFAULT 'America/New_York',
      venue_type venue_type NOT NULL,
      latitude double precision,
      longitude double precision,
      formatted_address text,
      place_id text,
      city text,
      region text,
      url text,
      ticket_url text,
      no_show_fee_cents int CHECK (no_show_fee_cents IS NULL OR no_show_fee_cents >= 0),
      is_hostless boolean NOT NULL DEFAULT false,
      is_premium boolean NOT NULL DEFAULT false,
      canceled_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (end_at IS NULL OR start_at IS NULL OR end_at >= start_at)
    );
    CREATE INDEX experiences_start ON experiences (start_at) WHERE canceled_at IS NULL;
    CREATE INDEX experiences_location ON experiences USING gist (ll_to_earth(latitude, longitude))
      WHERE latitude IS NOT NULL AND longitude IS NOT NULL AND canceled_at IS NULL;
    CREATE INDEX experiences_host ON experiences (host_id, start_at);
    CREATE INDEX experiences_title_trgm ON experiences USING gin (title gin_trgm_ops);

    CREATE TABLE experience_attendees (
      experience_id uuid NOT NULL REFERENCES experiences(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (experience_id, user_id)
    );
    CREATE INDEX experience_attendees_user ON experience_attendees (user_id);
    CREATE TABLE attendance_cancellations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      experience_id uuid NOT NULL REFERENCES experiences(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      is_late boolean NOT NULL,
      no_show_fee_cents int,
      fee_charged_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE waitlist_entries (
      experience_id uuid NOT NULL REFERENCES experiences(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (experience_id, user_id)
    );
    CREATE INDEX waitlist_entries_order ON waitlist_entries (experience_id, created_at);

    CREATE TABLE message_channels (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      kind channel_kind NOT NULL,
      experience_id uuid UNIQUE REFERENCES experiences(id) ON DELETE CASCADE,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      direct_key text UNIQUE,
      last_message_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((kind = 'experience') = (experience_id IS NOT NULL))
    );
    CREATE TABLE channel_memberships (
      channel_id uuid NOT NULL REFERENCES message_channels(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      is_accepted boolean NOT NULL DEFAULT false,
      last_read_at timestamptz,
      left_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (channel_id, user_id)
    );
    CREATE INDEX channel_memberships_user ON channel_memberships (user_id);
    CREATE TABLE messages (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      channel_id uuid NOT NULL REFERENCES message_channels(id) ON DELETE CASCADE,
      user_id uuid REFERENCES users(id) ON DELETE SET NULL,
      body text NOT NULL,
      media_id uuid REFERENCES media(id) ON DELETE SET NULL,
      is_system boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    );
    CREATE INDEX messages_channel ON messages (channel_id, created_at DESC);

    CREATE TABLE blocks (
      blocker_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      blocked_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (blocker_id, blocked_id),
      CHECK (blocker_id <> blocked_id)
    );
    CREATE INDEX blocks_blocked ON blocks (blocked_id);

    CREATE TABLE reports (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      reporter_id uuid REFERENCES users(id) ON DELETE SET NULL,
      reported_user_id uuid REFERENCES users(id) ON DELETE CASCADE,
      experience_id uuid REFERENCES experiences(id) ON DELETE CASCADE,
      message_id uuid REFERENCES messages(id) ON DELETE SET NULL,
      reason report_reason NOT NULL,
      details text NOT NULL DEFAULT '',
      resolved_at timestamptz,
      resolved_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE notifications (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      type text NOT NULL,
      data jsonb NOT NULL DEFAULT '{}',
      seen_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX notifications_user ON notifications (user_id, created_at DESC);
    CREATE INDEX notifications_unseen ON notifications (user_id) WHERE seen_at IS NULL;
    CREATE TABLE notification_global_settings (
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      channel text NOT NULL,
      enabled boolean NOT NULL,
      PRIMARY KEY (user_id, channel)
    );
    CREATE TABLE notification_workflow_settings (
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      template_id text NOT NULL,
      channel text NOT NULL,
      enabled boolean NOT NULL,
      PRIMARY KEY (user_id, template_id, channel)
    );
    CREATE TABLE devices (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      kind device_kind NOT NULL,
      token text NOT NULL UNIQUE,
      keys jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE payment_methods (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      provider text NOT NULL,
      provider_ref text NOT NULL,
      brand text NOT NULL CHECK (brand IN ('amex', 'discover', 'mastercard', 'visa', 'unknown')),
      last4 char(4) NOT NULL,
      exp_month int NOT NULL CHECK (exp_month BETWEEN 1 AND 12),
      exp_year int NOT NULL,
      is_default boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX payment_methods_one_default ON payment_methods (user_id) WHERE is_default;
    CREATE TABLE partnerships (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL,
      regions text[] NOT NULL DEFAULT '{}',
      price_cents int NOT NULL,
      regular_price_cents int NOT NULL,
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE subscriptions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      plan text NOT NULL,
      status subscription_status NOT NULL,
      partnership_id uuid REFERENCES partnerships(id) ON DELETE SET NULL,
      provider_ref text,
      current_period_end timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      canceled_at timestamptz
    );
    CREATE UNIQUE INDEX subscriptions_one_active ON subscriptions (user_id) WHERE status IN ('active', 'past_due');

    CREATE TABLE verifications (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      status verification_status NOT NULL DEFAULT 'processing',
      media_id uuid REFERENCES media(id) ON DELETE SET NULL,
      reviewed_by uuid REFERENCES users(id) ON DELETE SET NULL,
      reviewed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX verifications_one_pending ON verifications (user_id) WHERE status = 'processing';

    CREATE TABLE popups (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      type popup_type NOT NULL,
      experience_id uuid REFERENCES experiences(id) ON DELETE CASCADE,
      dismissed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, type, experience_id)
    );
    CREATE TABLE surveys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      type survey_type NOT NULL,
      experience_id uuid NOT NULL REFERENCES experiences(id) ON DELETE CASCADE,
      attended boolean,
      rating int CHECK (rating BETWEEN 1 AND 5),
      feedback text,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, type, experience_id)
    );
    CREATE TABLE banners (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      title jsonb NOT NULL,
      body jsonb NOT NULL,
      link_url text,
      latitude double precision,
      longitude double precision,
      radius_miles int,
      starts_at timestamptz,
      ends_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE medicare_registrations (
      user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      phone text NOT NULL,
      permission_to_contact boolean NOT NULL,
      coverage_types text[] NOT NULL DEFAULT '{}' CHECK (coverage_types <@ ARRAY['dental', 'hearing', 'drug_coverage', 'vision']),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE referrals (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      referrer_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      code text NOT NULL UNIQUE,
      referred_user_id uuid UNIQUE REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE feature_flags (
      key text PRIMARY KEY,
      enabled boolean NOT NULL DEFAULT false,
      variant text,
      description text NOT NULL DEFAULT '',
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE audit_log (
      id bigserial PRIMARY KEY,
      actor_id uuid REFERENCES users(id) ON DELETE SET NULL,
      impersonator_id uuid REFERENCES users(id) ON DELETE SET NULL,
      action text NOT NULL,
      target_type text,
      target_id text,
      data jsonb NOT NULL DEFAULT '{}',
      request_id text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX audit_log_target ON audit_log (target_type, target_id);
  `.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`DROP SCHEMA public CASCADE; CREATE SCHEMA public;`.execute(db)
}
