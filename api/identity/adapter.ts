import { errors, type Adapter, type AdapterPayload } from 'oidc-provider'
import { sql } from 'kysely'
import type { DB } from '../db/database.ts'

/** oidc-provider's storage in PostgreSQL, so identity state is shared by every instance. */
export function pgAdapterFactory(db: DB) {
  return class PgAdapter implements Adapter {
    readonly type: string

    constructor(name: string) {
      this.type = name
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      const row = {
        id,
        type: this.type,
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        user_code: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      }
      await db
        .insertInto('oidc_payloads')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['type', 'id']).doUpdateSet({
            payload: row.payload,
            grant_id: row.grant_id,
            user_code: row.user_code,
            uid: row.uid,
            expires_at: row.expires_at,
          }),
        )
        .execute()
    }

    private async findWhere(column: 'id' | 'uid' | 'user_code', value: string) {
      const row = await db
        .selectFrom('oidc_payloads')
        .select(['payload', 'consumed_at'])
        .where('type', '=', this.type)
        .where(column, '=', value)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))
        .executeTakeFirst()
      if (!row) return undefined
      const payload = row.payload as AdapterPayload
      return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : payload
    }

    find(id: string) {
      return this.findWhere('id', id)
    }
    findByUid(uid: string) {
      return this.findWhere('uid', uid)
    }
    findByUserCode(userCode: string) {
      return this.findWhere('user_code', userCode)
    }

    /**
     * oidc-provider checks `consumed` and then calls this: two token requests racing with one
     * authorization code would both pass its check. Consuming here is conditional, so only one
     * wins; the other gets invalid_grant. Refresh tokens are left out: the web app's own parallel
     * renewals for one member must not end the member's session.
     */
    async consume(id: string) {
      const consumed = await db
        .updateTable('oidc_payloads')
        .set({ consumed_at: sql`now()` })
        .where('type', '=', this.type)
        .where('id', '=', id)
        .where('consumed_at', 'is', null)
        .executeTakeFirst()
      if (consumed.numUpdatedRows === 0n && this.type !== 'RefreshToken') {
        throw new errors.InvalidGrant(`${this.type} already consumed`)
      }
    }

    async destroy(id: string) {
      await db.deleteFrom('oidc_payloads').where('type', '=', this.type).where('id', '=', id).execute()
    }

    async revokeByGrantId(grantId: string) {
      await db.deleteFrom('oidc_payloads').where('grant_id', '=', grantId).execute()
    }
  }
}
