import { hash, verify } from '@node-rs/argon2'
import { sql } from 'kysely'
import type { DB } from '../db/database.ts'
import type { Mailer } from '../providers/email/mailer.ts'
import { countHit, type Limit } from '../http/security.ts'
import { uniqueSlug } from '../users/service.ts'
import { codeTtlMs, composeAccountEmail, createCodes, maxCodeAttempts } from './codes.ts'

/**
 * The built-in identity provider's accounts: argon2id passwords, 6-digit codes by email
 * (HMAC-hashed, 10 minutes, 5 attempts), sign-up confirmed by a code, password reset.
 * Every answer is the same whether or not an email is registered.
 */
export { codeTtlMs, maxCodeAttempts }

/**
 * Limits per account (the email address, registered or not), on top of the per-address limits
 * of the HTTP layer: an attacker with many addresses still gets only this many tries at one
 * account. Each try is counted before it is checked, in one statement (countHit), so parallel
 * tries cannot slip under the limit together; a try that succeeds gives its count back, so only
 * failures use up an account's allowance (a member signing in often is never held up).
 */
const fifteenMinutes = 15 * 60
export const accountLimits = {
  password: { name: 'account-password', max: 10, windowSeconds: fifteenMinutes },
  codeSend: { name: 'account-code-send', max: 5, windowSeconds: fifteenMinutes },
  codeCheck: { name: 'account-code-check', max: 10, windowSeconds: fifteenMinutes },
} satisfies Record<string, Limit>

type Failure<E extends string> = { error: E }
export type CodeCheckError = 'invalid' | 'expired' | 'too_many'
export type SendError = 'too_many' | 'not_sent'

export interface SignUpRequest {
  email: string
  password: string | null
  firstName: string
  lastName: string
  dob: string
  language: 'en' | 'fr' | 'nl'
}

/** A sign-up's details, kept with its code until the code is confirmed. */
interface SignUpPayload {
  firstName: string
  lastName: string
  dob: string
  language: 'en' | 'fr' | 'nl'
  passwordHash: string | null
}

/** A new sign-up code is sent for a sign-up started this long ago at most (an interaction's life). */
const signUpResendWindowMs = 60 * 60_000

// A real argon2id hash to verify against when the email is unknown, so timing reveals nothing.
const dummyHash = hash('timing-equaliser-not-a-password')

export function createAccounts(options: { db: DB; mailer: Mailer; codeSecret: string; limits?: typeof accountLimits }) {
  const { db, mailer, limits = accountLimits } = options
  const codes = createCodes(options)
  const issueCode = codes.issue
  const consumeCode = codes.consume

  async function findByEmail(email: string) {
    return db
      .selectFrom('users')
      .leftJoin('credentials', 'credentials.user_id', 'users.id')
      .select(['users.id', 'users.auth_subject', 'users.state', 'users.first_name', 'users.locale', 'credentials.password_hash'])
      .where('users.email', '=', email)
      .where('users.state', '<>', 'deleted')
      .executeTakeFirst()
  }

  /** Counts one try against an account's limit; true when the account has had too many. */
  async function overLimit(limit: Limit, email: string) {
    return (await countHit(db, limit, email.toLowerCase())).over
  }

  /** A try that succeeded does not count against the account. */
  async function forgiveTry(limit: Limit, email: string) {
    await sql`UPDATE rate_limits SET count = greatest(count - 1, 0) WHERE key = ${`${limit.name}:${email.toLowerCase()}`}`.execute(db)
  }

  /** A code email goes out now or the member is told it did not (never retried later). */
  async function sendCodeEmail(to: string, language: string, kind: string, vars: Record<string, string>): Promise<Failure<'not_sent'> | { ok: true }> {
    const { sent } = await mailer.sendNow(composeAccountEmail(to, language, kind, vars))
    return sent ? { ok: true } : { error: 'not_sent' }
  }

  /** The owner of an address that has an account gets a sign-in code instead of a sign-up one. */
  async function sendExistingAccountCode(email: string, account: { first_name: string | null; locale: string | null }, language: string) {
    const code = await issueCode(email, 'sign_in')
    return sendCodeEmail(email, account.locale ?? language, 'existingAccount', { code, name: account.first_name ?? '' })
  }

  /** A sign-up code; the details wait with it until it is confirmed. */
  async function sendSignUpCode(email: string, payload: SignUpPayload) {
    const code = await issueCode(email, 'sign_up', { ...payload })
    return sendCodeEmail(email, payload.language, 'signUpCode', { code, name: payload.firstName })
  }

  return {
    async verifyPassword(email: string, password: string): Promise<Failure<'invalid' | 'too_many'> | { accountId: string }> {
      if (await overLimit(limits.password, email)) return { error: 'too_many' }
      const account = await findByEmail(email)
      if (!account?.password_hash || !account.auth_subject) {
        await verify(await dummyHash, password).catch(() => false)
        return { error: 'invalid' }
      }
      const ok = await verify(account.password_hash, password).catch(() => false)
      if (!ok) return { error: 'invalid' }
      await forgiveTry(limits.password, email)
      return { accountId: account.auth_subject }
    },

    async sendCode(email: string, purpose: 'sign_in' | 'reset_password', language: 'en' | 'fr' | 'nl'): Promise<Failure<SendError> | { ok: true }> {
      if (await overLimit(limits.codeSend, email)) return { error: 'too_many' }
      const account = await findByEmail(email)
      if (!account) return { ok: true }
      const code = await issueCode(email, purpose)
      return sendCodeEmail(email, account.locale ?? language, purpose === 'sign_in' ? 'signInCode' : 'resetCode', {
        code,
        name: account.first_name ?? '',
      })
    },

    async verifyCode(email: string, code: string, purpose: 'sign_in' | 'reset_password'): Promise<Failure<CodeCheckError> | { accountId: string }> {
      if (await overLimit(limits.codeCheck, email)) return { error: 'too_many' }
      const result = await consumeCode(email, code, purpose)
      if ('error' in result) return result
      await forgiveTry(limits.codeCheck, email)
      const account = await findByEmail(email)
      if (!account?.auth_subject) return { error: 'invalid' }
      return { accountId: account.auth_subject }
    },

    /**
     * Starts a sign-up: the details wait with a code sent to the address. If the address already
     * has an account, its owner gets a sign-in code instead; the page says the same either way,
     * after the same work (the password is hashed in both cases, then one code and one email).
     */
    async startSignUp(request: SignUpRequest): Promise<Failure<SendError> | { ok: true }> {
      if (await overLimit(limits.codeSend, request.email)) return { error: 'too_many' }
      // Hashed whether or not the address has an account: the same work and the same time either
      // way, so the answer's timing does not tell who is a member (issue 29 §5, decision 066).
      const passwordHash = request.password ? await hash(request.password) : null
      const existing = await findByEmail(request.email)
      if (existing) return sendExistingAccountCode(request.email, existing, request.language)
      return sendSignUpCode(request.email, {
        firstName: request.firstName,
        lastName: request.lastName,
        dob: request.dob,
        language: request.language,
        passwordHash,
      })
    },

    /**
     * "Send a new code" on the sign-up code step: a new code for the sign-up started at this
     * address in the last hour (its details kept with the code), or for its account, under the
     * same per-account limit. Nothing to send gives the same answer (nothing is revealed).
     */
    async resendSignUp(email: string, language: 'en' | 'fr' | 'nl'): Promise<Failure<SendError> | { ok: true }> {
      if (await overLimit(limits.codeSend, email)) return { error: 'too_many' }
      const existing = await findByEmail(email)
      if (existing) return sendExistingAccountCode(email, existing, language)
      const started = await db
        .selectFrom('login_codes')
        .select('payload')
        .where('email', '=', email)
        .where('purpose', '=', 'sign_up')
        .where('created_at', '>', new Date(Date.now() - signUpResendWindowMs))
        .orderBy('created_at', 'desc')
        .executeTakeFirst()
      if (!started?.payload) return { ok: true }
      return sendSignUpCode(email, started.payload as unknown as SignUpPayload)
    },

    /** Confirms a sign-up (or, for an existing account, signs in) with the emailed code. */
    async confirmSignUp(email: string, code: string): Promise<Failure<CodeCheckError> | { accountId: string; created: boolean }> {
      if (await overLimit(limits.codeCheck, email)) return { error: 'too_many' }
      const signUp = await consumeCode(email, code, 'sign_up')
      if ('error' in signUp) {
        const signIn = await consumeCode(email, code, 'sign_in')
        if ('error' in signIn) return signUp.error === 'expired' ? signUp : signIn
        await forgiveTry(limits.codeCheck, email)
        const account = await findByEmail(email)
        return account?.auth_subject ? { accountId: account.auth_subject, created: false } : { error: 'invalid' }
      }
      await forgiveTry(limits.codeCheck, email)
      const payload = signUp.payload as unknown as SignUpPayload
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
        // With the account, in its transaction (decision 072): a welcome exactly when the account exists.
        await mailer.send(composeAccountEmail(email, payload.language, 'welcome', { name: payload.firstName }), { transaction: trx })
        return id
      })
      return { accountId, created: true }
    },

    async resetPassword(email: string, code: string, password: string): Promise<Failure<CodeCheckError> | { ok: true }> {
      if (await overLimit(limits.codeCheck, email)) return { error: 'too_many' }
      const result = await consumeCode(email, code, 'reset_password')
      if ('error' in result) return result
      await forgiveTry(limits.codeCheck, email)
      const account = await findByEmail(email)
      if (!account) return { error: 'invalid' }
      const passwordHash = await hash(password)
      await db
        .insertInto('credentials')
        .values({ user_id: account.id, password_hash: passwordHash })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ password_hash: passwordHash, updated_at: new Date() }))
        .execute()
      // A new password ends every existing session.
      await db.deleteFrom('web_sessions').where('user_id', '=', account.id).execute()
      return { ok: true }
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
