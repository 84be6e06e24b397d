import { z } from 'zod'

/**
 * zod 4 compiles object parsers with `new Function` unless told not to, and probes for it when a
 * schema is created; under our CSP (no 'unsafe-eval') the browser reports that probe as a
 * `script-src` violation (issue 11 §6, on /login and /create-activity). In the browser zod runs
 * without it. The probe happens when `z.object()` is first called, at module evaluation, and
 * Remix evaluates the route modules before entry.client: so this is root.tsx's first import.
 * The server keeps the compiled parsers (faster, and no CSP applies there).
 */
if (typeof document !== 'undefined') z.config({ jitless: true })
