import { sql, type Kysely } from 'kysely'

/**
 * A flag for a host's numbers (issue 32 §3 and §5, decision 082), on, so nothing changes until an
 * admin narrows it at `/admin/flags`: "Your activities in numbers" on My activities (hosting),
 * `/attending/numbers` and `GET v1/users/me/hosting/dashboard`. Off: none of it is shown, the page
 * is not found and the API answers 404. The team's own dashboard is not behind it.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    INSERT INTO feature_flags (key, description, enabled)
      VALUES ('host-numbers', 'Hosts see their activities in numbers (decision 082): the summary on My activities (hosting) and the charts at /attending/numbers. Off: neither is shown, the page is not found and the API answers 404. The team''s dashboard is not behind this flag.', true)
      ON CONFLICT (key) DO NOTHING`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`DELETE FROM feature_flags WHERE key = 'host-numbers'`.execute(db)
}
