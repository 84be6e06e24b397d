import type { Language } from '#contract/enums.ts'

/**
 * The help center's search (decision 088): the page's language only, on the server, so it works
 * without JavaScript. Letters are compared without accents or case ("resume" finds "résumé",
 * "reglages" finds "Réglages"), punctuation counts as a space, and every word of the question
 * must be in the article (words like "how" or "my" are left out unless nothing else is asked).
 * Seven articles in three languages: a plain scan is instant, no index needed.
 */

/** One article as the page draws it, in one language. */
export interface HelpArticle {
  slug: string
  title: string
  description: string
  intro: string
  sections: HelpSection[]
  /** Pages of Circle 55 the article talks about. */
  places: { to: string; label: string }[]
}

export interface HelpSection {
  /** Stable in every language: the section's anchor (`#verified-badge`). */
  id: string
  heading: string
  body: string[]
  /** Numbered steps after the paragraphs, when the section has some. */
  steps: string[]
}

/** A piece of a snippet; `mark` for the words asked. React escapes it: never HTML. */
export interface SnippetPart {
  text: string
  mark: boolean
}

export interface HelpSearchResult {
  slug: string
  title: string
  /** The section the snippet comes from (its anchor), or null for the article's opening. */
  section: string | null
  snippet: SnippetPart[]
}

/** Longest question read; more is ignored. */
export const maxQueryLength = 100
const maxWords = 10
const snippetLength = 200

/**
 * Words too common to tell articles apart, as they read after folding (no accents). A question
 * made only of them is searched with them all the same.
 */
const commonWords: Record<Language, string[]> = {
  en: ['how', 'do', 'does', 'what', 'when', 'where', 'who', 'why', 'can', 'could', 'the', 'and', 'or', 'for', 'with', 'you', 'your', 'my', 'me', 'is', 'are', 'to', 'of', 'in', 'on', 'at', 'it', 'an', 'be', 'get', 'if', 'not', 'there', 'this', 'that'],
  fr: ['comment', 'je', 'le', 'la', 'les', 'un', 'une', 'des', 'de', 'du', 'et', 'ou', 'mon', 'ma', 'mes', 'est', 'que', 'qui', 'quoi', 'quand', 'pour', 'avec', 'sur', 'dans', 'en', 'au', 'aux', 'il', 'elle', 'on', 'se', 'ce', 'vous', 'votre', 'vos', 'pas', 'ne', 'puis', 'peut', 'faire', 'si', 'qu'],
  nl: ['hoe', 'ik', 'de', 'het', 'een', 'en', 'of', 'mijn', 'is', 'wat', 'wie', 'waar', 'wanneer', 'voor', 'met', 'op', 'in', 'aan', 'van', 'te', 'je', 'jij', 'uw', 'kan', 'kun', 'niet', 'er', 'dat', 'die', 'dit', 'ben', 'zijn', 'wordt', 'als'],
}

/** Letters folded for comparing, besides what NFD takes apart. */
const ligatures: Record<string, string> = { œ: 'oe', æ: 'ae', ß: 'ss', ø: 'o', ł: 'l', đ: 'd', ı: 'i' }

/**
 * The text as compared (lower case, no accents, punctuation as spaces) and, for each of its
 * characters, where it came from in the original, so that a match can be marked there.
 */
export function fold(text: string) {
  let folded = ''
  const from: number[] = []
  const to: number[] = []
  let at = 0
  for (const char of text) {
    const lower = char.toLowerCase()
    const plain = (ligatures[lower] ?? lower.normalize('NFD').replace(/\p{M}/gu, '')).replace(/[^\p{L}\p{N}]/gu, ' ')
    for (let index = 0; index < plain.length; index++) {
      from.push(at)
      to.push(at + char.length)
    }
    folded += plain
    at += char.length
  }
  return { folded, from, to }
}

/** The words of a question to look for, each with the forms that count ("seats" also finds "seat"). */
export function queryWords(query: string, language: Language): string[][] {
  const words = [...new Set(fold(query.slice(0, maxQueryLength)).folded.split(/\s+/).filter((word) => word.length >= 2))].slice(0, maxWords)
  const telling = words.filter((word) => !commonWords[language].includes(word))
  return (telling.length > 0 ? telling : words).map((word) => (word.length > 3 && word.endsWith('s') ? [word, word.slice(0, -1)] : [word]))
}

interface Unit {
  text: string
  folded: ReturnType<typeof fold>
  /** What part of the article: the title and headings weigh more; the description is never the snippet. */
  kind: 'title' | 'heading' | 'description' | 'text'
  section: string | null
}

function unitsOf(article: HelpArticle): Unit[] {
  const unit = (text: string, kind: Unit['kind'], section: string | null): Unit => ({ text, folded: fold(text), kind, section })
  return [
    unit(article.title, 'title', null),
    unit(article.description, 'description', null),
    unit(article.intro, 'text', null),
    ...article.sections.flatMap((section) => [
      unit(section.heading, 'heading', section.id),
      ...[...section.body, ...section.steps].map((text) => unit(text, 'text', section.id)),
    ]),
  ]
}

const foundIn = (unit: Unit, forms: string[]) => forms.some((form) => unit.folded.folded.includes(form))

/** The articles holding every word asked, the best first, each with a snippet where the words are. */
export function searchHelp(articles: HelpArticle[], query: string, language: Language): HelpSearchResult[] {
  const words = queryWords(query, language)
  if (words.length === 0) return []
  const found: { result: HelpSearchResult; score: number; order: number }[] = []
  articles.forEach((article, order) => {
    const units = unitsOf(article)
    if (!words.every((forms) => units.some((unit) => foundIn(unit, forms)))) return
    let score = 0
    for (const unit of units) {
      const matched = words.filter((forms) => foundIn(unit, forms)).length
      score += matched * (unit.kind === 'title' ? 5 : unit.kind === 'heading' ? 2 : 1)
    }
    // The snippet: the paragraph holding the most of the words (the first of equals), else the opening.
    const texts = units.filter((unit) => unit.kind === 'text')
    let best = texts[0]
    let bestCount = -1
    for (const unit of texts) {
      const count = words.filter((forms) => foundIn(unit, forms)).length
      if (count > bestCount) {
        best = unit
        bestCount = count
      }
    }
    if (!best) return
    found.push({ result: { slug: article.slug, title: article.title, section: bestCount > 0 ? best.section : null, snippet: snippetOf(best, words) }, score, order })
  })
  return found.sort((a, b) => b.score - a.score || a.order - b.order).map((entry) => entry.result)
}

/** About `snippetLength` characters around the first word found, cut between words, the words marked. */
function snippetOf(unit: Unit, words: string[][]): SnippetPart[] {
  const { text } = unit
  const { folded, from, to } = unit.folded
  const marks: [number, number][] = []
  for (const forms of words) {
    const form = forms.find((candidate) => folded.includes(candidate))
    if (!form) continue
    for (let index = folded.indexOf(form); index !== -1; index = folded.indexOf(form, index + form.length)) {
      marks.push([from[index] ?? 0, to[index + form.length - 1] ?? text.length])
    }
  }
  marks.sort((a, b) => a[0] - b[0])
  let start = 0
  let end = text.length
  if (text.length > snippetLength) {
    const first = marks[0]?.[0] ?? 0
    start = Math.max(0, first - 60)
    if (start > 0) start = text.indexOf(' ', start) + 1 || start
    end = Math.min(text.length, start + snippetLength)
    if (end < text.length) end = text.lastIndexOf(' ', end) > start ? text.lastIndexOf(' ', end) : end
  }
  const parts: SnippetPart[] = []
  const push = (piece: string, mark: boolean) => {
    if (!piece) return
    const last = parts[parts.length - 1]
    if (last && last.mark === mark) last.text += piece
    else parts.push({ text: piece, mark })
  }
  if (start > 0) push('…', false)
  let at = start
  for (const [markStart, markEnd] of marks) {
    const from = Math.max(markStart, at)
    const until = Math.min(markEnd, end)
    if (until <= from) continue
    push(text.slice(at, from), false)
    push(text.slice(from, until), true)
    at = until
  }
  push(text.slice(at, end), false)
  if (end < text.length) push('…', false)
  return parts
}
