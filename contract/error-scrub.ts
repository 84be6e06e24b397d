/**
 * What error reports may carry (issue 32 §6, decision 083): the request id, the method, the
 * path, the error and where it happened; never what members wrote (message text, reports,
 * feedback, profile text), their emails or their phone numbers. Error reporting (Sentry, on the
 * API, the web server and in the browser) runs every event and breadcrumb through here before
 * it leaves, and the server's reports run their context through `scrubValue` first. Pure, so
 * the server and the browser share it.
 */

export const filtered = '[Filtered]'

/**
 * Keys whose values are what a member wrote or how to reach them, compared without case,
 * hyphens or underscores. Their values are dropped whatever they hold.
 */
const sensitiveKeys = new Set(
  [
    'text', 'body', 'content', 'message_text', 'messages', 'feedback', 'reason', 'details', 'bio', 'about', 'answer', 'prompt', 'prompts',
    'email', 'emails', 'email_address', 'login_hint', 'phone', 'phone_number', 'mobile', 'to', 'from_number',
    'password', 'token', 'secret', 'card', 'card_number', 'number', 'cvc', 'dob', 'birth_date', 'address', 'street',
    'first_name', 'last_name', 'name', 'display_name', 'username', 'ip_address',
    'cookie', 'cookies', 'set_cookie', 'authorization', 'query_string', 'form_data',
  ].map(normalizeKey),
)

function normalizeKey(key: string) {
  return key.toLowerCase().replace(/[-_\s]/g, '')
}

export function isSensitiveKey(key: string) {
  return sensitiveKeys.has(normalizeKey(key))
}

// The local part without `/ ? = &`, so an address's path and query around an email stay readable.
const emailPattern = /[\w.!#$%'*+^`{|}~-]+(?:@|%40)[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/gi
/**
 * A phone number: 10 to 15 digits, maybe with a +, spaces, dots, hyphens or brackets, standing
 * alone (not inside an id: a request id's all-digit group is followed by a hyphen and more).
 */
const phoneCandidate = /(?<![\w-])\+?\(?\d[\d\s().-]{7,}\d(?![\w-])/g

/** A string with every email and phone number replaced by `[Filtered]`. */
export function redactText(value: string): string {
  return value
    .replace(emailPattern, filtered)
    .replace(phoneCandidate, (match) => {
      const digits = match.replace(/\D/g, '').length
      return digits >= 10 && digits <= 15 ? filtered : match
    })
}

/** An address without its query string (searches, email links and tokens travel there). */
export function withoutQuery(url: string): string {
  const at = url.search(/[?#]/)
  return redactText(at === -1 ? url : `${url.slice(0, at)}${url[at] === '?' ? `?${filtered}` : ''}`)
}

const urlKeys = new Set(['url', 'from', 'to', 'href', 'referer', 'referrer', 'location', 'path'])

/** Any value with sensitive keys dropped and emails and phone numbers taken out of its strings (depth-limited). */
export function scrubValue(value: unknown, depth = 0, byKey = true): unknown {
  if (typeof value === 'string') return redactText(value)
  if (value === null || typeof value !== 'object') return value
  if (depth > 8) return filtered
  if (value instanceof Error) return redactText(`${value.name}: ${value.message}`)
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1, byKey))
  const scrubbed: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    if (byKey && isSensitiveKey(key) && !urlKeys.has(key.toLowerCase())) scrubbed[key] = filtered
    else if (urlKeys.has(key.toLowerCase()) && typeof item === 'string') scrubbed[key] = withoutQuery(item)
    else scrubbed[key] = scrubValue(item, depth + 1, byKey)
  }
  return scrubbed
}

/** The parts of a Sentry event (https://develop.sentry.dev/sdk/data-model/event-payloads/) this reads; the rest passes as it is. */
export interface ScrubbableEvent {
  message?: string
  exception?: { values?: Array<{ value?: string; stacktrace?: { frames?: ScrubbableFrame[] } }> }
  request?: { url?: string; query_string?: unknown; data?: unknown; cookies?: unknown; headers?: Record<string, string>; env?: unknown }
  user?: { id?: string | number; [key: string]: unknown }
  breadcrumbs?: ScrubbableBreadcrumb[]
  extra?: Record<string, unknown>
  contexts?: Record<string, unknown>
  tags?: Record<string, unknown>
}

/** A stack frame: its local variables (when captured) and the source lines around it. */
export interface ScrubbableFrame {
  vars?: Record<string, unknown>
  pre_context?: string[]
  context_line?: string
  post_context?: string[]
}

export interface ScrubbableBreadcrumb {
  category?: string
  message?: string
  data?: Record<string, unknown>
}

/** Request headers worth keeping: none of them names or reaches a member. */
const keptHeaders = new Set(['user-agent', 'x-request-id', 'content-type', 'accept', 'accept-language', 'content-length'])

/** Sentry's `beforeSend`: the event as it may leave. */
export function scrubEvent<T extends ScrubbableEvent>(event: T): T {
  if (event.message !== undefined) event.message = redactText(event.message)
  for (const exception of event.exception?.values ?? []) {
    if (exception.value !== undefined) exception.value = redactText(exception.value)
    for (const frame of exception.stacktrace?.frames ?? []) {
      if (frame.vars) frame.vars = scrubValue(frame.vars) as Record<string, unknown>
      // Source lines are code, not what members wrote; an address in a literal is still taken out.
      if (frame.context_line !== undefined) frame.context_line = redactText(frame.context_line)
      if (frame.pre_context) frame.pre_context = frame.pre_context.map(redactText)
      if (frame.post_context) frame.post_context = frame.post_context.map(redactText)
    }
  }
  if (event.request) {
    const request = event.request
    delete request.data
    delete request.cookies
    delete request.env
    if (request.query_string !== undefined) request.query_string = filtered
    if (request.url) request.url = withoutQuery(request.url)
    if (request.headers) request.headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => keptHeaders.has(name.toLowerCase())))
  }
  // The member is known by id at most: never their email, name or address.
  if (event.user) event.user = event.user.id === undefined ? {} : { id: event.user.id }
  if (event.breadcrumbs) event.breadcrumbs = event.breadcrumbs.map((crumb) => scrubBreadcrumb(crumb))
  if (event.extra) event.extra = scrubValue(event.extra) as Record<string, unknown>
  // The SDK's contexts (runtime, os, device) name things by `name`: only their text is checked.
  if (event.contexts) event.contexts = scrubValue(event.contexts, 0, false) as Record<string, unknown>
  if (event.tags) event.tags = scrubValue(event.tags) as Record<string, unknown>
  return event
}

/** Sentry's `beforeBreadcrumb`: console lines lose their arguments, addresses their query, text its emails and phone numbers. */
export function scrubBreadcrumb<T extends ScrubbableBreadcrumb>(crumb: T): T {
  if (crumb.message !== undefined) crumb.message = redactText(crumb.message)
  if (crumb.data) {
    const { arguments: _arguments, ...rest } = crumb.data
    crumb.data = scrubValue(rest) as Record<string, unknown>
  }
  return crumb
}
