import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/**
 * Checks every translation in public/locales against the English source:
 * same keys, same {{placeholders}}, and no text left in English by accident.
 * A translation that is meant to be identical to the English (a brand name, a legal name…)
 * must be listed in `identical` below.
 */

const localesDir = new URL('../../public/locales/', import.meta.url)
const sourceLanguage = 'en'
const targetLanguages = ['fr', 'nl'] as const
const pluralSuffix = /_(zero|one|two|few|many|other)$/

type Leaves = Map<string, string>

function readJson(url: URL): unknown {
  return JSON.parse(readFileSync(url, 'utf8')) as unknown
}

/** Flattens a namespace into "a.b.c" → string. Arrays count as leaves by index ("a.0.b"). */
function flatten(value: unknown, prefix = '', out: Leaves = new Map()): Leaves {
  if (Array.isArray(value)) {
    value.forEach((item, index) =>
      flatten(item, prefix ? `${prefix}.${index}` : String(index), out),
    )
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value))
      flatten(item, prefix ? `${prefix}.${key}` : key, out)
  } else {
    out.set(prefix, typeof value === 'string' ? value : JSON.stringify(value))
  }
  return out
}

/** "nav.unread_one" → "nav.unread": plural forms are compared by their base key. */
function baseKey(path: string): string {
  return path.replace(pluralSuffix, '')
}

/** The English text a translated leaf corresponds to (plural forms missing in English use `_other`). */
function englishFor(path: string, english: Leaves): string | undefined {
  if (english.has(path)) return english.get(path)
  if (pluralSuffix.test(path)) return english.get(`${baseKey(path)}_other`)
  return undefined
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([^}]+?)\s*\}\}/g)].map((match) => match[1] ?? '')
}

const namespaces = readdirSync(new URL(`${sourceLanguage}/`, localesDir))
  .filter((file) => file.endsWith('.json'))
  .map((file) => file.slice(0, -'.json'.length))
  .sort()

/**
 * Keys ("namespace:key.path") whose translation is intentionally the same as the English.
 * Kept here rather than in public/locales/identical.json: vite.config.ts reads every entry of
 * public/locales as a language folder, so a file there stops Vite (dev, build and tests) from starting.
 */
const identical: Record<string, unknown> = {
  fr: [
    // The help articles' link to Messages (decision 088), named as the menu names it.
    'help-articles:places.messages',
    // Banners (decision 084): "Message" is French too.
    'banners:admin.bodyField',
    // Dashboards (decision 082): "Page" is French too; "h" is the hour's symbol in both.
    'dashboards:admin.onboarding.column',
    'dashboards:hours',
    'moderation:admin.staff.member',
    'moderation:admin.member.title',
    'activities:form.minutes',
    'activities:form.startDate',
    'blocking:search.message',
    'common:brand',
    'common:footer.copyright',
    'common:nav.messages',
    'moderation:admin.report.activityDescription',
    'messenger:open.button',
    'messenger:title',
    'notifications:title',
    'common:nav.notifications',
    'pages:privacy.sections.5.heading',
    'profile:edit.prompts.question',
    'profile:interests.bridge',
    'profile:interests.golf',
    'profile:interests.pickleball',
    'profile:interests.yoga',
    // Card brands are their own names in every language.
    'payments:cardShort',
    // "Name (email)", the same in every language.
    'payments:team.member',
    'payments:brands.visa',
    'payments:brands.mastercard',
    'payments:brands.amex',
    'payments:brands.discover',
    // The plan's name, as the product calls it in every language (decision 074).
    'subscriptions:pricing.premiumTitle',
  ],
  nl: [
    // Banners (decision 084): "banner" is Dutch too, and so is "In {{states}}".
    'banners:admin.tool',
    'banners:admin.title',
    'banners:admin.whereStates',
    // Dashboards (decision 082): "Week" is Dutch too; a percentage is written the same.
    'dashboards:weekColumn',
    'dashboards:percent',
    'moderation:admin.staff.member',
    'moderation:admin.member.title',
    'moderation:admin.member.status',
    'common:nav.team',
    'common:impersonation.details',
    'activities:explore.range',
    'activities:explore.rangeDay',
    'activities:form.online',
    'activities:online',
    'common:brand',
    'common:footer.copyright',
    'moderation:admin.report.status',
    'common:nav.account',
    'email:experienceReminder.online',
    'onboarding:gender.man',
    'pages:privacy.sections.5.heading',
    'profile:edit.privacy.heading',
    // "Label: value", as English writes it (French puts a space before the colon).
    'profile:edit.summary.pair',
    'profile:interests.bridge',
    'profile:interests.golf',
    'profile:interests.pickleball',
    'profile:interests.tai_chi',
    'profile:interests.theatre',
    'profile:interests.yoga',
    // Card brands are their own names in every language.
    'payments:cardShort',
    // "Name (email)", the same in every language.
    'payments:team.member',
    'payments:brands.visa',
    'payments:brands.mastercard',
    'payments:brands.amex',
    'payments:brands.discover',
    // The plan's name, as the product calls it in every language (decision 074); Dutch says "status" and "partners" too.
    'subscriptions:pricing.premiumTitle',
    'subscriptions:account.status',
    'subscriptions:admin.title',
    // The audit log (decision 089): Dutch says "details", "banners", "partners" and "accounts" too.
    'moderation:admin.audit.details',
    'moderation:admin.audit.kinds.banner',
    'moderation:admin.audit.kinds.partnership',
    'moderation:admin.audit.kinds.user',
  ],
}

function identicalList(language: string): string[] {
  const list = identical[language]
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []
}

describe('identical translations list', () => {
  it('lists key paths per language', () => {
    for (const [language, list] of Object.entries(identical)) {
      expect(
        targetLanguages as readonly string[],
        `unknown language "${language}" in the identical list`,
      ).toContain(language)
      expect(Array.isArray(list), `identical list, "${language}" must be an array`).toBe(true)
      const entries = list as unknown[]
      const malformed = entries.filter(
        (item) => typeof item !== 'string' || !/^[^:]+:.+$/.test(item),
      )
      expect(
        malformed,
        `identical list, "${language}": entries must look like "namespace:key.path"`,
      ).toEqual([])
      const duplicates = entries.filter((item, index) => entries.indexOf(item) !== index)
      expect(duplicates, `identical list, "${language}": duplicate entries`).toEqual([])
    }
  })
})

describe.each(targetLanguages)('translations: %s', (language) => {
  const allowed = new Set(identicalList(language))

  it('has no namespace file that English does not have', () => {
    const dir = new URL(`${language}/`, localesDir)
    const files = existsSync(dir) ? readdirSync(dir).filter((file) => file.endsWith('.json')) : []
    const extra = files
      .map((file) => file.slice(0, -'.json'.length))
      .filter((ns) => !namespaces.includes(ns))
    expect(extra, `${language}: namespace files with no English source`).toEqual([])
  })

  describe.each(namespaces)('%s', (namespace) => {
    const file = new URL(`${language}/${namespace}.json`, localesDir)
    const english = flatten(readJson(new URL(`${sourceLanguage}/${namespace}.json`, localesDir)))
    const translated: Leaves = existsSync(file) ? flatten(readJson(file)) : new Map()
    const id = (path: string) => `${namespace}:${path}`

    it('file exists', () => {
      expect(existsSync(file), `missing file public/locales/${language}/${namespace}.json`).toBe(
        true,
      )
    })

    it('has exactly the English keys', () => {
      const englishBases = new Set([...english.keys()].map(baseKey))
      const translatedBases = new Set([...translated.keys()].map(baseKey))
      const missing = [...englishBases].filter((key) => !translatedBases.has(key)).map(id)
      const extra = [...translatedBases].filter((key) => !englishBases.has(key)).map(id)
      expect(
        { missing, extra },
        `${language}: keys missing (present in English) or extra (not in English)`,
      ).toEqual({ missing: [], extra: [] })

      // A plural key needs at least its `_other` form in every language.
      const pluralBases = new Set(
        [...english.keys()].filter((key) => pluralSuffix.test(key)).map(baseKey),
      )
      const noOther = [...pluralBases]
        .filter((base) => translatedBases.has(base) && !translated.has(`${base}_other`))
        .map((base) => id(`${base}_other`))
      expect(noOther, `${language}: plural keys without an _other form`).toEqual([])
    })

    it('has no text left identical to English unless listed in the identical list', () => {
      const unlisted: string[] = []
      for (const [path, text] of translated) {
        const source = englishFor(path, english)
        if (source !== undefined && source.trim() === text.trim() && !allowed.has(id(path))) {
          unlisted.push(`${id(path)} = ${JSON.stringify(text)}`)
        }
      }
      expect(
        unlisted,
        `${language}: identical to English but not listed in the identical list`,
      ).toEqual([])
    })

    it('keeps every {{placeholder}} of the English text', () => {
      const broken: string[] = []
      for (const [path, text] of translated) {
        const source = englishFor(path, english)
        if (source === undefined) continue
        const have = new Set(placeholders(text))
        const lost = placeholders(source).filter((name) => !have.has(name))
        if (lost.length > 0)
          broken.push(`${id(path)} lacks ${lost.map((name) => `{{${name}}}`).join(', ')}`)
      }
      expect(broken, `${language}: placeholders missing`).toEqual([])
    })

    it('has no stale entries in the identical list', () => {
      const stale = [...allowed]
        .filter((entry) => entry.startsWith(`${namespace}:`))
        .filter((entry) => {
          const path = entry.slice(namespace.length + 1)
          const text = translated.get(path)
          const source = englishFor(path, english)
          return text === undefined || source === undefined || text.trim() !== source.trim()
        })
      expect(
        stale,
        `${language}: identical-list entries that no longer exist or are no longer identical`,
      ).toEqual([])
    })
  })

  it('has no identical-list entry for an unknown namespace', () => {
    const unknown = [...allowed].filter((entry) => !namespaces.includes(entry.split(':')[0] ?? ''))
    expect(unknown, `${language}: identical-list entries for unknown namespaces`).toEqual([])
  })
})

/**
 * Issue 29 §4: a US product speaks US English. The British spellings members met, and their
 * neighbors, are refused in the English text (keys, which are identifiers, are not checked).
 */
const britishSpellings =
  /\b(cancelled|cancelling|colours?|licence|recognis\w*|organis\w*|realis(e|ed|ing)|apologis\w*|favourit\w*|centre[sd]?|theatres?|behaviours?|neighbours?\w*|travell(ed|ing|er)|catalogue|judgement|enrol|enrolment|whilst|programme)\b/i

describe('English (en) is US English', () => {
  it.each(namespaces)('%s', (namespace) => {
    const english = flatten(readJson(new URL(`${sourceLanguage}/${namespace}.json`, localesDir)))
    const british = [...english].filter(([, text]) => britishSpellings.test(text)).map(([path, text]) => `${namespace}:${path} = ${JSON.stringify(britishSpellings.exec(text)?.[0])}`)
    expect(british, 'British spellings in the English text').toEqual([])
  })
})

/**
 * Issue 29 §4: a display name may end with its initial and a period ("Margaret E."), so no
 * text ends a sentence right after a member's name ("You blocked Margaret E.."): the sentence
 * is turned so the name is not last.
 */
describe('no sentence ends right after a member’s name', () => {
  const nameVariables = ['name', 'host', 'names', 'sender', 'from']
  it.each(['en', ...targetLanguages])('%s', (language) => {
    const found: string[] = []
    for (const namespace of namespaces) {
      const file = new URL(`${language}/${namespace}.json`, localesDir)
      if (!existsSync(file)) continue
      for (const [path, text] of flatten(readJson(file))) {
        if (nameVariables.some((name) => new RegExp(`\\{\\{\\s*${name}\\s*\\}\\}\\s*[.]`).test(text))) found.push(`${namespace}:${path} = ${JSON.stringify(text)}`)
      }
    }
    expect(found).toEqual([])
  })
})
