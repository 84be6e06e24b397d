import { hasControlCharacters } from '#contract/input-validation.ts'

/** Far longer than any id or slug the product makes (a slug is at most 60 characters and a suffix). */
const MAX_KEY_LENGTH = 200

/**
 * Whether a path parameter (an id or a slug) is worth a database lookup. PostgreSQL refuses text
 * holding a NUL byte with an error, which would answer 500 to anyone; no id or slug holds a
 * control character or runs on for pages, so such a key simply finds nothing (404).
 */
export function isLookupKey(value: string) {
  return value.length > 0 && value.length <= MAX_KEY_LENGTH && !hasControlCharacters(value)
}
