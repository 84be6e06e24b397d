import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig } from 'vite'

// A hash of every locale file, so browsers fetch fresh translations after a change.
function localesVersion() {
  const hash = createHash('sha256')
  for (const entry of readdirSync('public/locales', { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory()) continue
    const language = entry.name
    for (const file of readdirSync(`public/locales/${language}`).sort()) {
      hash.update(readFileSync(`public/locales/${language}/${file}`))
    }
  }
  return hash.digest('hex').slice(0, 10)
}

/**
 * What the browser and the server each run (decision 045): the same in the client and the server
 * bundle of one build, different after any change to the web app or the contract. BUILD_VERSION
 * (a commit, a release) wins when the deploy sets it.
 */
function buildVersion() {
  if (process.env.BUILD_VERSION) return process.env.BUILD_VERSION
  const hash = createHash('sha256')
  for (const dir of ['app', 'contract']) {
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
      if (/\.(tsx?|css)$/.test(file) && !file.includes('.test.')) hash.update(file).update(readFileSync(`${dir}/${file}`))
    }
  }
  hash.update(readFileSync('package-lock.json'))
  return hash.digest('hex').slice(0, 12)
}

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true
  }
}

export default defineConfig({
  define: {
    __LOCALES_VERSION__: JSON.stringify(localesVersion()),
    // Every namespace's name, for the browser to load them all once idle (decision 059).
    __LOCALE_NAMESPACES__: JSON.stringify(readdirSync('public/locales/en').map((file) => file.replace(/\.json$/, '')).sort()),
    __BUILD_VERSION__: JSON.stringify(buildVersion()),
  },
  build: { target: 'es2020', cssMinify: true, assetsInlineLimit: 0 },
  server: { hmr: { port: 24678 } },
  plugins: [
    !process.env.VITEST &&
      remix({
        serverModuleFormat: 'esm',
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          v3_lazyRouteDiscovery: true,
          v3_routeConfig: true,
        },
      }),
  ],
  test: {
    include: ['{app,api,contract,tests,scripts}/**/*.test.{ts,tsx}'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    globalSetup: ['tests/setup/global-setup.ts'],
    setupFiles: ['tests/setup/setup-file.ts'],
    pool: 'forks',
    // Three at once on two cores: the files wait on PostgreSQL much of the time, and Vitest's
    // default (cores − 1) ran them one by one (566 s, against 272 s with three).
    maxWorkers: 3,
    // A worker keeps the modules it loaded from one file to the next instead of loading the app
    // again for each (150–163 s instead of 222–305 s, decision 071). So a module's top-level code
    // runs once per worker, not per file: per-file set-up belongs in setupFiles or in hooks inside
    // the test file, and a file that mocks a module (vi.mock) must be its only importer.
    isolate: false,
    // As many workers kept as started: with fewer (Vitest's default is cores − 1), idle workers
    // were stopped twice, once when idle and once at the end, and 2 runs in 4 failed on Tinypool's
    // "Terminating worker thread" (vitest-dev/vitest#8564). 5 runs in 5 passed with three.
    minWorkers: 3,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
})
