import { parseWithZod } from '@conform-to/zod/v4'
import type { ActionFunctionArgs } from '@remix-run/node'
import type { ReportInput } from '#contract/reports.ts'
import { getApi } from './auth.server.ts'
import { formAction } from './form-action.server.ts'
import { reportDetailsMessages, reportFormSchema } from './report-schema.ts'
import { redirectWithToast } from './toast.server.ts'

const e = (key: string) => `reports:errors.${key}`
// The API answers 422 with field codes (reason_invalid, details_too_long) for what the form checks too.
const apiErrorMapping = {
  messages: { reason: () => [e('reason_required')], details: reportDetailsMessages, block: () => ['moderation:report.errors.nothing_to_block'] },
}

/** What is reported, where the member goes afterwards, and the toast that thanks them. */
export interface ReportTarget {
  target: Pick<ReportInput, 'experience_id' | 'user_id' | 'message_id' | 'channel_id'>
  redirectTo: string
  toastKey: string
  /** The toast when the member also blocked (decision 037); `toastKey` otherwise. */
  blockedToastKey?: string
}

/**
 * The action of a report page (an activity's, a member's): reads the form first (an outage,
 * the session store included, answers with what the member wrote), checks it, sends it to the
 * API and goes back with a thank-you toast; the API's refusals are shown next to the fields.
 */
export async function reportAction({ request, context }: Pick<ActionFunctionArgs, 'request' | 'context'>, find: () => Promise<ReportTarget>) {
  const submission = parseWithZod(await request.formData(), { schema: reportFormSchema })
  return formAction({ request, context }, submission, {
    notSaved: e('not_saved'),
    apiErrors: apiErrorMapping,
    save: async (value) => {
      // What is reported, looked up once the form is right: a missing one is its 404 page.
      const { target, redirectTo, toastKey, blockedToastKey } = await find()
      await getApi(request, context).reports.create({
        reason: value.reason,
        details: value.details ?? '',
        ...target,
        ...(value.block ? { block: true } : {}),
      })
      return redirectWithToast(context, redirectTo, value.block && blockedToastKey ? blockedToastKey : toastKey)
    },
  })
}
