import { createHmac, randomInt } from 'node:crypto'
import { sql } from 'kysely'
import type { DB } from '../db/database.ts'
import type { CodePurpose } from '../db/schema.ts'
import { emailGreeting, emailT } from '../i18n.ts'
import type { OutgoingEmail } from '../providers/email/mailer.ts'

/**
 * One-time 6-digit codes sent by email (sign-in, sign-up, password reset, email change): stored
 * HMAC-hashed with the address, valid 10 minutes, 5 attempts, checked and consumed in one
 * statement. The identity provider's accounts (accounts.ts) and the email change of
 * api/users/email-change.ts both use them.
 */
export const codeTtlMs = 10 * 60_000
export const maxCodeAttempts = 5

export type CodeFailure = { error: 'invalid' | 'expired' }

export function createCodes(options: { db: DB; codeSecret: string }) {
  const { db } = options
  const hmac = (email: string, code: string) =>
    createHmac('sha256', options.codeSecret).update(`${email.toLowerCase()}:${code}`).digest('hex')

  /** A new code for `email`; it replaces any earlier one for the same purpose and address. */
  async function issue(
    email: string,
    purpose: CodePurpose,
    payload: Record<string, unknown> | null = null,
  ) {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
    await db
      .updateTable('login_codes')
      .set({ consumed_at: new Date() })
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .execute()
    await db
      .insertInto('login_codes')
      .values({
        email,
        purpose,
        code_hash: hmac(email, code),
        payload: payload ? JSON.stringify(payload) : null,
        expires_at: new Date(Date.now() + codeTtlMs),
      })
      .execute()
    return code
  }

  /**
   * Checks a code and counts the attempt in one statement: the attempt is counted, the limit
   * checked and a matching code consumed together, so parallel guesses can never get more than
   * `maxCodeAttempts` tries at a code, and a code is used once.
   */
  async function consume(
    email: string,
    code: string,
    purpose: CodePurpose,
  ): Promise<CodeFailure | { payload: Record<string, unknown> | null }> {
    const candidate = hmac(email, code.trim())
    const { rows } = await sql<{
      matched: boolean
      attempts: number
      payload: Record<string, unknown> | null
    }>`
        UPDATE login_codes
        SET attempts = attempts + 1,
            consumed_at = CASE WHEN code_hash = ${candidate} THEN now() END
        WHERE id = (
            SELECT id FROM login_codes
            WHERE email = ${email} AND purpose = ${purpose} AND consumed_at IS NULL
            ORDER BY created_at DESC LIMIT 1
          )
          AND consumed_at IS NULL AND attempts < ${maxCodeAttempts} AND expires_at > now()
        RETURNING consumed_at IS NOT NULL AS matched, attempts, payload`.execute(db)
    const row = rows[0]
    if (row?.matched) return { payload: row.payload }
    if (row) return { error: row.attempts >= maxCodeAttempts ? 'expired' : 'invalid' }
    // Nothing counted: the latest code is spent, expired, or there is none.
    const pending = await db
      .selectFrom('login_codes')
      .select('id')
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .executeTakeFirst()
    return { error: pending ? 'expired' : 'invalid' }
  }

  return { issue, consume }
}
export type Codes = ReturnType<typeof createCodes>

/** An account email (a code, a welcome, a notice) from the `email` namespace's `<kind>.subject` and `<kind>.body`. */
export function composeAccountEmail(
  to: string,
  language: string,
  kind: string,
  vars: Record<string, string>,
): OutgoingEmail {
  const t = emailT(language)
  return {
    to,
    kind,
    locale: language,
    subject: t(`${kind}.subject`, vars),
    text: [emailGreeting(t, vars.name), '', t(`${kind}.body`, vars), '', t('signature')].join('\n'),
  }
}
