import type { NextFunction, Request, Response } from 'express'
import type { Logger } from '../logger.ts'
import { discardBody } from './body-limit.ts'
import { sendRefusal } from './refusal-page.ts'

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
