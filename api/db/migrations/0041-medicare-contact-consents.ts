import { sql, type Kysely } from 'kysely'

/**
 * Permission to be called about Medicare plans (issue 33 §2, decision 086).
 *
 * `medicare_registrations` (0001: a phone, a boolean and coverage types, one row per member) was
 * never read or written by the product: it is dropped. What replaces it is built to be evidence:
 *
 * - `medicare_partners`: the one licensed agency the team names (its license, the number it calls
 *   from, its own disclaimer, what it represents for the TPMO disclaimer, how soon it calls). At
 *   most one is current (`retired_at` null); a different agency retires the previous one. Each
 *   change raises `revision` and is in `audit_log`.
 * - `medicare_consents`: one row per agreement, never changed: the member, the agency and the
 *   revision of its details shown, the phone number (E.164), the topics, the exact words shown
 *   with their version and language, how (web form or API), the page and browser, and when.
 * - `medicare_consent_revocations`: a consent's end, one row per consent, never changed: how
 *   (the member, a texted STOP, the account deleted) and when.
 *
 * PostgreSQL itself refuses UPDATE, DELETE and TRUNCATE on both record tables. The one change it
 * lets through is deleting an account's (decision 086): the phone number, the topics and the
 * browser are blanked once (`erased_at` set), nothing else changes; the last four digits of the
 * number stay with the words agreed to, as a card's do with a no-show fee's agreement.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    DROP TABLE medicare_registrations;

    CREATE TABLE medicare_partners (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
      license text NOT NULL CHECK (length(license) BETWEEN 1 AND 500),
      phone text NOT NULL CHECK (phone ~ '^\\+1[0-9]{10}$'),
      disclaimer text NOT NULL CHECK (length(disclaimer) BETWEEN 1 AND 2000),
      organization_count int NOT NULL CHECK (organization_count BETWEEN 1 AND 9999),
      plan_count int NOT NULL CHECK (plan_count BETWEEN 1 AND 9999),
      callback_days int NOT NULL DEFAULT 2 CHECK (callback_days BETWEEN 1 AND 10),
      active boolean NOT NULL DEFAULT true,
      revision int NOT NULL DEFAULT 1,
      retired_at timestamptz,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      updated_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX medicare_partners_current ON medicare_partners ((true)) WHERE retired_at IS NULL;

    CREATE TABLE medicare_consents (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE RESTRICT,
      partner_id uuid NOT NULL REFERENCES medicare_partners(id) ON DELETE RESTRICT,
      partner_revision int NOT NULL,
      phone text CHECK (phone ~ '^\\+1[0-9]{10}$'),
      phone_last4 text NOT NULL CHECK (phone_last4 ~ '^[0-9]{4}$'),
      topics text[] NOT NULL CHECK (topics <@ ARRAY['dental', 'hearing', 'drug_coverage', 'vision']),
      text_version text NOT NULL,
      text_shown text NOT NULL,
      locale text NOT NULL CHECK (locale IN ('en', 'fr', 'nl')),
      method text NOT NULL CHECK (method IN ('web_form', 'api')),
      page text,
      user_agent text,
      created_at timestamptz NOT NULL DEFAULT now(),
      erased_at timestamptz,
      CONSTRAINT medicare_consents_erased CHECK (
        CASE WHEN erased_at IS NULL THEN phone IS NOT NULL AND cardinality(topics) > 0
        ELSE phone IS NULL AND cardinality(topics) = 0 AND user_agent IS NULL END)
    );
    CREATE INDEX medicare_consents_user ON medicare_consents (user_id, created_at DESC);
    CREATE INDEX medicare_consents_partner ON medicare_consents (partner_id, created_at);
    CREATE INDEX medicare_consents_phone ON medicare_consents (phone) WHERE phone IS NOT NULL;

    CREATE TABLE medicare_consent_revocations (
      consent_id uuid PRIMARY KEY REFERENCES medicare_consents(id) ON DELETE RESTRICT,
      method text NOT NULL CHECK (method IN ('member', 'sms_stop', 'account_deleted')),
      revoked_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE FUNCTION medicare_records_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- Deleting an account blanks the consent's phone, topics and browser, once, and nothing else.
      IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'medicare_consents' THEN
        IF OLD.erased_at IS NULL AND NEW.erased_at IS NOT NULL
          AND NEW.phone IS NULL AND cardinality(NEW.topics) = 0 AND NEW.user_agent IS NULL
          AND (NEW.id, NEW.user_id, NEW.partner_id, NEW.partner_revision, NEW.phone_last4, NEW.text_version, NEW.text_shown, NEW.locale, NEW.method, NEW.page, NEW.created_at)
            IS NOT DISTINCT FROM
              (OLD.id, OLD.user_id, OLD.partner_id, OLD.partner_revision, OLD.phone_last4, OLD.text_version, OLD.text_shown, OLD.locale, OLD.method, OLD.page, OLD.created_at)
        THEN
          RETURN NEW;
        END IF;
      END IF;
      RAISE EXCEPTION '% is append-only: % refused (decision 086)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
    END
    $$;
    CREATE TRIGGER medicare_consents_append_only BEFORE UPDATE OR DELETE ON medicare_consents
      FOR EACH ROW EXECUTE FUNCTION medicare_records_append_only();
    CREATE TRIGGER medicare_consents_no_truncate BEFORE TRUNCATE ON medicare_consents
      FOR EACH STATEMENT EXECUTE FUNCTION medicare_records_append_only();
    CREATE TRIGGER medicare_consent_revocations_append_only BEFORE UPDATE OR DELETE ON medicare_consent_revocations
      FOR EACH ROW EXECUTE FUNCTION medicare_records_append_only();
    CREATE TRIGGER medicare_consent_revocations_no_truncate BEFORE TRUNCATE ON medicare_consent_revocations
      FOR EACH STATEMENT EXECUTE FUNCTION medicare_records_append_only()`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    DROP TABLE medicare_consent_revocations;
    DROP TABLE medicare_consents;
    DROP FUNCTION medicare_records_append_only();
    DROP TABLE medicare_partners;
    CREATE TABLE medicare_registrations (
      user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      phone text NOT NULL,
      permission_to_contact boolean NOT NULL,
      coverage_types text[] NOT NULL DEFAULT '{}' CHECK (coverage_types <@ ARRAY['dental', 'hearing', 'drug_coverage', 'vision']),
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db)
}
