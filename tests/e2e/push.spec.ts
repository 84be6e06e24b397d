import { createDatabase } from '../../api/db/database.ts'
import { startJobQueue } from '../../api/jobs/queue.ts'
import { queuePush } from '../../api/notifications/push.ts'
import { startPushEndpoint } from '../push-endpoint.ts'
import { demoPassword } from './activity-helpers.ts'
import { expect, expectConsoleError, newVisitor, signIn, switchLanguage, test, untilHydrated } from './helpers.ts'

/**
 * Web push end to end (issue 15 §3 and §7, decision 048), JavaScript on, with the production
 * build's service worker. Headless Chromium has no push service, so member190's browser is
 * registered with a local push service (tests/push-endpoint.ts) through the web's own route;
 * the test queues a push on the server's queue (the server's worker signs, encrypts and sends
 * it); the local service checks the signature and decrypts it; the decrypted payload is then
 * handed to the page's service worker over CDP, as Chromium's push service would.
 * Demo members 190 and 191 of its own.
 */

const silentLogger = { debug() {}, info() {}, warn() {}, error() {}, fatal() {}, trace() {}, child: () => silentLogger } as never

test('the service worker registers and a push sent by the server shows a notification', async ({ browser }) => {
  test.setTimeout(90_000)
  const databaseUrl = process.env.E2E_DATABASE_URL
  test.skip(!databaseUrl, 'run through scripts/e2e.ts, which gives the server’s database')
  const endpoint = await startPushEndpoint()
  const { db } = createDatabase(databaseUrl!)
  const queue = await startJobQueue({ url: databaseUrl!, logger: silentLogger })
  try {
    const context = await newVisitor(browser, { serviceWorkers: 'allow' })
    await context.grantPermissions(['notifications'])
    const page = await context.newPage()
    await signIn(page, 'member190@demo.test', demoPassword)
    if ((await page.locator('html').getAttribute('lang')) !== 'en') await switchLanguage(page, 'en')

    // The worker registers after the page loads; CDP names its registration.
    const cdp = await context.newCDPSession(page)
    const registrations = new Map<string, string>()
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => {
      for (const registration of updated) if (!registration.isDeleted) registrations.set(registration.scopeURL, registration.registrationId)
    })
    await cdp.send('ServiceWorker.enable')
    await page.goto('/attending')
    await untilHydrated(page, 'main')
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)
    await expect.poll(() => registrations.get(scope)).toBeTruthy()

    // This browser, as the local push service knows it, registered through the web's route (and so the API).
    const subscription = endpoint.subscribe()
    const kept = await page.evaluate(async (body) => {
      const response = await fetch('/resources/push-subscription', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ subscription: body }) })
      return response.status
    }, subscription)
    expect(kept).toBe(200)

    // The server sends a push (the lead's delivery calls queuePush the same way).
    const member = await db.selectFrom('users').select('id').where('email', '=', 'member190@demo.test').executeTakeFirstOrThrow()
    const payload = { title: 'A seat is yours: Tai chi in the park', body: 'Saturday at 9:00. We look forward to seeing you.', url: '/attending', tag: 'seat' }
    await db.transaction().execute((trx) => queuePush(queue, trx, member.id, payload))
    await expect.poll(() => endpoint.received.length, { timeout: 30_000 }).toBe(1)
    expect(endpoint.refused).toEqual([])
    const [push] = endpoint.received
    expect(JSON.parse(push!.payload)).toEqual(payload)

    // Chromium's push service would now wake the worker with the decrypted message. Under load a
    // worker that is still starting can miss a message handed over by CDP (a real push service
    // retries too): until the notification shows, it is handed over again to the registration
    // CDP names now. The tag makes a second delivery replace the first, never add to it.
    const deliver = () => cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(scope).origin, registrationId: registrations.get(scope)!, data: push!.payload })
    await deliver()
    await expect
      .poll(
        async () => {
          const shown = await page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: (n.data as { url: string }).url })))
          if (shown.length === 0) await deliver()
          return shown
        },
        { timeout: 30_000, intervals: [1_000, 2_000, 3_000] },
      )
      .toEqual([{ title: payload.title, body: payload.body, tag: 'seat', url: '/attending' }])
    await context.close()
  } finally {
    await queue.stop()
    await db.destroy()
    await endpoint.close()
  }
})

test('allowing notifications in onboarding never blocks it, even when the browser cannot connect for push', async ({ browser }) => {
  const context = await newVisitor(browser, { serviceWorkers: 'allow' })
  const page = await context.newPage()
  await signIn(page, 'member191@demo.test', demoPassword)
  if ((await page.locator('html').getAttribute('lang')) !== 'en') await switchLanguage(page, 'en')
  await page.goto('/get-started/notifications')
  await untilHydrated(page, 'main button')
  await page.evaluate(async () => navigator.serviceWorker.ready)
  await context.grantPermissions(['notifications'])
  expectConsoleError(/^Chrome currently does not support the Push API in incognito mode/, 'Playwright’s contexts are incognito, where Chromium logs this when a page subscribes for push; the page then says it could not connect')
  await page.getByRole('button', { name: 'Allow notifications' }).click()
  await expect(page.getByText('Notifications are on. Thank you!')).toBeVisible()
  // Headless Chromium has no push service: the member is told plainly and goes on.
  await expect(page.getByText('this browser could not be connected to receive them just now')).toBeVisible({ timeout: 20_000 })
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page).toHaveURL(/\/get-started\/profile-photo/)
  await context.close()
})
