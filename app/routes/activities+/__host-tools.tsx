import { Form, Link, useActionData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { Experience } from '#app/utils/experience.ts'
import type { InvitedByEmail, Waitlist } from '#app/utils/api/experiences.server.ts'
// The page's action is `runIntent` ($id.tsx's `action` returns it): typed from there, not from
// the page that renders this part (decision 067).
import type { runIntent } from './$id.server.ts'
import { BreakableText } from '#app/components/ui/breakable-text.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'

/**
 * The activity page's host tools: edit, duplicate, attendee list, cancel, notify list, invite by
 * email. Once the activity has begun only what can still be done (issue 29 §4): duplicate it and
 * download its attendee list; the API refuses the rest.
 */
export function HostTools({ experience, waitlist, past }: { experience: Experience; waitlist: Waitlist | null; past: boolean }) {
  const { t } = useTranslation('activities')
  const actionData = useActionData<typeof runIntent>()
  const typedEmails = actionData && 'emails' in actionData && typeof actionData.emails === 'string' ? actionData.emails : undefined
  return (
    <section aria-labelledby="host-tools" className="card host-tools">
      <h2 id="host-tools">{t('host.title')}</h2>
      {/* Buttons, not text links: each at least 44px tall and easy to tell apart (issue 12 §6). */}
      <ul className="actions" role="list">
        {past ? null : (
          <li>
            <Link to={`/activities/${experience.id}/edit`} className="button button--secondary">
              {t('host.edit')}
            </Link>
          </li>
        )}
        <li>
          <Link to={`/duplicate-activity?from=${experience.id}`} className="button button--secondary">
            {t('host.duplicate')}
          </Link>
        </li>
        <li>
          <a href={`/activities/${experience.id}/attendees.csv`} download aria-describedby="csv-hint" className="button button--secondary">
            {t('host.csv')}
          </a>
          <p id="csv-hint">{t('host.csvHint')}</p>
        </li>
        {past ? (
          <li>
            <Link to={`/activities/${experience.id}/attendance`} className="button button--secondary">
              {t('attendance.link')}
            </Link>
          </li>
        ) : null}
        {past ? null : (
          <li>
            <Link to={`/activities/${experience.id}?confirm=cancel-activity`} className="button button--danger">
              {t('host.cancel')}
            </Link>
          </li>
        )}
      </ul>
      {past ? null : <Upcoming experience={experience} waitlist={waitlist} typedEmails={typedEmails} />}
    </section>
  )
}

/** The notify list and inviting by email: for an activity that has not begun. */
function Upcoming({ experience, waitlist, typedEmails }: { experience: Experience; waitlist: Waitlist | null; typedEmails: string | undefined }) {
  const { t } = useTranslation('activities')
  return (
    <>
      {(experience.max_attendees ?? 0) > 0 ? (
        <>
          <h3>{t('host.waitlist')}</h3>
          {waitlist && waitlist.data.length > 0 ? (
            <ol>
              {waitlist.data.map((entry) => (
                <li key={entry.user_id}>{entry.display_name ?? t('common:member.generic')}</li>
              ))}
            </ol>
          ) : (
            <p>{t('host.waitlistEmpty')}</p>
          )}
        </>
      ) : null}
      <h3>{t('host.addTitle')}</h3>
      <Form method="post">
        <input type="hidden" name="intent" value="invite-by-emails" />
        <div className="field">
          <label htmlFor="emails">{t('host.emails')}</label>
          <span className="hint" id="emails-hint">
            {t('host.emailsHint')}
          </span>
          <textarea id="emails" name="emails" rows={3} aria-describedby="emails-hint" defaultValue={typedEmails} />
        </div>
        <SubmitButton pending="saving" className="button button--secondary">
          {t('host.add')}
        </SubmitButton>
      </Form>
    </>
  )
}

/**
 * What inviting people by email did: the same words whether or not an address belongs to a member
 * (decision 066), and why the page does not say which do.
 */
export function InvitedResult({ result }: { result: InvitedByEmail }) {
  const { t } = useTranslation('activities')
  return (
    <div className="notice notice--success" role="status">
      {result.invited_if_member.length > 0 ? (
        <>
          <p>
            <BreakableText text={t('host.result.sent', { emails: result.invited_if_member.join(', '), count: result.invited_if_member.length })} />
          </p>
          <p>{t('host.result.privacy')}</p>
        </>
      ) : null}
      {result.full.length > 0 ? (
        <p>
          <BreakableText text={t('host.result.full', { emails: result.full.join(', '), count: result.full.length })} />
        </p>
      ) : null}
    </div>
  )
}

/** Cancelling the whole activity is confirmed on a page of its own (with or without JavaScript). */
export function ConfirmCancelActivity({ experience }: { experience: Experience }) {
  const { t } = useTranslation('activities')
  return (
    <div className="prose">
      <h1>{t('host.confirmTitle')}</h1>
      <p>{t('host.confirmBody', { title: experience.title, count: experience.attendees_count })}</p>
      <Form method="post" action={`/activities/${experience.id}`} className="button-row">
        <input type="hidden" name="intent" value="cancel-activity" />
        <input type="hidden" name="confirmed" value="yes" />
        <SubmitButton pending="working" className="button button--danger">
          {t('host.confirm')}
        </SubmitButton>
        <Link to={`/activities/${experience.id}`} className="button button--secondary">
          {t('host.keep')}
        </Link>
      </Form>
    </div>
  )
}
