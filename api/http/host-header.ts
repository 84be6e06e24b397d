import type { NextFunction, Request, Response } from 'express'
import type { Logger } from '../logger.ts'
import { discardBody } from './body-limit.ts'
import { sendRefusal } from './refusal-page.ts'
import { isApiPath } from './security.ts'

/**
 * A DNS name or IPv4 address, or an IPv6 literal in brackets, with an optional port: what a
 * browser or proxy sends (RFC 9110 §7.2). Anything else (`exa mple`, `[::1`, non-ASCII) is
 * refused before the web app builds its request URL from it, which would throw (a 500).
 */
const hostPattern = /^(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/

export function isValidHost(host: string) {
  const match = hostPattern.exec(host)
  if (!match) return false
  if (match[1] !== undefined && Number(match[1]) > 65_535) return false
  return URL.canParse(`http://${host}/`)
}

/**
 * Answers 400 to a request whose Host (or X-Forwarded-Host, whose port the Remix adapter reads
 * even from an untrusted client) is malformed, or whose target does not make a URL with it.
 * Nothing here trusts the Host: published URLs come from PUBLIC_URL (QUALITY.md); this only
 * stops a malformed one from reaching code that parses it.
 */
export function refuseMalformedHost(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const host = req.get('host') ?? ''
    const forwarded = req.get('x-forwarded-host')
    const valid =
      isValidHost(host) &&
      (forwarded === undefined || forwarded.split(',').every((entry) => isValidHost(entry.trim()))) &&
      URL.canParse(`http://${host}${req.originalUrl}`)
    if (valid) return next()
    logger.warn(
      { requestId: res.locals.requestId as string, method: req.method, host, forwardedHost: forwarded },
      'Malformed Host header refused',
    )
    discardBody(req)
    sendRefusal(req, res, 400, 'badRequest').catch(next)
  }
}

/**
 * The host the browser asked for: X-Forwarded-Host when the proxy that sent it is trusted
 * (TRUST_PROXY, as Express reads it for `req.hostname`), otherwise Host; port included.
 */
function requestedHost(req: Request) {
  const trusted = req.app.get('trust proxy fn') as (address: string | undefined, hop: number) => boolean
  const forwarded = req.get('x-forwarded-host')
  if (forwarded && trusted(req.socket.remoteAddress, 0)) return forwarded.split(',')[0]!.trim()
  return req.get('host') ?? ''
}

/** The path and query of the request target, also when it came in absolute form. */
function pathAndQuery(target: string) {
  if (target.startsWith('/')) return target
  try {
    const url = new URL(target)
    return `${url.pathname}${url.search}`
  } catch {
    return '/'
  }
}

/**
 * The product lives at one address, PUBLIC_URL: sign-in comes back there, its cookies are set
 * there, and forms are accepted only from pages there (refuseCrossSite). A page opened at another
 * name for the same server (`http://127.0.0.1:3000`, a LAN address) would send forms that are
 * refused and sign-ins that land elsewhere, so a GET or HEAD that arrives at another host is sent
 * to the same path and query at PUBLIC_URL before the member starts anything (decision 016).
 * Not redirected: other methods (a redirect would drop or replay a body; the cross-site check
 * decides), health checks (`/healthz`, `/api/health`: a load balancer asks by address) and the
 * API (`/api/*` is called with bearer tokens by programs, which a redirect to another origin
 * would strip). The scheme is not compared: without TRUST_PROXY a proxy that ends TLS talks
 * plain http to us, and that comparison would loop; HSTS keeps browsers on https.
 */
export function redirectToCanonicalHost(publicUrl: string) {
  const canonical = new URL(publicUrl)
  return (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path === '/healthz' || isApiPath(req.path)) return next()
    let host: string
    try {
      host = new URL(`${canonical.protocol}//${requestedHost(req)}`).host
    } catch {
      host = ''
    }
    if (host === canonical.host) return next()
    res.redirect(302, `${canonical.origin}${pathAndQuery(req.originalUrl)}`)
  }
}
