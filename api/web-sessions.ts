import { randomBytes } from 'node:crypto'
import type { DB } from './db/database.ts'

/**
 * Storage for the web tier's sessions (ARCHITECTURE §6: sessions in Postgres so instances are
 * stateless). The web app reaches it only through this interface, never the database itself.
 */
export function createSessionStore(db: DB) {
  return {
    async create(data: Record<string, unknown>, userId: string | null, expiresAt: Date) {
      const id = randomBytes(32).toString('base64url')
      await db.insertInto('web_sessions').values({ id, user_id: userId, data: JSON.stringify(data), expires_at: expiresAt }).execute()
      return id
    },
    async read(id: string) {
      const row = await db.selectFrom('web_sessions').selectAll().where('id', '=', id).executeTakeFirst()
      if (!row) return null
      return { id: row.id, userId: row.user_id, data: row.data, expiresAt: row.expires_at }
    },
    async update(id: string, data: Record<string, unknown>, userId: string | null, expiresAt: Date) {
      // Only an existing record is updated: a destroyed session is never brought back.
      await db
        .updateTable('web_sessions')
        .set({ data: JSON.stringify(data), user_id: userId, expires_at: expiresAt, updated_at: new Date() })
        .where('id', '=', id)
        .execute()
    },
    async destroy(id: string) {
      await db.deleteFrom('web_sessions').where('id', '=', id).execute()
    },
  }
}
