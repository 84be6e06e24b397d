import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/**
 * The axe-core audit the project holds its pages to (QUALITY.md), shared by the end-to-end scans
 * (tests/e2e/axe.ts, in the browser) and the page catalogue's wording check
 * (tests/accessible-wording.ts, without one).
 */

/** Zero axe violations against WCAG 2.0/2.1 A+AA and 2.2 AA. */
export const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/**
 * The WCAG rules whose outcome depends on the words on the page. English pages get the whole
 * audit (JS on and off); French and Dutch pages are the same markup, styles and colours with other
 * words, so they are checked for what translation can break: names, labels, titles, languages
 * (and the 44 px targets, since longer words wrap). A full scan costs 2–3 s of browser CPU, most
 * of it colour contrast, and the full audit in three languages was two thirds of the suite's time.
 * These rules read the document only, never its layout: tests/accessible-wording.ts runs them
 * without a browser, over the catalogue of pages in app/routes/page-catalogue.test.ts.
 */
export const wordingRules = [
  'html-has-lang',
  'html-lang-valid',
  'html-xml-lang-mismatch',
  'valid-lang',
  'document-title',
  'button-name',
  'input-button-name',
  'link-name',
  'label',
  'select-name',
  'image-alt',
  'input-image-alt',
  'role-img-alt',
  'svg-img-alt',
  'aria-command-name',
  'aria-tab-name',
  'area-alt',
  'object-alt',
  'frame-title-unique',
  'aria-input-field-name',
  'aria-toggle-field-name',
  'aria-tooltip-name',
  'aria-progressbar-name',
  'aria-meter-name',
  'frame-title',
  'summary-name',
]

/** axe-core itself, put into a page (or a jsdom window) to run there. */
export const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
