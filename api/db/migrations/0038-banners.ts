import { sql, type Kysely } from 'kysely'

/**
 * Banners by location and popups as one mechanism (issue 32 §4, decision 084).
 *
 * `banners` (0001: title, body, link, a centre and radius, a start and an end) gains the rest of
 * what admins set: an area as US states instead of a circle (neither: everywhere), an audience,
 * how long a dismissal holds (null: until the banner changes), a content hash that changes when
 * its words or link do, and who made it.
 *
 * `popups` becomes the one store of "the member put this away": a `BANNER` row names its banner,
 * the banner's content hash when dismissed (a changed banner comes back) and when the dismissal
 * ends; an `EXPERIENCE_ATTENDANCE` row names its activity, as before.
 *
 * The `banners` flag (on) lets admins stop showing banners at once, for everyone or some.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    ALTER TYPE popup_type ADD VALUE IF NOT EXISTS 'BANNER';
    ALTER TABLE banners
      ALTER COLUMN starts_at SET DEFAULT now(),
      ADD COLUMN us_states text[] NOT NULL DEFAULT '{}',
      ADD COLUMN audience text NOT NULL DEFAULT 'everyone' CHECK (audience IN ('everyone', 'members', 'premium')),
      ADD COLUMN dismiss_days int CHECK (dismiss_days BETWEEN 1 AND 365),
      ADD COLUMN content_hash text NOT NULL DEFAULT md5(random()::text),
      ADD COLUMN created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now(),
      ADD CONSTRAINT banners_circle CHECK ((latitude IS NULL) = (longitude IS NULL) AND (latitude IS NULL) = (radius_miles IS NULL)),
      ADD CONSTRAINT banners_one_area CHECK (latitude IS NULL OR cardinality(us_states) = 0),
      ADD CONSTRAINT banners_radius CHECK (radius_miles BETWEEN 1 AND 500),
      ADD CONSTRAINT banners_period CHECK (ends_at IS NULL OR starts_at IS NULL OR ends_at > starts_at);
    CREATE INDEX banners_ends_at ON banners (ends_at);
    ALTER TABLE popups
      ADD COLUMN banner_id uuid REFERENCES banners(id) ON DELETE CASCADE,
      ADD COLUMN content_hash text,
      ADD COLUMN expires_at timestamptz,
      ADD CONSTRAINT popups_subject CHECK (
        CASE type::text WHEN 'BANNER' THEN banner_id IS NOT NULL AND experience_id IS NULL AND content_hash IS NOT NULL
        ELSE experience_id IS NOT NULL AND banner_id IS NULL END);
    CREATE UNIQUE INDEX popups_banner ON popups (user_id, banner_id) WHERE banner_id IS NOT NULL;
    INSERT INTO feature_flags (key, description, enabled)
      VALUES ('banners', 'Home shows the banners admins write at /admin/banners (decision 084). Off: none is shown; the "Did you go?" question stays.', true)
      ON CONFLICT (key) DO NOTHING`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    DELETE FROM feature_flags WHERE key = 'banners';
    DELETE FROM popups WHERE banner_id IS NOT NULL;
    ALTER TABLE popups DROP CONSTRAINT popups_subject, DROP COLUMN banner_id, DROP COLUMN content_hash, DROP COLUMN expires_at;
    ALTER TABLE banners
      DROP CONSTRAINT banners_circle, DROP CONSTRAINT banners_one_area, DROP CONSTRAINT banners_radius, DROP CONSTRAINT banners_period,
      DROP COLUMN us_states, DROP COLUMN audience, DROP COLUMN dismiss_days, DROP COLUMN content_hash,
      DROP COLUMN created_by, DROP COLUMN updated_at,
      ALTER COLUMN starts_at DROP DEFAULT;
    DROP INDEX IF EXISTS banners_ends_at`.execute(db)
}
