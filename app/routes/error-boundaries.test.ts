import { describe, expect, it } from 'vitest'

/**
 * STYLE "Route modules": every page route with a loader has its own error boundary (the general
 * one), so an error keeps the site's header and the page's title names the error (issue 11 §5).
 * Resource routes (no component) answer with their status and have nothing to draw.
 */
const routes = import.meta.glob<Record<string, unknown>>(['./**/*.{ts,tsx}', '!./**/*.test.{ts,tsx}', '!./**/__*', '!./**/*.server.ts', '!./**/*.client.ts'], {
  eager: true,
})

describe('route modules', () => {
  const pages = Object.entries(routes).filter(([, module]) => typeof module.loader === 'function' && typeof module.default === 'function')

  it('are found', () => {
    expect(pages.length).toBeGreaterThan(20)
  })

  it.each(pages.map(([path]) => path))('%s exports an ErrorBoundary', (path) => {
    expect(typeof routes[path]?.ErrorBoundary).toBe('function')
  })
})
