import { z } from 'zod'
import { reportReasons } from '#contract/enums.ts'
import { memberText } from '#contract/input-validation.ts'
import { maxReportDetailsLength } from '#contract/limits.ts'
import { memberTextMessages } from './form-messages.ts'

/** Spec §3: the reasons a member can give, in the order shown. */
export { reportReasons }

const e = (key: string) => `reports:errors.${key}`

/** The report form, shared by the browser (conform) and the action. Messages are translation keys. */
export const reportFormSchema = z.object({
  reason: z.enum(reportReasons, { error: e('reason_required') }),
  details: memberText(z.string().trim(), memberTextMessages, { multiline: true }).max(maxReportDetailsLength, e('details_too_long')).optional(),
  /** "Also block …" (decision 037): a checkbox, sent as `on` when ticked. */
  block: z.literal('on').optional(),
})

const detailsMessageByCode: Record<string, string> = {
  invalid_characters: memberTextMessages.controlCharacters,
  direction_characters: memberTextMessages.directionCharacters,
}

/** The API's field codes for the details (a 422: details_too_long, invalid_characters…) → the form's messages. */
export function reportDetailsMessages(codes: string[]) {
  return codes.map((code) => detailsMessageByCode[code] ?? e('details_too_long'))
}
