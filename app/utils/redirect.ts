/**
 * `returnTo` and other redirect targets: same-origin paths only. Anything else (absolute URLs,
 * protocol-relative `//host`, `/\host`, encoded variants, control characters) becomes `fallback`.
 */
export function safeRedirectPath(target: string | null | undefined, fallback = '/') {
  if (!target || typeof target !== 'string') return fallback
  let decoded = target
  try {
    // Decode repeatedly so %2F%2F and doubly encoded tricks are seen for what they are.
    for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(decoded); i++) decoded = decodeURIComponent(decoded)
  } catch {
    return fallback
  }
  if (!decoded.startsWith('/')) return fallback
  if (decoded.startsWith('//') || decoded.startsWith('/\\')) return fallback
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(decoded)) return fallback
  const url = new URL(target, 'http://placeholder.invalid')
  if (url.origin !== 'http://placeholder.invalid') return fallback
  return url.pathname + url.search + url.hash
}
