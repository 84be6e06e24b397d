import type { DB } from '../../db/database.ts'

/** The newest emails in the outbox, for the development outbox page (/dev/outbox). */
/** What the development outbox shows: one address's emails, and older ones a page back. */
export interface OutboxFilter {
  /** Only the emails to this address (any case). */
  to?: string
  /** How many of the newest to pass over (paging back). */
  offset?: number
}

export async function readOutbox(db: DB, limit: number, filter: OutboxFilter = {}) {
  let query = db.selectFrom('email_outbox').select(['id', 'to_address', 'subject', 'text_body', 'created_at'])
  if (filter.to) query = query.where((eb) => eb(eb.fn('lower', ['to_address']), '=', filter.to!.toLowerCase()))
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(filter.offset ?? 0)
    .execute()
  return rows.map((row) => ({
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    createdAt: row.created_at.toISOString(),
  }))
}
