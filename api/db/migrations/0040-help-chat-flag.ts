import { sql, type Kysely } from 'kysely'

/**
 * The help chat (issue 32 §6, decision 083): the `help-chat` flag lets the Help button load the
 * configured vendor widget (Chatwoot or Intercom) for the members it covers; off, or with no
 * vendor configured, Help opens the built-in help chat (the support inbox). It starts on, so a
 * configured vendor serves everyone until an admin narrows it at `/admin/flags`.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    INSERT INTO feature_flags (key, description, enabled)
      VALUES ('help-chat', 'Help opens the configured vendor chat (Chatwoot or Intercom) for these members (decision 083). Off: the built-in help chat.', true)
      ON CONFLICT (key) DO NOTHING`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`DELETE FROM feature_flags WHERE key = 'help-chat'`.execute(db)
}
