import { createCookie, type AppLoadContext } from '@remix-run/node'

/**
 * A signed, HttpOnly, SameSite=Lax cookie of this site for `maxAge` seconds: `__Host-<name>` and
 * Secure on https, as the session cookie is (browsers take Secure cookies on http only from
 * localhost).
 */
export function siteCookie(context: AppLoadContext, name: string, maxAge: number) {
  const { secureCookies, sessionSecret } = context.services.config
  return createCookie(secureCookies ? `__Host-${name}` : name, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies,
    maxAge,
    secrets: [sessionSecret],
  })
}
