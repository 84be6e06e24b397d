import type { Browser } from '@playwright/test'
import { demoPassword } from './activity-helpers.ts'
import { Scanner } from './axe.ts'
import { expect, expectConsoleError, newVisitor, signIn, switchLanguage, test, untilHydrated, type Language } from './helpers.ts'

/**
 * The installable app (issue 15 §5, decision 045) in Chromium with the production build: the
 * manifest, the service worker (only hashed assets and the offline page kept; pages from the
 * network), the offline page, and the onboarding notification step in en, fr and nl.
 * Demo members 180–182 of its own.
 */

async function member(browser: Browser, email: string, language: Language) {
  const context = await newVisitor(browser, { serviceWorkers: 'allow' })
  const page = await context.newPage()
  await signIn(page, email, demoPassword)
  if ((await page.locator('html').getAttribute('lang')) !== language) await switchLanguage(page, language)
  return page
}

test('the manifest is linked from every page and describes an app that installs', async ({ browser }) => {
  const context = await newVisitor(browser)
  const page = await context.newPage()
  await page.goto('/')
  const href = await page.locator('link[rel="manifest"]').getAttribute('href')
  expect(href).toBe('/manifest.webmanifest')
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#0b5563')
  const response = await context.request.get(href!)
  expect(response.headers()['content-type']).toBe('application/manifest+json; charset=utf-8')
  const manifest = (await response.json()) as { name: string; display: string; start_url: string; icons: { src: string; sizes: string; purpose: string }[] }
  expect(manifest).toMatchObject({ name: 'Circle 55', display: 'standalone', start_url: '/' })
  expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable'])
  for (const icon of manifest.icons) {
    const image = await context.request.get(icon.src)
    expect(image.status(), icon.src).toBe(200)
    expect(image.headers()['content-type'], icon.src).toBe('image/png')
  }
  await context.close()
})

test('the service worker keeps hashed assets and the offline page, never a page; offline, a visit shows the offline page', async ({ browser }) => {
  const page = await member(browser, 'member180@demo.test', 'en')
  await page.goto('/activities')
  await untilHydrated(page, 'main')
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)
  expect(new URL(scope).pathname).toBe('/')
  // Assets fetched while the worker controls the page are kept.
  await page.reload()
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
  const kept = await page.evaluate(async () => {
    const urls: string[] = []
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname)
    }
    return urls
  })
  expect(kept).toEqual(expect.arrayContaining(['/offline/en', '/offline/fr', '/offline/nl', '/refusal.css']))
  expect(kept.some((path) => path.startsWith('/assets/'))).toBe(true)
  expect(kept.filter((path) => !path.startsWith('/assets/') && !path.startsWith('/offline/') && path !== '/refusal.css')).toEqual([])

  // Online, a page comes from the network (the member's own data), not the cache.
  await page.goto('/attending')
  await expect(page.locator('h1')).not.toHaveText('No internet connection')

  expectConsoleError(/^Failed to load resource: net::ERR_INTERNET_DISCONNECTED$/, 'offline, the service worker tries the network first (as it must) before it answers with the offline page')
  expectConsoleError(
    /^Failed to fetch manifest patches TypeError: Failed to fetch/,
    'the test takes the network away while the open page may still be asking for its links’ routes (Remix’s route discovery, /__manifest)',
  )
  await page.context().setOffline(true)
  await page.goto('/activities').catch(() => undefined)
  await expect(page.getByRole('heading', { level: 1, name: 'No internet connection' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Try again' })).toBeVisible()
  await page.context().setOffline(false)
  await page.getByRole('link', { name: 'Try again' }).click()
  await expect(page).toHaveURL(/\/activities$/)
  await expect(page.locator('h1')).not.toHaveText('No internet connection')
  await page.context().close()
})

test('the notifications step explains, asks only on the button, and Not now goes on; axe in en, fr and nl', async ({ browser }) => {
  test.setTimeout(120_000)
  const cases: [Language, string, string][] = [
    ['en', 'member181@demo.test', 'Hear about your activities'],
    ['fr', 'member182@demo.test', 'Restez au courant de vos activités'],
    ['nl', 'member183@demo.test', 'Blijf op de hoogte van uw activiteiten'],
  ]
  for (const [language, email, heading] of cases) {
    const page = await member(browser, email, language)
    const scan = new Scanner(page, language, 'get started, notifications')
    await page.goto('/get-started/notifications')
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
    await untilHydrated(page, 'main button')
    await scan.scan('/get-started/notifications')
    if (language === 'en') {
      // Nothing was asked before the button: the browser's permission is still undecided.
      expect(await page.evaluate(() => Notification.permission)).toBe('default')
      await page.context().grantPermissions(['notifications'])
      // Allowing also subscribes for push (decision 048), which Chromium refuses in Playwright's incognito contexts.
      expectConsoleError(/^Chrome currently does not support the Push API in incognito mode/, 'Playwright’s contexts are incognito; the page says it could not connect for push and goes on')
      await page.getByRole('button', { name: 'Allow notifications' }).click()
      await expect(page.getByText('Notifications are on. Thank you!')).toBeVisible()
      await page.getByRole('button', { name: 'Continue' }).click()
      await expect(page).toHaveURL(/\/get-started\/profile-photo/)
    }
    scan.report()
    await page.context().close()
  }
})

test('without JavaScript the notifications step explains, and Continue goes on and saves the weekly suggestions when ticked', async ({ browser }) => {
  const context = await newVisitor(browser)
  await context.route('**/*.js', (route) => route.abort())
  const page = await context.newPage()
  await signIn(page, 'member184@demo.test', demoPassword)
  if ((await page.locator('html').getAttribute('lang')) !== 'en') await switchLanguage(page, 'en')
  await page.goto('/get-started/notifications')
  await expect(page.getByText('JavaScript is off in this browser, so you can simply continue.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Allow notifications' })).toHaveCount(0)
  const scan = new Scanner(page, 'en', 'get started, notifications, no JavaScript')
  await scan.scan('/get-started/notifications')
  // The weekly "activities near you" is offered unticked; ticked, Continue turns it on (decision 051).
  const weekly = page.getByLabel('Send me a weekly email with activities near me')
  await expect(weekly).not.toBeChecked()
  await weekly.check()
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page).toHaveURL(/\/get-started\/profile-photo/)
  await page.goto('/account/notification-settings')
  const near = page.getByRole('group', { name: 'Activities near you', exact: true })
  await expect(near.getByLabel('Email')).toBeChecked()
  await expect(near.getByLabel('On Circle 55, under “Notifications”')).toBeChecked()
  scan.report()
  await context.close()
})
