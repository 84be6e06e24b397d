import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { runZodWithoutCompiling } from './zod-config.ts'

/**
 * The browser's zod runs without `new Function` (CSP), told so without importing zod: the setting
 * must reach the zod this app bundles, whichever of the two loads first.
 */
describe('zod without compiling', () => {
  afterEach(() => {
    // The server keeps compiling: put the shared setting back for the other test files of this worker.
    z.config({ jitless: false })
  })

  it('reaches zod’s own settings, and parsing still checks', () => {
    expect(z.config().jitless).not.toBe(true)
    runZodWithoutCompiling()
    expect(z.config().jitless).toBe(true)
    const member = z.object({ name: z.string().min(1) })
    expect(member.safeParse({ name: 'Hélène' }).success).toBe(true)
    expect(member.safeParse({ name: '' }).success).toBe(false)
  })
})
