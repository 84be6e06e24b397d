import { JSDOM, VirtualConsole } from 'jsdom'
import type { AxeResults, RunOptions } from 'axe-core'
import { axeSource, wordingRules } from './axe-rules.ts'

/**
 * axe-core's wording rules (tests/axe-rules.ts: names, labels, titles, languages) over a page's
 * HTML in jsdom, without a browser: what a translation can break, checked for every page state of
 * the catalogue in French and Dutch (app/routes/page-catalogue.test.ts). These rules read the
 * document, not its layout or colours, which the end-to-end suite audits in full in a browser.
 * jsdom applies no stylesheet, so content the CSS would hide is checked too (stricter, never
 * looser). One line per violation: the rule, its help and the first elements it names.
 */
export async function wordingProblems(html: string): Promise<string[]> {
  const dom = new JSDOM(html, { runScripts: 'outside-only', virtualConsole: new VirtualConsole() })
  try {
    dom.window.eval(axeSource)
    const axe = (dom.window as unknown as { axe: { run(context: Document, options: RunOptions): Promise<AxeResults> } }).axe
    const results = await axe.run(dom.window.document, { runOnly: { type: 'rule', values: wordingRules }, resultTypes: ['violations'] })
    return results.violations.map(
      (violation) => `${violation.id}: ${violation.help} (${violation.nodes.slice(0, 3).map((node) => `${node.target.join(' ')} ${node.html.slice(0, 120)}`).join('; ')})`,
    )
  } finally {
    dom.window.close()
  }
}
