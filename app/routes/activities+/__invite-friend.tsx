import { Form, useActionData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { Experience } from '#app/utils/experience.ts'
import { BreakableText } from '#app/components/ui/breakable-text.tsx'
import { TextField } from '#app/components/ui/field.tsx'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
// The page's action is `runIntent`: typed from there (decision 067).
import type { runIntent } from './$id.server.ts'

/**
 * "Invite a friend" (issue 33 §1, decision 087), for the host and whoever holds a seat, until the
 * activity begins: one address, sent as a plain form (no JavaScript needed). The answer reads the
 * same whether or not the address belongs to a member; a malformed one is flagged next to the
 * field, what was typed kept.
 */
export function InviteFriend({ experience }: { experience: Experience }) {
  const { t } = useTranslation('referrals')
  const answer = useActionData<typeof runIntent>()
  const error = answer && 'friendError' in answer ? answer.friendError : null
  const typed =
    answer && 'friendEmail' in answer && typeof answer.friendEmail === 'string'
      ? answer.friendEmail
      : undefined
  const invited = answer && 'friendInvited' in answer ? answer.friendInvited : null
  return (
    <section aria-labelledby="invite-friend-title" className="card">
      <h2 id="invite-friend-title">{t('invite.title')}</h2>
      {invited ? (
        <div className="notice notice--success" role="status">
          <p>
            <BreakableText text={t('invite.sent', { email: invited })} />
          </p>
        </div>
      ) : null}
      {/* The server says what is wrong with an address, in the member's language (not the browser's bubble). */}
      <Form method="post" action={`/activities/${experience.id}`} noValidate>
        <input type="hidden" name="intent" value="invite-friend" />
        <TextField
          id="friend-email"
          type="email"
          name="friend_email"
          autoComplete="off"
          label={t('invite.email')}
          hint={t('invite.hint')}
          errors={error ? [error] : null}
          defaultValue={invited ? '' : typed}
          key={invited ?? 'typing'}
        />
        <SubmitButton pending="sending" className="button button--secondary">
          {t('invite.send')}
        </SubmitButton>
      </Form>
    </section>
  )
}
