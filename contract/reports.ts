import { z } from 'zod'
import { reportReasons } from './enums.ts'
import { memberText, memberTextCodes } from './input-validation.ts'
import { maxReportDetailsLength } from './limits.ts'

/** Reports to the moderators (spec §3 "Report", §7 `reported-contents`). */

const optionalId = (code: string) => z.uuid({ error: code }).nullish()

/** `POST reported-contents`: a reason, free-text details and what is reported. Unknown fields are ignored. */
export const reportInputSchema = z
  .object({
    reason: z.enum(reportReasons, { error: 'reason_invalid' }),
    details: memberText(z.string({ error: 'details_invalid' }).trim(), memberTextCodes, { multiline: true })
      .max(maxReportDetailsLength, 'details_too_long')
      .nullish(),
    experience_id: optionalId('experience_id_invalid'),
    user_id: optionalId('user_id_invalid'),
    message_id: optionalId('message_id_invalid'),
    channel_id: optionalId('channel_id_invalid'),
    block: z
      .boolean({ error: 'block_invalid' })
      .nullish()
      .meta({
        description:
          'Also block the member behind what is reported (the message’s sender, the direct channel’s other member, the member, the activity’s host), in the same step.',
      }),
  })
  .meta({
    description:
      'Exactly one of `experience_id`, `user_id`, `message_id`, `channel_id` (target_required when none, target_ambiguous when several). A message or channel must be one the caller can read (404 otherwise).',
  })
export type ReportInput = z.infer<typeof reportInputSchema>

/** The report as recorded. */
export const reportSchema = z.object({ id: z.string(), reason: z.enum(reportReasons), created_at: z.string() }).meta({ id: 'Report' })
export type Report = z.infer<typeof reportSchema>
