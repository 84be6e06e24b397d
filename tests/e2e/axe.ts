import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, type Language } from './helpers.ts'

/** Zero axe violations against WCAG 2.0/2.1 A+AA and 2.2 AA. */
const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

export type Found = { page: string; violations: string[] }

export class Scanner {
  found: Found[] = []
  readonly page: Page
  readonly lng: Language
  readonly label: string
  constructor(page: Page, lng: Language, label: string) {
    this.page = page
    this.lng = lng
    this.label = label
  }

  async scan(name: string) {
    await this.page.waitForLoadState('load')
    await expect(this.page.locator('html'), `lang of ${name}`).toHaveAttribute('lang', this.lng)
    const results = await new AxeBuilder({ page: this.page }).withTags(tags).analyze()
    if (results.violations.length === 0) return
    this.found.push({
      page: `${this.label} – ${name} (${this.page.url()})`,
      violations: results.violations.map((violation) => {
        const nodes = violation.nodes
          .slice(0, 5)
          .map((node) => `      - ${node.target.join(' ')}\n        ${node.html.slice(0, 200)}\n        ${(node.failureSummary ?? '').replace(/\n/g, '\n        ')}`)
          .join('\n')
        return `  [${violation.impact}] ${violation.id}: ${violation.help} (${violation.nodes.length} node(s))\n    ${violation.helpUrl}\n${nodes}`
      }),
    })
  }

  async visit(path: string, expectedStatus = 200) {
    const response = await this.page.goto(path)
    expect(response?.status(), `status of ${path}`).toBe(expectedStatus)
    await this.scan(path)
  }

  report() {
    const text = this.found.map((entry) => `${entry.page}\n${entry.violations.join('\n')}`).join('\n\n')
    expect(this.found, `Accessibility violations:\n\n${text}`).toEqual([])
  }
}

/**
 * Submits the form containing `field` without the browser's own constraint validation, so the
 * server (JS off) or the client-side validation (JS on) reports the errors.
 */
export async function submitWithoutNativeValidation(page: Page, field: string) {
  const form = page.locator(`form:has(${field})`)
  await form.evaluate((element) => ((element as HTMLFormElement).noValidate = true))
  await form.locator('button[type="submit"]').last().click()
  await expect(page.locator('.error-summary')).toBeVisible()
}
