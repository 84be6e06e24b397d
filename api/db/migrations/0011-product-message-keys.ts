import { sql, type Kysely } from 'kysely'

/**
 * Product messages in the reader's language (issue 14 §1): a message from the product keeps its
 * translation key and parameters (`chat:product.<key>`), and each reader sees it in their own
 * language; `body` keeps the English text for clients that read it alone.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE messages ADD COLUMN product_key text, ADD COLUMN product_params jsonb NOT NULL DEFAULT '{}';
  `.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE messages DROP COLUMN IF EXISTS product_key, DROP COLUMN IF EXISTS product_params;
  `.execute(db)
}
