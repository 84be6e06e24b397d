import { z } from 'zod'
import { daysInMonth } from './birth-date.ts'

/**
 * Checks for what members and API clients type, shared by the API's schemas and the web forms
 * (browser and server) so that both refuse the same input. Pure and small: it ships in browser
 * bundles. The web forms' messages for these checks are in app/utils/form-messages.ts.
 */

// C0 and C1 control characters and DEL. PostgreSQL cannot store NUL in text at all (the query
// fails), and the others are invisible and have no place in anything a member writes.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/
// The same, less tab, line feed and carriage return, which multi-line text keeps.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const controlCharactersExceptLines = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/
// Bidirectional embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069) make text show
// in another order than it is stored ("Trojan Source", CVE-2021-42574): a title or name could
// read as something else entirely. The marks U+200E/U+200F that right-to-left text needs stay.
const directionCharacters = /[\u202a-\u202e\u2066-\u2069]/
// What shows nothing: white space, default-ignorable code points (zero-width space, joiners and
// non-joiners, word joiner, soft hyphen, byte order mark, variation selectors, Hangul fillers…)
// and the blank braille pattern.
const invisibleCharacters = /[\p{White_Space}\p{Default_Ignorable_Code_Point}\u2800]/gu

export function hasControlCharacters(value: string, options: { multiline?: boolean } = {}) {
  return (options.multiline ? controlCharactersExceptLines : controlCharacters).test(value)
}

export function hasDirectionCharacters(value: string) {
  return directionCharacters.test(value)
}

/** Whether `value` would look empty on screen (only white space and invisible characters). */
export function isBlankText(value: string) {
  return value.replace(invisibleCharacters, '') === ''
}

export interface MemberTextMessages {
  /** For a C0/C1 control character (NUL among them). */
  controlCharacters: string
  /** For a bidirectional override, embedding or isolate character. */
  directionCharacters: string
}

/**
 * Member text: appended to a string schema right after `.trim()` and before its `min`/`max`.
 * Text that would look empty becomes '' so that the field's own "required" check (a `min(1)`
 * after this, or the service's) refuses it with its usual message; control characters (tabs and
 * line breaks are kept when `multiline`) and direction overrides are refused with `messages`.
 */
export function memberText(schema: z.ZodString, messages: MemberTextMessages, options: { multiline?: boolean } = {}) {
  return schema
    .overwrite((value) => (isBlankText(value) ? '' : value))
    .refine((value) => !hasControlCharacters(value, options), messages.controlCharacters)
    .refine((value) => !hasDirectionCharacters(value), messages.directionCharacters)
}

/** The API's field codes for member text (the web maps them to its messages). */
export const memberTextCodes: MemberTextMessages = {
  controlCharacters: 'invalid_characters',
  directionCharacters: 'direction_characters',
}

/**
 * Whether `YYYY-MM-DD` names a day that exists: 2027-02-30 does not (`Date` would quietly roll
 * it over to 2 March), nor 2026-02-29.
 */
export function isCalendarDate(value: string) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  if (!match) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(month, year)
}

/**
 * A query-string integer written as plain decimal digits. `z.coerce.number()` goes through
 * `Number()`, which also reads `0x10` as 16, `1e1` as 10, ` 2` and `+2` as 2, and '' as 0.
 * `bounds` adds the limits of the field (with the same message).
 */
export function queryInteger(message: string, bounds: (schema: z.ZodNumber) => z.ZodNumber = (schema) => schema) {
  return z
    .string({ error: message })
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .pipe(bounds(z.number()))
}

/**
 * A query-string decimal number (`-122.6784`, `10`, `1.5e-3`): no hexadecimal, no blanks, no
 * sign other than a leading minus, no `Infinity`, nothing that `Number()` would read as 0.
 */
export function queryDecimal(message: string, bounds: (schema: z.ZodNumber) => z.ZodNumber = (schema) => schema) {
  return z
    .string({ error: message })
    .regex(/^-?(\d{1,20}(\.\d{0,20})?|\.\d{1,20})(e[-+]?\d{1,3})?$/i, message)
    .transform(Number)
    .pipe(bounds(z.number({ error: message })))
}
