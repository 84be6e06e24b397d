import type { DB } from '../../db/database.ts'

/** What the development outbox shows: one address's emails, and older ones a page back. */
export interface OutboxFilter {
  /** Only the emails to this address (any case). */
  to?: string
  /** How many of the newest to pass over (paging back). */
  offset?: number
}

export async function readOutbox(db: DB, limit: number, filter: OutboxFilter = {}) {
  let query = db.selectFrom('email_outbox').select(['id', 'to_address', 'subject', 'text_body', 'created_at', 'sent_at', 'attempts', 'last_error', 'failed_at'])
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
    delivery: deliveryOf(row),
  }))
}

/**
 * How a mail server took it: sent; failed for good (after a day of retries, or a code that could
 * not go out at once); failed so far and being retried; or not tried (no mail server, or queued).
 */
export type OutboxDelivery =
  | { status: 'sent'; at: string }
  | { status: 'failed'; at: string; attempts: number; error: string | null }
  | { status: 'retrying'; attempts: number; error: string | null }
  | { status: 'waiting' }

function deliveryOf(row: { sent_at: Date | null; failed_at: Date | null; attempts: number; last_error: string | null }): OutboxDelivery {
  if (row.sent_at) return { status: 'sent', at: row.sent_at.toISOString() }
  if (row.failed_at) return { status: 'failed', at: row.failed_at.toISOString(), attempts: row.attempts, error: row.last_error }
  if (row.attempts > 0) return { status: 'retrying', attempts: row.attempts, error: row.last_error }
  return { status: 'waiting' }
}
