import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { auditKinds, type AuditKind } from '#contract/audit-kinds.ts'
import type { AuditEntry, AuditLogQuery } from '#contract/audit.ts'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import { BreakableName } from '#app/components/ui/breakable-text.tsx'
import { SelectField } from '#app/components/ui/field.tsx'
import { getApi, requireUser } from '#app/utils/auth.server.ts'
import { ignoreUnlessUnavailable, notFoundOnMissing } from '#app/utils/http.server.ts'
import { getT } from '#app/utils/i18next.server.ts'
import { pageTitle } from '#app/utils/meta.ts'

/**
 * `/admin/audit` (issue 32 §2, decision 089): the team's audit log, newest first, 50 rows a page —
 * when, who (the team member, also when they were viewing Circle 55 as a member), as whom, what
 * (its kind, its code and what it was about) and the row's details. A plain GET form filters by
 * team member and kind; a member's name (here, or on their admin page) filters by member. The
 * API decides who may (`read:audit`, admins) and anyone else gets its 403. Like every page, it is
 * never kept by a cache (`private, no-store`, entry.server.tsx).
 */
const PATH = '/admin/audit'
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The filters in the address; one that cannot be right (no form offers it) is left out. */
function filtersOf(params: URLSearchParams): AuditLogQuery {
  const id = (name: string) => {
    const value = params.get(name)?.trim() ?? ''
    return uuid.test(value) ? value.toLowerCase() : undefined
  }
  const kind = params.get('kind') ?? ''
  const before = params.get('before') ?? ''
  return {
    staff: id('staff'),
    member: id('member'),
    kind: (auditKinds as readonly string[]).includes(kind) ? (kind as AuditKind) : undefined,
    before: /^[1-9]\d{0,8}$/.test(before) ? Number(before) : undefined,
  }
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context)
  const t = await getT(request, context, 'moderation')
  const api = getApi(request, context)
  const filters = filtersOf(new URL(request.url).searchParams)
  const page = await api.audit.list(filters).catch(notFoundOnMissing)
  // Once the API has said the caller may read the log: the team for the filter, the member's name.
  const [team, member] = await Promise.all([
    api.staff.list().catch(ignoreUnlessUnavailable),
    filters.member ? api.staff.member(filters.member).catch(ignoreUnlessUnavailable) : null,
  ])
  return {
    title: t('admin.audit.title'),
    entries: page.data,
    nextBefore: page.metadata.next_before,
    filters,
    team: (team ?? []).map((person) => ({ value: person.id, label: person.name })),
    member: filters.member ? { id: filters.member, name: member?.display_name ?? null } : null,
  }
}

/** The page's address with these filters (empty ones left out). */
function hrefOf(filters: AuditLogQuery) {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(filters)) if (value !== undefined && value !== '') params.set(name, String(value))
  const query = params.toString()
  return query ? `${PATH}?${query}` : PATH
}

export default function AuditLog() {
  const { entries, nextBefore, filters, team, member } = useLoaderData<typeof loader>()
  const { t } = useTranslation('moderation')
  const current = { staff: filters.staff, member: filters.member, kind: filters.kind }
  const staffOptions = filters.staff && !team.some((person) => person.value === filters.staff) ? [...team, { value: filters.staff, label: t('admin.audit.formerStaff') }] : team
  return (
    <div className="audit-page">
      <h1>{t('admin.audit.title')}</h1>
      <p className="lead">{t('admin.audit.intro')}</p>
      {member ? (
        <p>
          {t('admin.audit.onlyMember', { name: member.name ?? t('common:member.generic') })} <Link to={hrefOf({ ...current, member: undefined })}>{t('admin.audit.allMembers')}</Link>
        </p>
      ) : null}
      <Form method="get" action={PATH} className="filters" aria-label={t('admin.audit.filters')}>
        {member ? <input type="hidden" name="member" value={member.id} /> : null}
        <SelectField id="staff" name="staff" label={t('admin.audit.staff')} placeholder={t('admin.audit.anyone')} options={staffOptions} defaultValue={filters.staff ?? ''} />
        <SelectField
          id="kind"
          name="kind"
          label={t('admin.audit.kind')}
          placeholder={t('admin.audit.anything')}
          options={auditKinds.map((kind) => ({ value: kind, label: t(`admin.audit.kinds.${kind}`) }))}
          defaultValue={filters.kind ?? ''}
        />
        <button type="submit" className="button">
          {t('admin.audit.show')}
        </button>
      </Form>
      {entries.length === 0 ? (
        <p data-testid="audit-empty">{t('admin.audit.empty')}</p>
      ) : (
        // A region that scrolls sideways takes keyboard focus, so it can be scrolled without a mouse (axe: scrollable-region-focusable).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- that region is what the focus is for
        <section className="audit-log" aria-labelledby="audit-caption" tabIndex={0}>
          <table>
            <caption id="audit-caption">{t('admin.audit.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('admin.audit.when')}</th>
                <th scope="col">{t('admin.audit.who')}</th>
                <th scope="col">{t('admin.audit.asWhom')}</th>
                <th scope="col">{t('admin.audit.what')}</th>
                <th scope="col">{t('admin.audit.details')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <AuditRow key={entry.id} entry={entry} current={current} />
              ))}
            </tbody>
          </table>
        </section>
      )}
      {nextBefore !== null || filters.before !== undefined ? (
        <p className="audit-pages">
          {filters.before !== undefined ? <Link to={hrefOf(current)}>{t('admin.audit.newest')}</Link> : null}{' '}
          {nextBefore !== null ? (
            <Link to={hrefOf({ ...current, before: nextBefore })} rel="next">
              {t('admin.audit.older')}
            </Link>
          ) : null}
        </p>
      ) : null}
    </div>
  )
}

/** One row: its names link to the log filtered by that team member or member. */
function AuditRow({ entry, current }: { entry: AuditEntry; current: AuditLogQuery }) {
  const { t, i18n } = useTranslation('moderation')
  const name = (person: { display_name: string | null }) => person.display_name ?? t('common:member.generic')
  const at = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'America/New_York' }).format(new Date(entry.at))
  const member = (id: string) => hrefOf({ ...current, member: id })
  return (
    <tr data-testid="audit-entry">
      <td>
        <time dateTime={entry.at}>{at}</time>
      </td>
      <td>{entry.who ? <Link to={hrefOf({ ...current, staff: entry.who.id })}>{name(entry.who)}</Link> : t('admin.audit.system')}</td>
      <td>{entry.as_member ? <Link to={member(entry.as_member.id)}>{name(entry.as_member)}</Link> : '—'}</td>
      <td>
        <span className="audit-log__line">{t(`admin.audit.kinds.${entry.kind}`)}</span>{' '}
        <code className="audit-log__line">
          <BreakableName name={entry.action} />
        </code>{' '}
        {entry.target ? (
          <span className="audit-log__line">
            {t('admin.audit.about')}{' '}
            {entry.target.type === 'user' && entry.target.id ? (
              <Link to={member(entry.target.id)}>{name(entry.target)}</Link>
            ) : (
              <code>{[entry.target.type, entry.target.id].filter(Boolean).join(' ')}</code>
            )}
          </span>
        ) : null}
      </td>
      <td>
        {entry.details.length > 0 ? (
          <dl className="audit-log__details">
            {entry.details.map((detail) => (
              <div key={detail.key}>
                <dt>
                  <code>
                    <BreakableName name={detail.key} />
                  </code>
                </dt>
                <dd>{String(detail.value)}</dd>
              </div>
            ))}
          </dl>
        ) : (
          '—'
        )}
      </td>
    </tr>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data: loaded, matches }) => pageTitle(matches, loaded?.title)

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
