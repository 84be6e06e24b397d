import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'
import type { DB } from '../db/database.ts'
import type { CodePurpose } from '../db/schema.ts'
import { emailT } from '../i18n.ts'
import type { Mailer } from '../email/mailer.ts'
import { uniqueSlug } from '../users/service.ts'

/**
 * The built-in identity provider's accounts: argon2id passwords, 6-digit codes by email
 * (HMAC-hashed, 10 minutes, 5 attempts), sign-up confirmed by a code, password reset.
 * Every answer is the same whether or not an email is registered.
 */
export const codeTtlMs = 10 * 60_000
export const maxCodeAttempts = 5

export interface SignUpRequest {
  email: string
  password: string | null
  firstName: string
  lastName: string
  dob: string
  language: 'en' | 'fr' | 'nl'
}

// A real argon2id hash to verify against when the email is unknown, so timing reveals nothing.
const dummyHash = hash('timing-equaliser-not-a-password')

export function createAccounts(options: { db: DB; mailer: Mailer; codeSecret: string }) {
  const { db, mailer } = options
  const hmac = (email: string, code: string) =>
    createHmac('sha256', options.codeSecret).update(`${email.toLowerCase()}:${code}`).digest('hex')

  async function findByEmail(email: string) {
    return db
      .selectFrom('users')
      .leftJoin('credentials', 'credentials.user_id', 'users.id')
      .select(['users.id', 'users.auth_subject', 'users.state', 'users.first_name', 'users.locale', 'credentials.password_hash'])
      .where('users.email', '=', email)
      .where('users.state', '<>', 'deleted')
      .executeTakeFirst()
  }

  async function issueCode(email: string, purpose: CodePurpose, payload: Record<string, unknown> | null = null) {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
    // A new code replaces any earlier one for the same purpose.
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

  async function consumeCode(
    email: string,
    code: string,
    purpose: CodePurpose,
  ): Promise<{ error: 'invalid' | 'expired' } | { payload: Record<string, unknown> | null }> {
    const row = await db
      .selectFrom('login_codes')
      .selectAll()
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .orderBy('created_at', 'desc')
      .executeTakeFirst()
    if (!row) return { error: 'invalid' as const }
    if (row.expires_at.getTime() < Date.now() || row.attempts >= maxCodeAttempts) return { error: 'expired' as const }
    const expected = Buffer.from(row.code_hash, 'hex')
    const actual = Buffer.from(hmac(email, code.trim()), 'hex')
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
      await db.updateTable('login_codes').set((eb) => ({ attempts: eb('attempts', '+', 1) })).where('id', '=', row.id).execute()
      return { error: 'invalid' as const }
    }
    const consumed = await db
      .updateTable('login_codes')
      .set({ consumed_at: new Date() })
      .where('id', '=', row.id)
      .where('consumed_at', 'is', null)
      .returning('payload')
      .executeTakeFirst()
    if (!consumed) return { error: 'invalid' as const }
    return { payload: consumed.payload }
  }

  async function sendEmail(to: string, language: string, kind: string, vars: Record<string, string>) {
    const t = emailT(language)
    await mailer.send({
      to,
      kind,
      locale: language,
      subject: t(`${kind}.subject`, vars),
      text: [t('greeting', vars), '', t(`${kind}.body`, vars), '', t('signature')].join('\n'),
    })
  }

  return {
    async verifyPassword(email: string, password: string) {
      const account = await findByEmail(email)
      if (!account?.password_hash || !account.auth_subject) {
        await verify(await dummyHash, password).catch(() => false)
        return { error: 'invalid' as const }
      }
      const ok = await verify(account.password_hash, password).catch(() => false)
      return ok ? { accountId: account.auth_subject } : { error: 'invalid' as const }
    },

    async sendCode(email: string, purpose: 'sign_in' | 'reset_password', language: 'en' | 'fr' | 'nl') {
      const account = await findByEmail(email)
      if (!account) return
      const code = await issueCode(email, purpose)
      await sendEmail(email, account.locale ?? language, purpose === 'sign_in' ? 'signInCode' : 'resetCode', {
        code,
        name: account.first_name ?? '',
      })
    },

    async verifyCode(email: string, code: string, purpose: 'sign_in' | 'reset_password') {
      const result = await consumeCode(email, code, purpose)
      if ('error' in result) return result
      const account = await findByEmail(email)
      if (!account?.auth_subject) return { error: 'invalid' as const }
      return { accountId: account.auth_subject }
    },

    /**
     * Starts a sign-up: the details wait with a code sent to the address. If the address already
     * has an account, its owner gets a sign-in code instead; the page says the same either way.
     */
    async startSignUp(request: SignUpRequest) {
      const existing = await findByEmail(request.email)
      if (existing) {
        const code = await issueCode(request.email, 'sign_in')
        await sendEmail(request.email, existing.locale ?? request.language, 'existingAccount', {
          code,
          name: existing.first_name ?? '',
        })
        return
      }
      const passwordHash = request.password ? await hash(request.password) : null
      const code = await issueCode(request.email, 'sign_up', {
        firstName: request.firstName,
        lastName: request.lastName,
        dob: request.dob,
        language: request.language,
        passwordHash,
      })
      await sendEmail(request.email, request.language, 'signUpCode', { code, name: request.firstName })
    },

    /** Confirms a sign-up (or, for an existing account, signs in) with the emailed code. */
    async confirmSignUp(email: string, code: string) {
      const signUp = await consumeCode(email, code, 'sign_up')
      if ('error' in signUp) {
        const signIn = await consumeCode(email, code, 'sign_in')
        if ('error' in signIn) return signUp.error === 'expired' ? signUp : signIn
        const account = await findByEmail(email)
        return account?.auth_subject ? { accountId: account.auth_subject, created: false } : { error: 'invalid' as const }
      }
      const payload = signUp.payload as {
        firstName: string
        lastName: string
        dob: string
        language: 'en' | 'fr' | 'nl'
        passwordHash: string | null
      }
      const accountId = await db.transaction().execute(async (trx) => {
        const id = crypto.randomUUID()
        await trx
          .insertInto('users')
          .values({
            id,
            auth_subject: id,
            email,
            first_name: payload.firstName,
            last_name: payload.lastName,
            dob: payload.dob,
            locale: payload.language,
            slug: await uniqueSlug(trx, `${payload.firstName} ${payload.lastName.slice(0, 1)}`),
            state: 'created',
          })
          .execute()
        if (payload.passwordHash) {
          await trx.insertInto('credentials').values({ user_id: id, password_hash: payload.passwordHash }).execute()
        }
        await trx.insertInto('audit_log').values({ actor_id: id, action: 'user.sign_up', target_type: 'user', target_id: id }).execute()
        return id
      })
      await sendEmail(email, payload.language, 'welcome', { name: payload.firstName })
      return { accountId, created: true }
    },

    async resetPassword(email: string, code: string, password: string) {
      const result = await consumeCode(email, code, 'reset_password')
      if ('error' in result) return result
      const account = await findByEmail(email)
      if (!account) return { error: 'invalid' as const }
      const passwordHash = await hash(password)
      await db
        .insertInto('credentials')
        .values({ user_id: account.id, password_hash: passwordHash })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ password_hash: passwordHash, updated_at: new Date() }))
        .execute()
      // A new password ends every existing session.
      await db.deleteFrom('web_sessions').where('user_id', '=', account.id).execute()
      return { ok: true as const }
    },

    async claims(accountId: string) {
      return db
        .selectFrom('users')
        .select(['id', 'email', 'first_name', 'last_name', 'locale', 'state'])
        .where('auth_subject', '=', accountId)
        .executeTakeFirst()
    },
  }
}
export type Accounts = ReturnType<typeof createAccounts>
