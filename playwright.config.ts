import { existsSync } from 'node:fs'
import { defineConfig, devices } from '@playwright/test'

/** End-to-end tests. Run through `node scripts/e2e.ts`, which starts the server and sets BASE_URL. */
const baseURL = process.env.BASE_URL ?? 'http://localhost:3210'

/** Debian's Chromium (scripts/e2e.ts installs both); never a browser Playwright downloads. */
const fullChromium = '/usr/bin/chromium'
const headlessShell = existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : fullChromium
const browserSpecs = /\/(pwa|push)\.spec\.ts$/

function launch(executablePath: string) {
  return {
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  }
}

export default defineConfig({
  testDir: './tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // Three minutes a test: many tests sign several members in (each an OpenID Connect round and a
  // password hash) and scan pages with axe, and this 2-core machine's speed varies by 2.5× from day
  // to day (the suite took 10 min one day and 27 the next, the same code). A test that passed in
  // 55 s on a slow day failed at 60 s on the next run; a hang still fails, three minutes later.
  timeout: 180_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL,
    // Tracing snapshots every action: on 2 cores it slowed the suite and, with many contexts per
    // test, failed while writing ("file data stream has unexpected number of bytes"). A failure
    // still leaves its error context (page snapshot) in test-results/; E2E_TRACE=1 records traces.
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    // The service worker (decision 045) stays out of every test but its own (pwa.spec.ts allows
    // it): Playwright's request routing does not see what a service worker fetches.
    serviceWorkers: 'block',
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
  },
  projects: [
    {
      // Chromium's headless shell (Debian's chromium-headless-shell, Playwright's own default for
      // headless runs): the same Blink and V8 without the full browser's window and compositor
      // layers; on this 2-core machine the same specs ran in 38 s instead of 58–66 s.
      name: 'chromium',
      testIgnore: browserSpecs,
      use: { ...devices['Desktop Chrome'], launchOptions: launch(headlessShell) },
    },
    {
      // The specs about what only the full browser does: the notification permission starts
      // undecided (the headless shell denies it) and the service worker shows notifications.
      name: 'chromium-full',
      testMatch: browserSpecs,
      use: { ...devices['Desktop Chrome'], launchOptions: launch(fullChromium) },
    },
  ],
})
