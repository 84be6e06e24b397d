import type { EvaluatedFlags } from '#contract/flags.ts'
import type { OutsideLinks } from '#contract/outside-links.ts'
import type { Api } from './api/clients.server.ts'
import type { WebAnalytics } from './analytics-visit.ts'
import type { AuthState } from './auth.server.ts'
import type { Language } from './i18n.ts'
import type { WebSession } from './session.server.ts'

/**
 * What the host (server.ts) hands every loader and action. Built once per request.
 * The web app never touches the database: it calls the product API through `apiFetch`,
 * keeps its sessions through `sessions`, and reaches the built-in identity provider's
 * interaction API through `identity` (absent when Auth0 is configured).
 */
export interface WebConfig {
  publicUrl: string
  apiBaseUrl: string
  isProduction: boolean
  secureCookies: boolean
  sessionSecret: string
  supportEmail: string
  /** Who may read /dev/outbox (DEV_OUTBOX): everyone, this machine only, or nobody (production). */
  devOutbox: 'open' | 'loopback' | 'off'
  sentryDsn: string | null
  /**
   * Stream Chat's public key and address when STREAM_API_KEY and STREAM_API_SECRET are set
   * (decision 036): `/messenger` then loads stream-chat-react with JavaScript. Absent: built-in.
   */
  stream?: { apiKey: string; baseUrl: string } | null
  /** SEGMENT_WRITE_KEY (decision 081): Segment's browser library loads with it for consenting visitors; absent: never. */
  segmentWriteKey?: string | null
  /** PAYMENTS (decision 073): false when no page may offer or threaten a charge; on unless said. */
  payments?: boolean
  /** Spec §2's outside links (BLOG_URL, HELP_CENTER_URL…, decision 088); absent: their defaults. */
  links?: OutsideLinks
  auth:
    | { kind: 'builtin'; issuer: string; clientId: string; clientSecret: string; audience: string }
    | { kind: 'auth0'; domain: string; clientId: string; clientSecret: string; audience: string }
}

export interface SessionRecord {
  id: string
  userId: string | null
  data: Record<string, unknown>
  expiresAt: Date
}

export interface SessionStore {
  create(data: Record<string, unknown>, userId: string | null, expiresAt: Date): Promise<string>
  read(id: string): Promise<SessionRecord | null>
  update(id: string, data: Record<string, unknown>, userId: string | null, expiresAt: Date): Promise<void>
  destroy(id: string): Promise<void>
}

export interface OutboxMessage {
  id: string
  to: string
  subject: string
  text: string
  createdAt: string
  /** How the mail server took it (SMTP configured): sent, failed for good, failing and retried, or not tried yet. */
  delivery:
    | { status: 'sent'; at: string }
    | { status: 'failed'; at: string; attempts: number; error: string | null }
    | { status: 'retrying'; attempts: number; error: string | null }
    | { status: 'waiting' }
}

/** A text message in the outbox (decision 049), for the development outbox page. */
export interface SmsOutboxMessage {
  id: string
  to: string
  text: string
  kind: string
  /** Whether it is about an activity (a reply "C" cancels the seat there). */
  aboutActivity: boolean
  createdAt: string
}

export interface IdentityBridge {
  /** Details of an OIDC interaction (sign-in prompt) for the page at /oidc/interaction/:uid. */
  interaction(uid: string): Promise<InteractionDetails | null>
  /** Completes an interaction for an account; returns the URL to send the browser to. */
  finish(uid: string, accountId: string): Promise<string>
  /** Cancels an interaction (the member gave up); returns the URL to go to. */
  abort(uid: string): Promise<string>
  /** Each answer may be `too_many`: the account had too many tries (limits per account). */
  verifyPassword(email: string, password: string): Promise<{ accountId: string } | { error: 'invalid' | 'too_many' }>
  /** `not_sent`: the mail server failed and the member must be told (codes are never sent late). */
  sendCode(email: string, purpose: 'sign_in' | 'reset_password', language: Language): Promise<{ ok: true } | { error: SendCodeError }>
  verifyCode(email: string, code: string, purpose: 'sign_in' | 'reset_password'): Promise<{ accountId: string } | { error: CodeCheckError }>
  /** Sends a confirmation code; the answer is the same whether or not the email is registered. */
  startSignUp(input: SignUpInput): Promise<{ ok: true } | { error: SendCodeError }>
  /** A new code for the sign-up started at `email` (or its account); the same answer whatever is sent. */
  resendSignUp(email: string, language: Language): Promise<{ ok: true } | { error: SendCodeError }>
  confirmSignUp(email: string, code: string): Promise<{ accountId: string; created: boolean } | { error: CodeCheckError }>
  resetPassword(email: string, code: string, password: string): Promise<{ ok: true } | { error: CodeCheckError }>
  endSession(cookieHeader: string | null): Promise<void>
}

export type SendCodeError = 'too_many' | 'not_sent'
export type CodeCheckError = 'invalid' | 'expired' | 'too_many'

export interface InteractionDetails {
  uid: string
  prompt: string
  screenHint: 'signup' | null
  loginHint: string | null
  language: Language | null
  /** Where the member came from, for the "cancel" link. */
  clientName: string
}

export interface SignUpInput {
  email: string
  password: string | null
  firstName: string
  lastName: string
  dob: string
  language: Language
}

export interface WebServices {
  config: WebConfig
  apiFetch: (request: Request) => Promise<Response>
  /** Roughly where an internet address is (city level, offline data); null when unknown or outside the US. */
  locate: (address: string) => Promise<{ lat: number; lng: number } | null>
  sessions: SessionStore
  identity: IdentityBridge | null
  /** The dev outbox (sent emails), outside production only; `config.devOutbox` says to whom. */
  outbox: ((limit: number, filter?: { to?: string; offset?: number }) => Promise<OutboxMessage[]>) | null
  /** The texts in the SMS outbox, shown on the same page under the same rule. */
  smsOutbox?: ((limit: number) => Promise<SmsOutboxMessage[]>) | null
  reportError: (error: unknown, context: Record<string, unknown>) => void
  /** First-party analytics (decision 081); absent (some tests): nothing is recorded. */
  analytics?: WebAnalytics
  log: (level: 'info' | 'warn' | 'error', message: string, data?: Record<string, unknown>) => void
}

export interface RequestContext {
  cspNonce: string
  requestId: string
  /** The client's address: the socket's, or the one trusted proxies report (TRUST_PROXY). */
  clientAddress: string
  /** The address of the connection itself, whatever proxies report (req.socket.remoteAddress). */
  peerAddress: string
  services: WebServices

  // What the request works out as it goes, each filled by the app on first use and then read
  // from here (decision 015). The host leaves them unset: the app's modules are bundled apart
  // from server.ts, so only the app can build its own objects (an ApiError made by the host's
  // copy of a module would fail the bundle's `instanceof` checks).

  /** The product API's resource clients, holding the token, language and request id (`getApi`). */
  api?: Api
  /** The web session record, read once even when loaders ask at the same time (`getSession`). */
  session?: Promise<WebSession>
  /** Who is asking, resolved once even when loaders ask at the same time (`getAuthState`). */
  member?: Promise<AuthState>
  /** The same, once known (pages drawn during an outage read it without waiting). */
  memberKnown?: AuthState
  /** The page's language (`detectLanguage`). */
  language?: Language
  /** The caller's feature flags, asked of the API once per request (`requestFlags`, decisions 079, 080); null when it could not answer. */
  flags?: Promise<EvaluatedFlags | null>
  /** The access token was renewed: the session cookie is sent again (root loader). */
  sessionRenewed?: boolean
  /** The session ended (suspended, refused token): its cookie is cleared (root loader). */
  sessionEnded?: boolean
  /** A form on the page was refused: the title starts with "Error:" (`markFormError`). */
  formError?: boolean
  /** The action kept the member's submission during an outage (`keepFormOnOutage`). */
  formKeptDuringOutage?: boolean
}

declare module '@remix-run/server-runtime' {
  interface AppLoadContext extends RequestContext {}
}
