/**
 * Who the development outbox answers (DEV_OUTBOX, decision 007), and what it drives: the page at
 * `/dev/outbox` and the development SMS webhook its "Reply as this member" posts to (decision 066).
 * One rule for both, shared by the web host and the API: pure, it ships nowhere near a browser.
 */
export type DevOutboxAccess = 'open' | 'loopback' | 'off'

/** 127.0.0.0/8 or ::1, also as an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`). */
export function isLoopbackAddress(address: string | undefined) {
  if (address === '::1') return true
  const v4 = address?.startsWith('::ffff:') ? address.slice(7) : address
  return v4 !== undefined && /^127(\.\d{1,3}){3}$/.test(v4)
}

/**
 * Whether a request may use the outbox: `off` never, `open` always, `loopback` only when every
 * address it came through is this machine's. Give the connection's address and the client's (the
 * one a trusted proxy reported, or every X-Forwarded-For entry): the connection alone would let in
 * everyone behind a reverse proxy on this machine, and the client address alone can be forged with
 * X-Forwarded-For. A call made inside this very process has no address at all: it came from here.
 */
export function devOutboxAllows(access: DevOutboxAccess, addresses: readonly (string | undefined)[]) {
  if (access === 'off') return false
  if (access === 'open') return true
  return addresses.every(isLoopbackAddress)
}
