import { parsePhoneNumberFromString } from 'libphonenumber-js/max'

/**
 * The member's phone number for calls about Medicare plans as E.164: a valid US number a person
 * answers (not toll-free, premium, shared-cost, a pager or voicemail), or null. The API's rule, and
 * the web's form check on the server (never in the browser: the metadata is large).
 */
export function memberPhone(input: string): string | null {
  const parsed = parsePhoneNumberFromString(input, 'US')
  if (!parsed?.isValid() || parsed.country !== 'US') return null
  const type = parsed.getType()
  if (type && ['TOLL_FREE', 'PREMIUM_RATE', 'SHARED_COST', 'PAGER', 'UAN', 'VOICEMAIL'].includes(type)) return null
  return parsed.number
}
