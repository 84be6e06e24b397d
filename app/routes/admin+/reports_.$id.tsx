import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { isCalendarDate, memberText } from '#contract/input-validation.ts'
import { maxModerationReasonLength, moderationActions, type ModerationAction, type ModerationReportDetail } from '#contract/moderation.ts'
import { ErrorSummary, summaryFrom } from '#app/components/error-summary.tsx'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { FieldErrors } from '#app/components/ui/field.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { formAction } from '#app/utils/form-action.server.ts'
import { notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { ReportFacts, Snapshot, useDateFormat, useReportTitle } from './__report-parts.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { useZodForm } from '#app/utils/use-zod-form.ts'

/**
 * One report for an admin (issue 14 §5, decision 037): what was reported (its snapshot), the
 * reported member's account and history, and the actions, each a plain form with a required
 * reason (kept in the audit log): dismiss, remove the message, warn, suspend until a date, ban.
 */
const e = (key: string) => `moderation:admin.errors.${key}`
const today = () => new Date().toISOString().slice(0, 10)

/** One schema for the five forms (browser and server); `until` only matters for `suspend`. */
const actionSchema = z
  .object({
    intent: z.enum(moderationActions),
    reason: memberText(
      z.string({ error: e('reason_required') }).trim(),
      { controlCharacters: e('reason_characters'), directionCharacters: e('reason_characters') },
      { multiline: true },
    )
      .min(1, e('reason_required'))
      .max(maxModerationReasonLength, e('reason_too_long')),
    until: z.string().trim().optional(),
  })
  .superRefine((value, context) => {
    if (value.intent !== 'suspend') return
    if (!value.until) context.addIssue({ code: 'custom', path: ['until'], message: e('until_required') })
    else if (!isCalendarDate(value.until)) context.addIssue({ code: 'custom', path: ['until'], message: e('until_invalid') })
    else if (value.until <= today()) context.addIssue({ code: 'custom', path: ['until'], message: e('until_past') })
  })

const untilMessages: Record<string, string> = {
  suspended_until_required: e('until_required'),
  suspended_until_past: e('until_past'),
}
const reasonMessages: Record<string, string> = { reason_required: e('reason_required'), reason_too_long: e('reason_too_long') }
const apiErrorMapping = {
  fields: { suspended_until: 'until', action: '' },
  messages: {
    reason: (codes: string[]) => codes.map((code) => reasonMessages[code] ?? e('reason_characters')),
    suspended_until: (codes: string[]) => codes.map((code) => untilMessages[code] ?? e('until_invalid')),
    action: (codes: string[]) => codes.map((code) => e(code)),
  },
  conflict: () => e('resolved'),
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const t = await getT(request, context, ['moderation', 'common'])
  const report = await getApi(request, context).moderation.report(params.id ?? '').catch(notFoundOnMissing)
  const title = report.reported_member
    ? t('moderation:admin.report.title', { name: report.reported_member.display_name ?? t('common:member.generic') })
    : t('moderation:admin.report.titleContent', { target: t(`moderation:admin.target.${report.target}`) })
  // The first day a suspension may end on: tomorrow (UTC, as the API checks it).
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
  return { report, minDate: tomorrow, title }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  await requireUser(request, context)
  const submission = parseWithZod(await request.formData(), { schema: actionSchema })
  const intent = submission.payload.intent
  if (typeof intent !== 'string' || !(moderationActions as readonly string[]).includes(intent)) {
    throw data({ error: 'Unknown intent' }, { status: 400 })
  }
  return formAction({ request, context }, submission, {
    apiErrors: apiErrorMapping,
    answer: (result) => ({ intent, result }),
    save: async (value) => {
      // A report that is gone (404) is the error page, as every status the mapping does not name.
      const result = await getApi(request, context).moderation.act(params.id ?? '', {
        action: value.intent,
        reason: value.reason,
        suspended_until: value.intent === 'suspend' ? (value.until ?? null) : null,
      })
      return redirectWithToast(context, '/admin/reports', `moderation:admin.actions.done.${result.outcome}`)
    },
  })
}

export default function ReviewReport() {
  const { report, minDate } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const { t } = useTranslation(['moderation', 'common'])
  const { date } = useDateFormat()
  const title = useReportTitle()(report)
  const member = report.reported_member
  const name = member?.display_name ?? t('common:member.generic')
  const open = report.resolved_at === null
  const available = availableActions(report)
  return (
    <div className="prose">
      <h1>{title}</h1>
      {open ? null : (
        <p className="notice">
          {t('admin.report.handled', { date: date(report.resolved_at!), outcome: report.outcome ? t(`admin.outcome.${report.outcome}`) : '—' })}
        </p>
      )}
      <ReportFacts report={report} />
      <h2>{t('admin.report.snapshot')}</h2>
      <Snapshot snapshot={report.snapshot} messageRemoved={report.message_removed} />
      {member ? <MemberSection report={report} /> : null}
      {open ? (
        <section aria-labelledby="actions-title">
          <h2 id="actions-title">{t('admin.actions.heading')}</h2>
          <p>{t('admin.actions.intro')}</p>
          {available.map((intent) => (
            <ActionForm key={intent} intent={intent} name={name} minDate={minDate} lastResult={answer?.intent === intent ? answer.result : undefined} />
          ))}
        </section>
      ) : null}
      <p>
        <Link to="/admin/reports">{t('admin.report.back')}</Link>
      </p>
    </div>
  )
}

function availableActions(report: ModerationReportDetail): ModerationAction[] {
  const actions: ModerationAction[] = ['dismiss']
  if (report.target === 'message' && report.message_id && !report.message_removed) actions.push('remove_message')
  if (report.reported_member && !report.reported_member.banned) actions.push('warn', 'suspend', 'ban')
  return actions
}

function MemberSection({ report }: { report: ModerationReportDetail }) {
  const { t } = useTranslation(['moderation', 'reports', 'common'])
  const { date } = useDateFormat()
  const member = report.reported_member!
  const name = member.display_name ?? t('common:member.generic')
  const status = member.banned
    ? t('admin.report.statusBanned')
    : member.is_suspended
      ? member.suspended_until
        ? t('admin.report.statusSuspendedUntil', { date: date(member.suspended_until) })
        : t('admin.report.statusSuspended')
      : t('admin.report.statusActive')
  return (
    <section aria-labelledby="member-title">
      <h2 id="member-title">{t('admin.report.member')}</h2>
      <dl className="details">
        <dt>{t('admin.report.member')}</dt>
        <dd>
          <Link to={`/p/${encodeURIComponent(member.slug)}`}>{t('admin.report.profile', { name })}</Link>
        </dd>
        <dt>{t('admin.report.joined')}</dt>
        <dd>{date(member.joined_at)}</dd>
        <dt>{t('admin.report.verification')}</dt>
        <dd>{t(`admin.verification.${member.verification}`)}</dd>
        <dt>{t('admin.report.status')}</dt>
        <dd>{status}</dd>
      </dl>
      <h3>{t('admin.report.history')}</h3>
      {report.history.length === 0 ? (
        <p>{t('admin.report.historyEmpty')}</p>
      ) : (
        <ul>
          {report.history.map((item) => (
            <li key={item.id}>
              <Link to={`/admin/reports/${item.id}`}>
                {date(item.created_at)}: {t(`reports:reason.options.${item.reason}`)}
              </Link>{' '}
              — {item.outcome ? t(`admin.outcome.${item.outcome}`) : t('admin.report.historyOpen')}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** One action: its own form, its reason, and for a suspension the end date. Works without JavaScript. */
function ActionForm({
  intent,
  name,
  minDate,
  lastResult,
}: {
  intent: ModerationAction
  name: string
  minDate: string
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const { t } = useTranslation('moderation')
  const [form, fields] = useZodForm({
    id: `action-${intent}`,
    lastResult,
    schema: actionSchema,
  })
  const reasonId = `${intent}-reason`
  const untilId = `${intent}-until`
  const reasonErrorId = fields.reason.errors?.length ? `${reasonId}-error` : undefined
  const untilErrorId = fields.until.errors?.length ? `${untilId}-error` : undefined
  const str = (value: unknown) => (typeof value === 'string' ? value : undefined)
  return (
    <section aria-labelledby={`${intent}-title`} className="card">
      <h3 id={`${intent}-title`}>{t(`admin.actions.${intent}.heading`)}</h3>
      <ErrorSummary errors={summaryFrom({ [reasonId]: fields.reason.errors, [untilId]: fields.until.errors }, [reasonId, untilId])} formErrors={form.errors} />
      <p className="hint">{t(`admin.actions.${intent}.hint`, { name })}</p>
      <Form method="post" className="form" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={intent} />
        <div className={reasonErrorId ? 'field field--error' : 'field'}>
          <label htmlFor={reasonId}>{t('admin.actions.reason')}</label>
          <span className="hint" id={`${reasonId}-hint`}>
            {t('admin.actions.reasonHint')}
          </span>
          <FieldErrors id={`${reasonId}-error`} errors={fields.reason.errors} />
          <textarea
            id={reasonId}
            name={fields.reason.name}
            rows={3}
            maxLength={maxModerationReasonLength}
            required
            defaultValue={str(fields.reason.initialValue)}
            aria-invalid={reasonErrorId ? true : undefined}
            aria-describedby={[`${reasonId}-hint`, reasonErrorId].filter(Boolean).join(' ')}
          />
        </div>
        {intent === 'suspend' ? (
          <div className={untilErrorId ? 'field field--error' : 'field'}>
            <label htmlFor={untilId}>{t('admin.actions.suspend.until')}</label>
            <span className="hint" id={`${untilId}-hint`}>
              {t('admin.actions.suspend.untilHint')}
            </span>
            <FieldErrors id={`${untilId}-error`} errors={fields.until.errors} />
            <input
              id={untilId}
              type="date"
              name={fields.until.name}
              min={minDate}
              required
              defaultValue={str(fields.until.initialValue)}
              aria-invalid={untilErrorId ? true : undefined}
              aria-describedby={[`${untilId}-hint`, untilErrorId].filter(Boolean).join(' ')}
            />
          </div>
        ) : null}
        <SubmitButton pending="saving" className={intent === 'dismiss' || intent === 'warn' ? 'button' : 'button button--danger'}>
          {t(`admin.actions.${intent}.submit`)}
        </SubmitButton>
      </Form>
    </section>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
