import type { Browser, Page } from '@playwright/test'
import type { AxeResults, RunOptions } from 'axe-core'
import { axeSource, tags, wordingRules } from '../axe-rules.ts'
import { expect, newVisitor, signInOverHttp, timed, type Language } from './helpers.ts'

export type Found = { page: string; violations: string[] }


/**
 * axe-core run in the page itself, put there once per document. (@axe-core/playwright opened a
 * blank page for every scan to merge its results, which cost 0.8 s a scan: 400 s of the suite.)
 * Our pages have no frames, so one run over the document sees everything.
 */
async function runAxe(page: Page, options: RunOptions): Promise<AxeResults> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource)
  return page.evaluate((options) => (window as unknown as { axe: { run(context: Document, options: RunOptions): Promise<AxeResults> } }).axe.run(document, options), options)
}

/**
 * A member signed in (over HTTP, in `lng` when given) in a page where axe can run "without
 * JavaScript": axe runs in the page, so the app's own scripts are refused instead, which leaves
 * the page server-rendered, as a visitor without JavaScript gets it. `pass` defaults to the test
 * password of fresh members.
 */
export async function scanningPage(browser: Browser, email: string, options: { pass?: string; lng?: Language } = {}) {
  const context = await newVisitor(browser)
  await context.route('**/*.js', (route) => route.abort())
  await signInOverHttp(context, email, options.pass, options.lng)
  return context.newPage()
}

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
    const results = await timed(`axe scan (${this.lng === 'en' ? 'full' : 'wording'})`, () =>
      runAxe(this.page, {
        runOnly: this.lng === 'en' ? { type: 'tag', values: tags } : { type: 'rule', values: wordingRules },
        resultTypes: ['violations'],
      }),
    )
    const small = await smallTargets(this.page)
    if (results.violations.length === 0 && small.length === 0) return
    this.found.push({
      page: `${this.label} – ${name} (${this.page.url()})`,
      violations: [
        ...(small.length
          ? [
              `  target-size-44: controls under 44 CSS px tall (QUALITY.md)\n${small.map((item) => `      - ${item}`).join('\n')}`,
            ]
          : []),
        ...results.violations.map((violation) => {
          const nodes = violation.nodes
            .slice(0, 5)
            .map((node) => `      - ${node.target.join(' ')}\n        ${node.html.slice(0, 200)}\n        ${(node.failureSummary ?? '').replace(/\n/g, '\n        ')}`)
            .join('\n')
          return `  [${violation.impact}] ${violation.id}: ${violation.help} (${violation.nodes.length} node(s))\n    ${violation.helpUrl}\n${nodes}`
        }),
      ],
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

/**
 * QUALITY.md asks for 44×44 CSS px targets, stricter than axe's 24px rule: every visible text
 * field, select, button and button-styled link must be at least 44px tall (links inside running
 * text are exempt, as WCAG exempts them; check boxes and radios sit in 44px-tall rows with their
 * labels, which are part of the target).
 */
export async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = [
      'input:not([type="hidden"]):not([type="checkbox"]):not([type="radio"])',
      'select',
      'textarea',
      'button',
      'a.button',
      '.choice',
    ].join(',')
    const small: string[] = []
    for (const element of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      const box = element.getBoundingClientRect()
      if (box.width === 0 || box.height === 0 || getComputedStyle(element).visibility === 'hidden')
        continue
      if (box.height < 43.5) {
        const id = element.id ? `#${element.id}` : ''
        small.push(
          `${element.tagName.toLowerCase()}${id} "${(element.textContent || element.getAttribute('name') || '').trim().slice(0, 40)}" is ${Math.round(box.height)}px tall`,
        )
      }
    }
    return small
  })
}
