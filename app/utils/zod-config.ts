/**
 * zod 4 compiles object parsers with `new Function` unless told not to, and probes for it when a
 * schema is created; under our CSP (no 'unsafe-eval') the browser reports that probe as a
 * `script-src` violation (issue 11 §6, on /login and /create-activity). In the browser zod runs
 * without it. The probe happens when `z.object()` is first called, at module evaluation, and
 * Remix evaluates the route modules before entry.client: so this is root.tsx's first import.
 * The server keeps the compiled parsers (faster, and no CSP applies there).
 *
 * Said without importing zod: zod keeps its settings on `globalThis.__zod_globalConfig` and takes
 * the object it finds there, so the setting holds whether zod loads before or after this, and
 * pages without a form never download zod (4 KB gzip on every page when this called `z.config`).
 * `zod-config.test.ts` holds zod to that.
 */
export function runZodWithoutCompiling() {
  const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> }
  holder.__zod_globalConfig = Object.assign(holder.__zod_globalConfig ?? {}, { jitless: true })
}

if (typeof document !== 'undefined') runZodWithoutCompiling()
