import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { FileSystemConfigLoader, HtmlValidate } from 'html-validate'

/**
 * html-validate with the project's `.htmlvalidate.json` (QUALITY.md: "html-validate passes on
 * every page"), shared by the catalogue of pages (app/routes/page-catalogue.test.ts) and the end-to-end
 * suite, which validates every document it is sent. The config is the recommended preset, changed
 * only where React writes valid HTML its own way (camelCase `charSet`, `<meta/>`, `selected=""`,
 * a bare `hidden`, `useId`'s `:R1:` ids), for checkbox groups sharing a name, and for
 * `<ul role="list">` (Safari's list semantics): the reasons, rule by rule, are in decision 016.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const validator = new HtmlValidate(new FileSystemConfigLoader())

/** The problems html-validate finds in `html`, one line each ("rule: message (line:column, selector)"). */
export async function htmlProblems(html: string): Promise<string[]> {
  const report = await validator.validateString(html, path.join(root, 'page.html'))
  const problems = report.results.flatMap((result) =>
    result.messages.map((message) => `${message.ruleId}: ${message.message} (${message.line}:${message.column}${message.selector ? `, ${message.selector}` : ''})`),
  )
  // i18next shows a key that names a group of strings as this sentence instead of a word.
  for (const match of html.matchAll(/key '([^']+)' returned an object instead of string/g)) problems.push(`translation: the key ${match[1]} names a group, not a string`)
  return problems
}
