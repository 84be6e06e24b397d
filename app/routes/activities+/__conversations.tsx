import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { Experience } from '#app/utils/experience.ts'
import { SubmitButton } from '#app/components/ui/submit-button.tsx'
import { OnlyTheMember } from '#app/components/only-the-member.tsx'

/**
 * The activity's conversations (issue 14 §1, spec §2 "contact host"): "Contact host" opens the
 * direct channel with the host for a signed-in member who is not the host (hidden when the API
 * says the host cannot be messaged: blocked, suspended, no host); the host and seated attendees
 * open the activity's group chat. Both post to `/messenger/new`, which opens (or creates) the
 * channel and redirects to it, so they work without JavaScript.
 */
export function Conversations({ experience, canContactHost }: { experience: Experience; canContactHost: boolean }) {
  const { t } = useTranslation('activities')
  const inGroup = Boolean(experience.viewer?.is_host || experience.viewer?.is_attending)
  if (!inGroup && !(canContactHost && experience.host)) return null
  return (
    <div className="actions">
      {inGroup ? (
        <Form method="post" action="/messenger/new">
          <input type="hidden" name="experience_id" value={experience.id} />
          <SubmitButton pending="opening" className="button button--secondary">
            {t('detail.groupChat')}
          </SubmitButton>
        </Form>
      ) : null}
      {canContactHost && experience.host ? (
        <OnlyTheMember quiet>
          <Form method="post" action="/messenger/new">
            <input type="hidden" name="user_id" value={experience.host.id} />
            <input type="hidden" name="from_activity" value={experience.id} />
            <SubmitButton pending="opening" className="button button--secondary">
              {t('detail.contactHost')}
            </SubmitButton>
          </Form>
        </OnlyTheMember>
      ) : null}
    </div>
  )
}
