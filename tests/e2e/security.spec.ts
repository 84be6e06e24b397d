import { baseURL, expect, signIn, signUp, test } from './helpers.ts'

test.use({ javaScriptEnabled: false })

const crossSiteHeaders: Record<string, string>[] = [
  { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
  { Origin: 'https://evil.example' },
  { 'Sec-Fetch-Site': 'cross-site' },
  // Neither header (an old browser, or a program replaying a member's cookies): a Referer on this
  // site is then required (issue 10 §8).
  {},
  { Referer: 'https://evil.example/page' },
]

test('cross-site POSTs to /logout and /identity are refused with 403', async ({ request }) => {
  for (const path of ['/logout', '/identity/some-interaction', '/identity/some-interaction/code', '/api/localize']) {
    for (const headers of crossSiteHeaders) {
      const response = await request.post(path, { headers, form: { intent: 'send', email: 'x@e2e.test', lng: 'fr' }, maxRedirects: 0 })
      expect(response.status(), `POST ${path} with ${JSON.stringify(headers)}`).toBe(403)
    }
  }
})

test('open redirects through returnTo stay on the site', async ({ page }) => {
  const member = await signUp(page, { onboard: true })
  const origin = new URL(baseURL).origin
  const visited: string[] = []
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url())
  })
  await page.context().route((url) => url.hostname.endsWith('evil.example'), (route) => route.abort())

  const attempts = ['https://evil.example', '//evil.example', '/%2F%2Fevil.example', '/\\evil.example']
  for (const target of attempts) {
    // Signed in: /login redirects straight to returnTo.
    await page.goto(`/login?returnTo=${encodeURIComponent(target)}`).catch(() => undefined)
    expect(new URL(page.url()).origin, `signed in, returnTo=${target}`).toBe(origin)
    // Raw, unencoded in the query string as well.
    await page.goto(`${baseURL}/login?returnTo=${target}`).catch(() => undefined)
    expect(new URL(page.url()).origin, `signed in, raw returnTo=${target}`).toBe(origin)
  }

  for (const target of attempts) {
    await page.context().clearCookies()
    await signIn(page, member.email, undefined, target).catch(() => undefined)
    expect(new URL(page.url()).origin, `after sign-in, returnTo=${target}`).toBe(origin)
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible()
  }
  const offsite = visited.filter((url) => url.startsWith('http') && new URL(url).origin !== origin)
  expect(offsite).toEqual([])
})

test('home page sends a strict content security policy and security headers', async ({ request }) => {
  const response = await request.get('/')
  expect(response.status()).toBe(200)
  const headers = response.headers()
  const csp = headers['content-security-policy'] ?? ''
  expect(csp).toContain("'nonce-")
  expect(csp).toContain("object-src 'none'")
  expect(csp).toContain("base-uri 'none'")
  expect(csp).toContain("frame-ancestors 'none'")
  expect(headers['x-content-type-options']).toBe('nosniff')
  expect(headers['referrer-policy']).toBeTruthy()
})

test('the session cookie is HttpOnly, SameSite=Lax, Secure and __Host- prefixed', async ({ page }) => {
  await signUp(page)
  const session = (await page.context().cookies()).find((cookie) => cookie.name === '__Host-session')
  expect(session, 'a __Host-session cookie after sign-in').toBeTruthy()
  expect(session!.httpOnly).toBe(true)
  expect(session!.secure).toBe(true)
  expect(session!.sameSite).toBe('Lax')
  expect(session!.path).toBe('/')
})

test('the API refuses a request without a token with 401 JSON', async ({ request }) => {
  const response = await request.get('/api/v1/users/me')
  expect(response.status()).toBe(401)
  expect(response.headers()['content-type']).toContain('json')
  await response.json()
})
