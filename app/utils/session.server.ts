import { createCookie, createSessionStorage, data, type Session, type SessionStorage } from '@remix-run/node'
import type { AppLoadContext } from '@remix-run/node'

/**
 * Server-side web sessions. The cookie holds only a signed random id; the data (tokens) lives
 * in the session store, so deleting the record on logout or suspension makes a copied cookie
 * useless. Sessions last 30 days from the last activity (renewed with the access token).
 */
export const sessionMaxAgeSeconds = 30 * 24 * 60 * 60

export interface SessionData {
  userId: string
  subject: string
  accessToken: string
  /** Epoch ms after which the cached access token is renewed (59 s, spec §7). */
  accessTokenRenewAt: number
  refreshToken: string | null
  idToken: string | null
  /** A staff member viewing Circle 55 as a member (decision 078): every API call names it. */
  impersonation?: string
  /** The member's analytics consent as their account holds it, read once per session (decision 081); `none`: not answered. */
  analyticsConsent?: 'granted' | 'refused' | 'none'
}
interface FlashData {
  toast: { kind: 'success' | 'info' | 'error'; key: string }
}
export type WebSession = Session<SessionData, FlashData>

const storages = new WeakMap<object, SessionStorage<SessionData, FlashData>>()

export function sessionCookieName(secure: boolean) {
  // `__Host-` requires Secure; browsers accept Secure cookies on http://localhost only.
  return secure ? '__Host-session' : 'session'
}

export function getSessionStorage(context: AppLoadContext) {
  const { config, sessions } = context.services
  let storage = storages.get(context.services)
  if (!storage) {
    const cookie = createCookie(sessionCookieName(config.secureCookies), {
      httpOnly: true,
      secure: config.secureCookies,
      sameSite: 'lax',
      path: '/',
      secrets: [config.sessionSecret],
      maxAge: sessionMaxAgeSeconds,
    })
    storage = createSessionStorage<SessionData, FlashData>({
      cookie,
      createData: (data, expires) =>
        sessions.create(data, (data.userId) ?? null, expires ?? inThirtyDays()),
      readData: async (id) => {
        const record = await sessions.read(id)
        if (!record || record.expiresAt.getTime() < Date.now()) return null
        return record.data
      },
      updateData: (id, data, expires) =>
        sessions.update(id, data, (data.userId) ?? null, expires ?? inThirtyDays()),
      deleteData: (id) => sessions.destroy(id),
    })
    storages.set(context.services, storage)
  }
  return storage
}

function inThirtyDays() {
  return new Date(Date.now() + sessionMaxAgeSeconds * 1000)
}

export function getSession(request: Request, context: AppLoadContext): Promise<WebSession> {
  // Loaders run side by side: the first one reads the record, the others wait for the same read.
  // A failure is not kept, so a later call (the page drawn after an outage) reads again.
  if (context.session) return context.session
  const pending = readSession(request, context)
  context.session = pending
  pending.catch(() => {
    if (context.session === pending) context.session = undefined
  })
  return pending
}

async function readSession(request: Request, context: AppLoadContext): Promise<WebSession> {
  try {
    return await getSessionStorage(context).getSession(request.headers.get('Cookie'))
  } catch (error) {
    // The session store (PostgreSQL) is unreachable: a 503 page that says so, not a crash.
    context.services.log('error', 'Session store unavailable', { error: String(error), requestId: context.requestId })
    throw data(null, { status: 503 })
  }
}

export async function commitSession(session: WebSession, context: AppLoadContext) {
  return getSessionStorage(context).commitSession(session, { maxAge: sessionMaxAgeSeconds })
}

export async function destroySession(session: WebSession, context: AppLoadContext) {
  return getSessionStorage(context).destroySession(session)
}
