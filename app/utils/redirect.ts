const base = 'http://placeholder.invalid'

/**
 * `returnTo` and other redirect targets: same-origin paths only. Anything else (absolute URLs,
 * protocol-relative `//host`, `/\host`, encoded variants, control characters) becomes `fallback`.
 *
 * What is checked is also what is returned: the target as given, each decoding of it, the path
 * the URL parser normalises it to (dot segments collapse: `/.//evil.example` becomes
 * `//evil.example`) and each decoding of that.
 */
export function safeRedirectPath(target: string | null | undefined, fallback = '/') {
  if (!target || typeof target !== 'string') return fallback
  if (!everyDecodingIsLocal(target)) return fallback
  const url = new URL(target, base)
  const result = url.pathname + url.search + url.hash
  return everyDecodingIsLocal(result) ? result : fallback
}

/**
 * `path` carrying where to go after it (`/get-started?returnTo=%2Factivities%2F42`), for pages a
 * member passes through on the way back (onboarding, welcome back); `/` needs no carrying.
 */
export function pathWithReturnTo(path: string, returnTo: string) {
  return returnTo === '/' ? path : `${path}?returnTo=${encodeURIComponent(returnTo)}`
}

/** The value and each of its decodings (until nothing more decodes) are same-origin paths. */
function everyDecodingIsLocal(value: string) {
  let current = value
  // Doubly and triply encoded tricks are seen for what they are; deeper nesting is refused.
  for (let round = 0; round < 5; round++) {
    if (!isLocalPath(current)) return false
    if (!/%[0-9a-f]{2}/i.test(current)) return true
    let decoded
    try {
      decoded = decodeURIComponent(current)
    } catch {
      return false
    }
    if (decoded === current) return true
    current = decoded
  }
  return false
}

function isLocalPath(value: string) {
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return false
  // Browsers drop tabs and newlines inside URLs (`/\t/host` is `//host`) and read `\` as `/`.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return false
  const url = new URL(value, base)
  return url.origin === base && !url.pathname.startsWith('//')
}
