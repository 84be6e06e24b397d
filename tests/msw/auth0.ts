import { http, HttpResponse } from 'msw'
import type { JSONWebKeySet } from 'jose'

/**
 * Auth0 as its documentation describes it: the tenant's JWKS at /.well-known/jwks.json and the
 * token endpoint at /oauth/token (authorization_code with PKCE, refresh_token), client
 * credentials in HTTP Basic or the body.
 * https://auth0.com/docs/api/authentication#get-token
 */
export function auth0Handlers(options: {
  domain: string
  clientId: string
  clientSecret: string
  jwks: () => JSONWebKeySet
  issueTokens: (grant: { grantType: string; code?: string; refreshToken?: string }) => Promise<Record<string, unknown>>
}) {
  const base = `https://${options.domain}`
  return [
    http.get(`${base}/.well-known/jwks.json`, () => HttpResponse.json(options.jwks())),
    http.post(`${base}/oauth/token`, async ({ request }) => {
      const body = new URLSearchParams(await request.text())
      const basic = request.headers.get('authorization')
      const [id, secret] = basic?.startsWith('Basic ')
        ? Buffer.from(basic.slice(6), 'base64').toString().split(':').map(decodeURIComponent)
        : [body.get('client_id'), body.get('client_secret')]
      if (id !== options.clientId || secret !== options.clientSecret) {
        return HttpResponse.json({ error: 'access_denied', error_description: 'Unauthorized' }, { status: 401 })
      }
      const grantType = body.get('grant_type') ?? ''
      if (grantType === 'authorization_code' && (!body.get('code') || !body.get('code_verifier'))) {
        return HttpResponse.json({ error: 'invalid_request' }, { status: 400 })
      }
      if (grantType === 'refresh_token' && !body.get('refresh_token')) {
        return HttpResponse.json({ error: 'invalid_request' }, { status: 400 })
      }
      if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
        return HttpResponse.json({ error: 'unsupported_grant_type' }, { status: 400 })
      }
      const tokens = await options.issueTokens({
        grantType,
        code: body.get('code') ?? undefined,
        refreshToken: body.get('refresh_token') ?? undefined,
      })
      return HttpResponse.json({ token_type: 'Bearer', expires_in: 86400, ...tokens })
    }),
  ]
}
