import { sql, type Kysely } from 'kysely'

/**
 * Realtime resume (decision 032): every message gets `seq`, a number that grows in commit order
 * (inserts take the chat's transaction lock, `api/chat/events.ts`), so an SSE stream's
 * `Last-Event-ID` names exactly what a member has seen and a reconnect replays what came after.
 * Existing messages are numbered in the order they were posted.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    CREATE SEQUENCE messages_seq_seq AS bigint;
    ALTER TABLE messages ADD COLUMN seq bigint;
    UPDATE messages SET seq = numbered.n
      FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM messages) numbered
      WHERE numbered.id = messages.id;
    SELECT setval('messages_seq_seq', coalesce((SELECT max(seq) FROM messages), 0) + 1, false);
    ALTER TABLE messages ALTER COLUMN seq SET DEFAULT nextval('messages_seq_seq'), ALTER COLUMN seq SET NOT NULL;
    ALTER SEQUENCE messages_seq_seq OWNED BY messages.seq;
    CREATE UNIQUE INDEX messages_seq ON messages (seq);
  `.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    DROP INDEX IF EXISTS messages_seq;
    ALTER TABLE messages DROP COLUMN IF EXISTS seq;
  `.execute(db)
}
