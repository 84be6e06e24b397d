import { randomUUID } from 'node:crypto'
import { appendFileSync } from 'node:fs'
import { test as base, expect, type Browser, type BrowserContext, type BrowserContextOptions, type Page, type APIRequestContext } from '@playwright/test'
import { htmlProblems } from '../html-validate.ts'

export { expect }

export const baseURL = process.env.BASE_URL ?? 'http://localhost:3210'
export const password = 'correct horse battery 55'
export const languages = ['en', 'fr', 'nl'] as const
export type Language = (typeof languages)[number]

/**
 * E2E_PROFILE=<file>: the time each costly helper takes (sign-in, sign-up, an accessibility scan…),
 * summed per helper in each worker and appended to the file as one JSON line when the worker ends.
 * `node scripts/e2e-profile.ts <file> <playwright json report>` prints the table.
 */
const profileFile = process.env.E2E_PROFILE
const spent = new Map<string, { calls: number; ms: number }>()
if (profileFile) process.on('exit', () => appendFileSync(profileFile, `${JSON.stringify(Object.fromEntries(spent))}\n`))

export function profiled<Args extends unknown[], T>(name: string, work: (...args: Args) => Promise<T>) {
  if (!profileFile) return work
  return async (...args: Args): Promise<T> => {
    const started = performance.now()
    try {
      return await work(...args)
    } finally {
      const entry = spent.get(name) ?? { calls: 0, ms: 0 }
      entry.calls++
      entry.ms += performance.now() - started
      spent.set(name, entry)
    }
  }
}

/** Runs `work`, its time counted under `name` (see E2E_PROFILE). */
export function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
  return profiled(name, work)()
}

let ipCounter = 0
/**
 * The server trusts one proxy hop in e2e runs (TRUST_PROXY=1), so each browser context gets its own
 * client address: the per-IP sign-in rate limit then applies per simulated visitor.
 */
export function visitorIp() {
  ipCounter++
  const n = (process.pid * 7919 + ipCounter * 104729 + Math.floor(Math.random() * 1e6)) >>> 0
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${(n & 254) + 1}`
}

/**
 * QUALITY.md: no CSP violation or console error on any page, and html-validate passes on every
 * page. Every context a test opens (the `page` fixture's and newVisitor's) is watched; what it
 * finds fails the test at its end, listed. One worker runs one test at a time, so one list.
 */
const problems: string[] = []
const checking: Promise<unknown>[] = []
/** Documents already validated in this worker, by status, route shape and query names. */
const validated = new Set<string>()

/**
 * Console errors a test causes on purpose, and why they are not defects. A missing asset (a
 * script, stylesheet, image or font answered 4xx/5xx) is never one of them.
 */
const expectedConsoleErrors: { text: RegExp; why: string }[] = [
  {
    text: /^Failed to load resource: the server responded with a status of [45]\d\d\b/,
    why: 'a page or data request answered with the error a test asks for (the 404 page, a refused form, a simulated server failure); the test checks that answer itself',
  },
  {
    text: /^Failed to load resource: net::ERR_FAILED$/,
    why: 'a request the test aborts with page.route: every script when it simulates JavaScript off, another site in the redirect tests',
  },
  {
    text: /^AbortError: (signal is aborted without reason|BodyStreamBuffer was aborted)(\n|$)/,
    why: 'a click that leaves a page while its data was still arriving (the reload after sending a message), or a fetcher asked again before its first answer came (the help panel reloading its conversation): the router aborts that stale request, and Remix’s single fetch logs the aborted read of its body (console.error in fetchAndDecode; Chromium words it after the body started to arrive as "BodyStreamBuffer was aborted") before dropping it; the next page is drawn as usual, and the test goes on to check it',
  },
]
const assetPath = /\/assets\/|\.(?:js|css|svg|png|jpe?g|ico|woff2?)(?:\?|$)/

/** Console errors the running test declared it causes (`expectConsoleError`), cleared after each test. */
const expectedInThisTest: { text: RegExp; why: string }[] = []

/**
 * Declares a console error the running test causes on purpose, with why it is not a defect (for
 * example Remix logging an answer it cannot decode when the test replaces the server's answer).
 */
export function expectConsoleError(text: RegExp, why: string) {
  expectedInThisTest.push({ text, why })
}

function expectedConsoleError(text: string, url: string) {
  // What the running test declared, with its reason, whatever the address (a test that takes the network away).
  if (expectedInThisTest.some((expected) => expected.text.test(text))) return true
  // A script, stylesheet or image that failed to load is never expected (scripts the test aborts aside).
  if (/^Failed to load resource/.test(text) && assetPath.test(url) && !/net::ERR_FAILED/.test(text)) return false
  return expectedConsoleErrors.some((expected) => expected.text.test(text))
}

/** The page's route shape: ids and numbers stand for any, the query by its names. */
function documentKey(status: number, address: string) {
  const url = new URL(address)
  const path = url.pathname.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z0-9_-]{20,}|\d+/g, ':id')
  return `${status} ${path}?${[...new Set(url.searchParams.keys())].sort().join('&')}`
}

/** Watches a context for console errors, uncaught exceptions, CSP violations and invalid documents. */
export async function watchPages(context: BrowserContext) {
  context.on('console', (message) => {
    if (message.type() !== 'error') return
    const where = message.location().url || message.page()?.url() || ''
    if (!expectedConsoleError(message.text(), where)) problems.push(`console error on ${message.page()?.url() ?? where}: ${message.text()}`)
  })
  context.on('weberror', (error) => problems.push(`uncaught on ${error.page()?.url() ?? '?'}: ${String(error.error())}`))
  // Chromium also logs a violation to the console; the event says which directive, for any page.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} in ${event.sourceFile || document.URL}`)
    })
  })
  context.on('response', (response) => {
    const status = response.status()
    const kind = response.request().resourceType()
    if (['script', 'stylesheet', 'image', 'font', 'manifest'].includes(kind) && status >= 400 && response.url().startsWith(baseURL)) {
      problems.push(`missing ${kind} ${response.url()} (${status}) on ${response.frame().url()}`)
    }
    if (kind !== 'document' || status < 200 || (status >= 300 && status < 400)) return
    if (!response.url().startsWith(baseURL) || !(response.headers()['content-type'] ?? '').startsWith('text/html')) return
    const key = documentKey(status, response.url())
    if (validated.has(key)) return
    validated.add(key)
    checking.push(
      response.text().then(
        async (html) => {
          for (const problem of await htmlProblems(html)) problems.push(`invalid HTML at ${response.url()} (${status}): ${problem}`)
        },
        // The page moved on before its body was read: the next visit of this shape is checked.
        () => validated.delete(key),
      ),
    )
  })
}

export const test = base.extend<{ pageProblems: void }>({
  extraHTTPHeaders: async ({}, use) => {
    await use({ 'x-forwarded-for': visitorIp() })
  },
  context: async ({ context }, use) => {
    await watchPages(context)
    await use(context)
  },
  pageProblems: [
    async ({}, use) => {
      problems.length = 0
      expectedInThisTest.length = 0
      await use()
      await Promise.all(checking.splice(0))
      expect(problems, 'console errors, CSP violations and invalid HTML on the pages this test opened').toEqual([])
    },
    { auto: true },
  ],
})

export async function newVisitor(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    ...options,
    extraHTTPHeaders: { 'x-forwarded-for': visitorIp(), ...options.extraHTTPHeaders },
  })
  await watchPages(context)
  return context
}

export function uniqueEmail(prefix = 'member') {
  return `${prefix}-${randomUUID().slice(0, 12)}@e2e.test`
}

/**
 * A loopback client address: the outbox answers only this machine (DEV_OUTBOX=loopback), and with
 * TRUST_PROXY=1 the server reads the client from X-Forwarded-For. Varied, so the per-address
 * rate limit does not add up across tests.
 */
function loopbackIp() {
  const n = visitorIp().split('.')
  return `127.${n[1]}.${n[2]}.${n[3]}`
}

/** The newest 6-digit code emailed to `email`, read from the development outbox (/dev/outbox). */
export const latestCode = profiled('latestCode', async function latestCode(request: APIRequestContext, email: string, after?: string): Promise<string> {
  const deadline = Date.now() + 15_000
  for (;;) {
    const response = await request.get(`${baseURL}/dev/outbox?to=${encodeURIComponent(email)}`, { headers: { 'x-forwarded-for': loopbackIp() } })
    expect(response.status(), 'GET /dev/outbox').toBe(200)
    const html = await response.text()
    // Messages are listed newest first; each is an <article> with the recipient and body.
    for (const article of html.split('<article').slice(1)) {
      if (!article.includes(email)) continue
      const body = /data-testid="outbox-body"[^>]*>([\s\S]*?)<\/p>/.exec(article)?.[1] ?? article
      const code = /\b(\d{6})\b/.exec(body)?.[1]
      if (code && code !== after) return code
      break
    }
    if (Date.now() > deadline) throw new Error(`No code emailed to ${email} in /dev/outbox`)
    await new Promise((resolve) => setTimeout(resolve, 300))
  }
})

/** The text of the newest email to `email` whose subject matches, read from /dev/outbox (waits for it). */
export async function latestMail(request: APIRequestContext, email: string, subject: RegExp): Promise<string> {
  const deadline = Date.now() + 60_000
  for (;;) {
    const response = await request.get(`${baseURL}/dev/outbox?to=${encodeURIComponent(email)}`, { headers: { 'x-forwarded-for': loopbackIp() } })
    expect(response.status(), 'GET /dev/outbox').toBe(200)
    for (const article of (await response.text()).split('<article').slice(1)) {
      const to = /data-testid="outbox-to"[^>]*>([^<]*)</.exec(article)?.[1]
      const title = /<h2[^>]*>([^<]*)<\/h2>/.exec(article)?.[1] ?? ''
      if (to !== email || !subject.test(title)) continue
      return /data-testid="outbox-body"[^>]*>([\s\S]*?)<\/p>/.exec(article)?.[1] ?? ''
    }
    if (Date.now() > deadline) throw new Error(`No email matching ${String(subject)} to ${email} in /dev/outbox`)
    await new Promise((resolve) => setTimeout(resolve, 300))
  }
}

/**
 * The birth-year list of the sign-up form. Waits for it: after a client-side navigation the URL
 * can already be the sign-up page's while the sign-in page (which has an #email too) is on screen.
 */
export async function yearOptions(page: Page): Promise<number[]> {
  await expect(page.locator('#birthYear option[value]:not([value=""])').first()).toBeAttached()
  const values = await page.locator('#birthYear option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))
  return values.filter(Boolean).map(Number)
}

export type Details = { firstName: string; lastName: string; email: string; password?: string }

/** Fills the sign-up details form (on /identity/<uid>/signup) with the given birth date. */
export async function fillSignUpDetails(page: Page, details: Details, dob: { year: number; month: number; day: number }) {
  await page.locator('#firstName').fill(details.firstName)
  await page.locator('#lastName').fill(details.lastName)
  await page.locator('#email').fill(details.email)
  await page.locator('#birthMonth').selectOption(String(dob.month))
  await page.locator('#birthDay').selectOption(String(dob.day))
  await page.locator('#birthYear').selectOption(String(dob.year))
  if (details.password) await page.locator('#password').fill(details.password)
}

export async function submit(page: Page, name: string) {
  await page.getByRole('button', { name, exact: true }).click()
}

/** Moves on from `/get-started/notifications`: "Not now" with JavaScript, "Continue" without it (decision 045). */
export async function skipNotificationsStep(page: Page) {
  await page.getByRole('button', { name: /^(Not now|Continue)$/ }).first().click()
}

/**
 * Signs up a new member through the real flow (details → emailed code), ending on /get-started.
 * With `onboard`, also completes "About you", skips the optional steps and ends on /get-started/success.
 */
export const signUp = profiled('signUp', async function signUp(page: Page, options: { email?: string; password?: string; onboard?: boolean } = {}) {
  const email = options.email ?? uniqueEmail()
  const details = { firstName: 'Maria', lastName: 'Testing', email, password: options.password ?? password }
  await page.goto('/signup')
  await expect(page).toHaveURL(/\/identity\/[^/]+\/signup/)
  await untilHydrated(page, '#email')
  const oldest = Math.min(...(await yearOptions(page)))
  await fillSignUpDetails(page, details, { year: oldest, month: 6, day: 15 })
  await submit(page, 'Continue')
  await expect(page.locator('#code')).toBeVisible()
  const code = await latestCode(page.context().request, email)
  await page.locator('#code').fill(code)
  await submit(page, 'Finish creating my account')
  await expect(page).toHaveURL(/\/get-started\/?$/)
  if (options.onboard) await completeOnboarding(page)
  return { ...details, email }
})

export const completeOnboarding = profiled('completeOnboarding', async function completeOnboarding(page: Page) {
  await page.locator('input[name="gender"]').first().check()
  await page.locator('input[name="reasons"]').first().check()
  await page.locator('#phone').fill('')
  await submit(page, 'Save and continue')
  await skipOptionalOnboardingSteps(page)
})

/**
 * Skips onboarding's optional steps 2 to 7 in the spec's order (issue 33 §3), from the home city
 * to the success page, checking each address (with `?returnTo=` when `returnTo` is set).
 */
export async function skipOptionalOnboardingSteps(page: Page, { returnTo = false } = {}) {
  const at = (step: string) => expect(page).toHaveURL(new RegExp(`/get-started/${step}${returnTo ? '\\?returnTo=' : ''}`))
  for (const step of ['location', 'notifications', 'profile-photo', 'subscription', 'verification', 'medicare'] as const) {
    await at(step)
    if (step === 'notifications') await skipNotificationsStep(page)
    else if (step === 'medicare') await submit(page, 'Not now')
    else await submit(page, 'Skip for now')
  }
  await at('success')
}

/**
 * Waits until React has hydrated the element when the page runs JavaScript (STYLE.md: wait for
 * hydration before clicking). A click that lands while React is still hydrating the form can
 * make React 18 throw "Root did not complete" (#345) as the page goes away (seen once on a
 * loaded 2-core machine); a member's slower click does not race it. Without JavaScript, or with
 * its scripts blocked, there is nothing to wait for.
 */
export async function untilHydrated(page: Page, selector: string) {
  await page.waitForFunction((target) => {
    // JavaScript off: Remix's inline scripts never ran.
    if (!('__remixContext' in window)) return true
    // Scripts blocked (a test aborts every .js): the route modules never loaded, by the load event.
    if (document.readyState === 'complete' && !('__remixRouteModules' in window)) return true
    const element = document.querySelector(target)
    return !!element && Object.keys(element).some((key) => key.startsWith('__reactFiber'))
  }, selector)
}

/** Signs in with email and password from anywhere (starts at /login). */
export const signIn = profiled('signIn', async function signIn(page: Page, email: string, pass: string = password, returnTo?: string) {
  await page.goto(returnTo ? `/login?returnTo=${encodeURIComponent(returnTo)}` : '/login')
  await expect(page).toHaveURL(/\/identity\/[^/]+$/)
  await untilHydrated(page, '#email')
  await page.locator('#email').fill(email)
  await page.locator('#password').fill(pass)
  await submit(page, 'Sign in')
  await expect(page).not.toHaveURL(/\/identity\//)
})

/** Who `signInOverHttp` signed in in each browser context (the e2e factories act for them). */
const signedIn = new WeakMap<BrowserContext, string>()

/** The email of the member `signInOverHttp` signed in in `page`'s browser context. */
export function signedInEmail(page: Page) {
  const email = signedIn.get(page.context())
  if (!email) throw new Error('No member was signed in in this browser context with signInOverHttp')
  return email
}

/**
 * Signs a member in over HTTP, as their browser would without drawing a page: the identity
 * provider's form, its redirects and the session cookie, into `context`. For tests about something
 * else; the tests about signing in go through the pages (`signIn`). With `lng`, the account's
 * language is set too (it is kept between runs).
 */
export const signInOverHttp = profiled('signInOverHttp', async function signInOverHttp(context: BrowserContext, email: string, pass: string = password, lng?: Language) {
  const form = await context.request.get(`${baseURL}/login`)
  expect(new URL(form.url()).pathname, 'the sign-in form').toMatch(/^\/identity\/[^/]+$/)
  // The identity provider's redirects, up to the app's home page, which is not drawn.
  let response = await context.request.post(form.url(), { form: { email, password: pass }, headers: { origin: baseURL }, maxRedirects: 0 })
  for (let hops = 0; hops < 10 && response.status() >= 300 && response.status() < 400; hops++) {
    const next = new URL(response.headers()['location'] ?? '', response.url())
    if (next.pathname === '/') break
    response = await context.request.get(next.href, { maxRedirects: 0 })
  }
  expect(response.headers()['location'], `${email} is signed in`).toBe('/')
  signedIn.set(context, email)
  if (lng) await setLanguage(context, lng)
})

/**
 * Chooses the language over HTTP, as the footer's form does (saved on the account when signed in),
 * without drawing a page. The form itself is tested where the language is the point.
 */
export async function setLanguage(context: BrowserContext, lng: Language) {
  const response = await context.request.post(`${baseURL}/api/localize`, { form: { lng, returnTo: '/' }, headers: { origin: baseURL }, maxRedirects: 0 })
  expect(response.status(), `language ${lng} chosen`).toBeLessThan(400)
}

/** Switches language with the footer form (works with or without JavaScript). */
export const switchLanguage = profiled('switchLanguage', async function switchLanguage(page: Page, lng: Language) {
  const form = page.locator('form:has(select[name="lng"])')
  await form.locator('select[name="lng"]').selectOption(lng)
  await Promise.all([page.waitForLoadState('load'), form.locator('button[type="submit"]').click()])
  await expect(page.locator('html')).toHaveAttribute('lang', lng)
})

/** Sets the language cookie the way the server serialises it (Remix cookie: base64 JSON). */
export async function setLanguageCookie(context: BrowserContext, lng: Language) {
  const value = encodeURIComponent(Buffer.from(JSON.stringify(lng)).toString('base64'))
  await context.addCookies([{ name: 'lng', value, url: baseURL }])
}
