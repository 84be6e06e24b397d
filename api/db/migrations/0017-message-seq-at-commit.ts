import { sql, type Kysely } from 'kysely'

/**
 * A message's `seq` is given as its transaction commits (decision 032): a deferred constraint
 * trigger takes the chat's lock, numbers the message and publishes it on the `chat` channel, all
 * inside COMMIT. The lock, which makes messages commit in `seq` order, is then held only for the
 * commit itself — never while the server does anything else — so sends do not queue behind one
 * another's round trips. Before its commit a message has no number (only its own transaction sees
 * it); after, every message has one.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE messages ALTER COLUMN seq DROP NOT NULL, ALTER COLUMN seq DROP DEFAULT;

    CREATE FUNCTION messages_number_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      numbered bigint;
    BEGIN
      PERFORM pg_advisory_xact_lock(2905529);
      UPDATE messages SET seq = nextval('messages_seq_seq') WHERE id = NEW.id RETURNING seq INTO numbered;
      PERFORM pg_notify('chat', json_build_object('channel_id', NEW.channel_id, 'message_id', NEW.id, 'seq', numbered)::text);
      RETURN NULL;
    END
    $$;

    CREATE CONSTRAINT TRIGGER messages_number_at_commit AFTER INSERT ON messages
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION messages_number_at_commit();
  `.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    DROP TRIGGER IF EXISTS messages_number_at_commit ON messages;
    DROP FUNCTION IF EXISTS messages_number_at_commit();
    UPDATE messages SET seq = nextval('messages_seq_seq') WHERE seq IS NULL;
    ALTER TABLE messages ALTER COLUMN seq SET DEFAULT nextval('messages_seq_seq'), ALTER COLUMN seq SET NOT NULL;
  `.execute(db)
}
