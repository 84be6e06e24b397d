import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type ActionFunctionArgs } from '@remix-run/node'
import type { ReportInput } from '#contract/reports.ts'
import { getApi, requireUser } from './auth.server.ts'
import { keepFormOnOutage } from './forms.server.ts'
import { formErrorsFromApi } from './http.server.ts'
import { markFormError } from './meta.ts'
import { reportDetailsMessages, reportFormSchema } from './report-schema.ts'
import { setToast } from './toast.server.ts'

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
  return keepFormOnOutage(
    context,
    async () => {
      await requireUser(request, context)
      if (submission.status !== 'success') {
        markFormError(context)
        return data(submission.reply(), { status: 400 })
      }
      const { target, redirectTo, toastKey, blockedToastKey } = await find()
      try {
        await getApi(request, context).reports.create({
          reason: submission.value.reason,
          details: submission.value.details ?? '',
          ...target,
          ...(submission.value.block ? { block: true } : {}),
        })
      } catch (error) {
        const { status, ...errors } = formErrorsFromApi(error, apiErrorMapping)
        markFormError(context)
        return data(submission.reply(errors), { status })
      }
      const key = submission.value.block && blockedToastKey ? blockedToastKey : toastKey
      return redirect(redirectTo, { headers: { 'Set-Cookie': await setToast(context, { kind: 'success', key }) } })
    },
    () => submission.reply({ formErrors: [e('not_saved')] }),
  )
}
