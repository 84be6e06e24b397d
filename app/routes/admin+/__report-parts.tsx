import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { MessageText } from '#app/components/message-text.tsx'
import type { ModerationReport, ReportSnapshot, SnapshotMessage } from '#contract/moderation.ts'
import { cityWithRegion } from '#contract/place-line.ts'

/** Parts shared by the report queue and one report's page (decision 037). */

export function useDateFormat() {
  const { i18n } = useTranslation()
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeZone: 'UTC' })
  const dateTime = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' })
  return { date: (value: string) => date.format(new Date(value)), dateTime: (value: string) => dateTime.format(new Date(value)) }
}

/** "Report about Victor C." or "Report about a conversation". */
export function useReportTitle() {
  const { t } = useTranslation(['moderation', 'common'])
  return (report: Pick<ModerationReport, 'reported_member' | 'target'>) =>
    report.reported_member
      ? t('admin.report.title', { name: report.reported_member.display_name ?? t('common:member.generic') })
      : t('admin.report.titleContent', { target: t(`admin.target.${report.target}`) })
}

/** The reason, details, reporter and time of a report. */
export function ReportFacts({ report }: { report: ModerationReport }) {
  const { t } = useTranslation(['moderation', 'reports'])
  const { dateTime } = useDateFormat()
  return (
    <dl className="details">
      <dt>{t('admin.fields.what')}</dt>
      <dd>{t(`admin.target.${report.target}`)}</dd>
      <dt>{t('admin.fields.reason')}</dt>
      <dd>{t(`reports:reason.options.${report.reason}`)}</dd>
      <dt>{t('admin.fields.details')}</dt>
      <dd className="prewrap">{report.details ? <MessageText text={report.details} /> : t('admin.fields.noDetails')}</dd>
      <dt>{t('admin.fields.reporter')}</dt>
      <dd>{report.reporter?.display_name ?? t('admin.fields.reporterGone')}</dd>
      <dt>{t('admin.fields.sent')}</dt>
      <dd>{dateTime(report.created_at)}</dd>
    </dl>
  )
}

function SnapshotMessageItem({ message, removed }: { message: SnapshotMessage; removed?: boolean }) {
  const { t } = useTranslation(['moderation', 'common'])
  const { dateTime } = useDateFormat()
  return (
    <li className="message">
      <p className="message__meta">
        <span className="message__sender">
          {message.sender ? t('admin.report.messageFrom', { name: message.sender.display_name ?? t('common:member.generic') }) : t('admin.report.product')}
        </span>{' '}
        <time dateTime={message.created_at}>{dateTime(message.created_at)}</time>
      </p>
      <p className="message__body">
        <MessageText text={message.body} />
      </p>
      {removed ? <p className="hint">{t('admin.report.messageRemoved')}</p> : null}
    </li>
  )
}

/** The reported content as it was when reported. */
export function Snapshot({ snapshot, messageRemoved }: { snapshot: ReportSnapshot; messageRemoved: boolean }) {
  const { t } = useTranslation(['moderation', 'common'])
  const { dateTime } = useDateFormat()
  switch (snapshot.kind) {
    case 'message':
      return (
        <ul className="snapshot-messages">
          <SnapshotMessageItem message={snapshot.message} removed={messageRemoved} />
        </ul>
      )
    case 'channel':
      return (
        <>
          {snapshot.experience_title ? <p>{t('admin.report.group', { title: snapshot.experience_title })}</p> : null}
          <p>{t('admin.report.channelMessages')}</p>
          {snapshot.messages.length === 0 ? (
            <p>{t('admin.report.noMessages')}</p>
          ) : (
            <ol className="snapshot-messages">
              {snapshot.messages.map((message) => (
                <SnapshotMessageItem key={message.id} message={message} />
              ))}
            </ol>
          )}
        </>
      )
    case 'member':
      return (
        <dl className="details">
          <dt>{t('admin.report.member')}</dt>
          <dd>{snapshot.member.display_name ?? t('common:member.generic')}</dd>
          <dt>{t('admin.report.memberCity')}</dt>
          <dd>{cityWithRegion(snapshot.member.city, snapshot.member.region) || '—'}</dd>
          <dt>{t('admin.report.memberAbout')}</dt>
          <dd className="prewrap">{snapshot.member.about ? <MessageText text={snapshot.member.about} /> : '—'}</dd>
        </dl>
      )
    case 'experience':
      return (
        <dl className="details">
          <dt>{t('admin.target.experience')}</dt>
          <dd>
            <Link to={`/activities/${encodeURIComponent(snapshot.experience.slug)}`}>{snapshot.experience.title}</Link>
          </dd>
          <dt>{t('admin.report.activityHost')}</dt>
          <dd>{snapshot.experience.host?.display_name ?? '—'}</dd>
          <dt>{t('admin.report.activityStart')}</dt>
          <dd>{snapshot.experience.start_at ? dateTime(snapshot.experience.start_at) : '—'}</dd>
          <dt>{t('admin.report.activityDescription')}</dt>
          <dd className="prewrap">{snapshot.experience.description ? <MessageText text={snapshot.experience.description} /> : '—'}</dd>
        </dl>
      )
    case 'none':
      return <p>{t('admin.report.snapshotNone')}</p>
  }
}
