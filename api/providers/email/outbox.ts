import type { DB } from '../../db/database.ts'

/** The newest emails in the outbox, for the development outbox page (/dev/outbox). */
export async function readOutbox(db: DB, limit: number) {
  const rows = await db
    .selectFrom('email_outbox')
    .select(['id', 'to_address', 'subject', 'text_body', 'created_at'])
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute()
  return rows.map((row) => ({
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    createdAt: row.created_at.toISOString(),
  }))
}
