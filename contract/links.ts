/**
 * The one link detector of messages (issue 29 §5, decision 066): which web addresses a message
 * shows as links (`messageLinks`, read by the web's `MessageText`) and whether a message holds a
 * link at all (`containsLink`, read by the scam shield: new and unverified members cannot send one
 * in a first message).
 *
 * One rule holds by construction: every address shown as a link is a link to `containsLink`
 * (it starts from `messageLinks`), whatever comes before or after it. `containsLink` reads more
 * than is shown: addresses written so that a reader would still type them in — without `http`
 * ("www.…", "example.com"), in full-width or look-alike letters ("ｈｔｔｐｓ：／／", Cyrillic "һttps"),
 * with look-alike dots and slashes ("evil。com", "evil[.]com"), or glued to a word ("Voilàhttps://…").
 *
 * Pure and small, with no dependency: the API and the web (browser bundles included) share it.
 */

// What is shown as a link ------------------------------------------------------------------------

/**
 * `http://` or `https://` (any case) and everything after it up to a space, `<`, `>` or `"`,
 * wherever it starts: "Voilàhttps://…" shows (and counts as) a link as much as "Voilà https://…".
 */
const shownLink = /https?:\/\/[^\s<>"]+/gi
/** The punctuation of the sentence around an address, not part of it. */
const trailingPunctuation = /[.,;:!?)\]'’"»]+$/

export interface MessageLink {
  /** Where the address starts and ends in the text (UTF-16 offsets, `end` excluded). */
  start: number
  end: number
  /** The address as written: always `http://` or `https://` and at least one character more. */
  href: string
}

/** The addresses a message shows as links, in order. Never anything but http and https. */
export function messageLinks(text: string): MessageLink[] {
  const links: MessageLink[] = []
  for (const match of text.matchAll(shownLink)) {
    const href = match[0].replace(trailingPunctuation, '')
    if (!/^https?:\/\/./i.test(href)) continue
    links.push({ start: match.index, end: match.index + href.length, href })
  }
  return links
}

// What counts as a link ---------------------------------------------------------------------------

/** Zero-width, direction and other invisible characters (Unicode's default-ignorable ones), dropped before reading. */
const invisible = /\p{Default_Ignorable_Code_Point}/gu

/**
 * Letters that look like the Latin ones of an address (Cyrillic and Greek), and marks that look
 * like its dots, slashes and colon, as the Latin letter or mark a reader sees. Full-width forms
 * and most compatibility forms ("ｈ", "．", "／", "：", "ﬁ", "․") are already ASCII after NFKD.
 */
const lookAlikes: Record<string, string> = {
  // Cyrillic
  а: 'a', в: 'b', с: 'c', ԁ: 'd', е: 'e', ё: 'e', һ: 'h', і: 'i', ї: 'i', ј: 'j', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p',
  ԛ: 'q', ѕ: 's', т: 't', у: 'y', х: 'x', ԝ: 'w', ɡ: 'g', ӏ: 'l',
  А: 'A', В: 'B', С: 'C', Е: 'E', Н: 'H', І: 'I', Ј: 'J', К: 'K', М: 'M', О: 'O', Р: 'P', Ѕ: 'S', Т: 'T', Х: 'X', У: 'Y', Ԝ: 'W',
  // Greek
  α: 'a', β: 'b', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', ω: 'w',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
  // Latin letters that read as others
  ı: 'i', ȷ: 'j', ʜ: 'h', ʟ: 'l', ᴡ: 'w', ᴛ: 't', ᴘ: 'p', ꜱ: 's', ᴏ: 'o',
  // Dots, slashes and colons
  '\u3002': '.', '\uff61': '.', '\u00b7': '.', '\u2027': '.', '\u2219': '.', '\u22c5': '.', '\u0701': '.', '\u0702': '.',
  '\u2044': '/', '\u2215': '/', '\u29f8': '/', '\u2571': '/', '\u3033': '/',
  '\u2236': ':', '\ua789': ':', '\u02d0': ':', '\u0589': ':', '\u05c3': ':', '\u16ec': ':', '\ufe30': ':',
}
const lookAlike = new RegExp(`[${Object.keys(lookAlikes).join('')}]`, 'gu')

/** A dot written so that it is not one: "evil[.]com", "evil(dot)com", "evil [dot] com". */
const writtenDot = /\s?[([{]\s*(?:\.|dot|punt|point)\s*[)\]}]\s?/giu

/**
 * The address as a reader would type it: compatibility forms to ASCII (NFKD), accents and
 * invisible characters dropped, look-alikes to the letter or mark they look like, written dots to
 * dots. "Voilàhttps://" becomes "Voilahttps://", "ｈｔｔｐｓ：／／" "https://", "һttps" "https".
 */
function asTyped(text: string) {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(invisible, '')
    .replace(lookAlike, (char) => lookAlikes[char] ?? char)
    .replace(writtenDot, '.')
}

/**
 * The same with every other character that is not ASCII (a letter with its accent, an emoji, a
 * Chinese character) as a space, so that what it was glued to starts a word of its own:
 * "Voilàwww.evil.dev" reads "Voil www.evil.dev".
 */
function asSeparated(text: string) {
  return text
    .normalize('NFKC')
    .replace(invisible, '')
    .replace(lookAlike, (char) => lookAlikes[char] ?? char)
    .replace(writtenDot, '.')
    .replace(/[^\x20-\x7e]/g, ' ')
}

/**
 * Top-level domains read as a bare link ("example.com"). Those that are also words of our
 * languages, typed after a full stop without a space, are left out ("super.de rien",
 * "merci.ca va", "tu es", "top", "lu", and "it", "in", "is", "to", "at", "so", "no", "me");
 * with "www." or "http" any domain is a link.
 */
const linkTlds =
  'com|net|org|info|biz|io|co|us|uk|au|nz|ie|fr|nl|be|eu|ch|app|xyz|online|site|shop|store|club|vip|live|link|click|ly|gl|gd|cc|tk|ru|cn|dev'

const linkPatterns = [
  // A scheme anywhere, glued to a word or not; "hxxp" is how addresses are written to slip past.
  /h(?:tt|xx)ps?:\/\/\S/i,
  /\bwww\.[a-z\d-]/i,
  // Read with case: the domain ends in a lower-case (or all capital) top-level domain, so
  // "Great walk.Club meets Tuesdays" is a sentence, "walk.club" or "WALK.CLUB" a link.
  new RegExp(
    `(?<![@\\w.-])(?:[A-Za-z\\d][A-Za-z\\d-]*\\.)+(?:${linkTlds}|${linkTlds.toUpperCase()})(?![\\w-])(?!\\.[A-Za-z\\d])`,
  ),
]

/**
 * An http(s) address (shown as a link or not), a "www." address or a bare domain ("example.com",
 * "bit.ly/x"), however it is written. An email address is not a link. New and unverified members
 * cannot send one in a first message (decision 038).
 */
export function containsLink(text: string) {
  if (messageLinks(text).length > 0) return true
  const readings = [asTyped(text), asSeparated(text)]
  return readings.some((reading) => linkPatterns.some((pattern) => pattern.test(reading)))
}
