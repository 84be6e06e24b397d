import { sql, type Kysely } from 'kysely'

/**
 * First-party analytics (issue 32 §5, decision 081).
 * - `analytics_events`: each `page` view and tracked event (the dictionary in
 *   `contract/analytics.ts`, props allow-listed per event), kept 13 months. No IP address, no
 *   user agent, no message text, no health or payment detail: a visitor is a hash of the address
 *   and browser salted afresh each day (null under GPC, Do Not Track or a refused consent), the
 *   path loses its query string but for `utm_*`. Staff viewing as a member and bots are flagged
 *   so that no count includes them.
 * - `analytics_daily`: the events of each day rolled up (by name, path and locale) before the raw
 *   rows go, kept 25 months.
 * - `analytics_salts`: the random salt of each day's visitor hashes (one for every instance),
 *   deleted once its day is over, so that no hash can be worked back to an address afterwards.
 * - `users.analytics_consent`: a member's answer to the consent choice ('granted' or 'refused'),
 *   remembered beyond the browser's cookie; null until they answer.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE analytics_events (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      occurred_at timestamptz NOT NULL DEFAULT now(),
      name text NOT NULL CHECK (name ~ '^[a-z][a-z0-9_]{0,59}$'),
      user_id uuid REFERENCES users(id) ON DELETE SET NULL,
      visitor_hash text,
      path text CHECK (length(path) <= 2000),
      props jsonb NOT NULL DEFAULT '{}',
      locale text,
      impersonated boolean NOT NULL DEFAULT false,
      is_bot boolean NOT NULL DEFAULT false,
      referrer_domain text CHECK (length(referrer_domain) <= 255),
      device_class text CHECK (device_class IN ('mobile', 'tablet', 'desktop'))
    );
    CREATE INDEX analytics_events_name ON analytics_events (name, occurred_at);
    CREATE INDEX analytics_events_user ON analytics_events (user_id, occurred_at);
    CREATE INDEX analytics_events_occurred ON analytics_events (occurred_at);
    CREATE TABLE analytics_daily (
      day date NOT NULL,
      name text NOT NULL,
      path text NOT NULL DEFAULT '',
      locale text NOT NULL DEFAULT '',
      events int NOT NULL DEFAULT 0,
      visitors int NOT NULL DEFAULT 0,
      members int NOT NULL DEFAULT 0,
      PRIMARY KEY (day, name, path, locale)
    );
    CREATE TABLE analytics_salts (
      day date PRIMARY KEY,
      salt text NOT NULL
    );
    ALTER TABLE users ADD COLUMN analytics_consent text CHECK (analytics_consent IN ('granted', 'refused'))`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE users DROP COLUMN analytics_consent;
    DROP TABLE analytics_salts;
    DROP TABLE analytics_daily;
    DROP TABLE analytics_events`.execute(db)
}
