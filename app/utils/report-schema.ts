import { z } from 'zod'
import { memberText, memberTextMessages } from './input-validation.ts'

/** Spec: the reasons a member can give, in the order shown. */
export const reportReasons = [
  'fake_or_scam',
  'harmful_or_illegal',
  'happened_in_person',
  'inappropriate_or_offensive',
  'low_quality_or_spam',
  'something_else',
] as const
const maxDetails = 2000
const e = (key: string) => `reports:errors.${key}`

/** The report form, shared by the browser (conform) and the action. Messages are translation keys. */
export const reportFormSchema = z.object({
  reason: z.enum(reportReasons, { error: e('reason_required') }),
  details: memberText(z.string().trim(), memberTextMessages, { multiline: true }).max(maxDetails, e('details_too_long')).optional(),
})

const detailsMessageByCode: Record<string, string> = {
  invalid_characters: memberTextMessages.controlCharacters,
  direction_characters: memberTextMessages.directionCharacters,
}

/** The API's field codes for the details (a 422: details_too_long, invalid_characters…) → the form's messages. */
export function reportDetailsMessages(codes: string[]) {
  return codes.map((code) => detailsMessageByCode[code] ?? e('details_too_long'))
}
