import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { SubmitButton } from './ui/submit-button.tsx'
import { useViewingAs } from './only-the-member.tsx'

/**
 * "Contact the product" (issue 14 §1, decision 039): opens the member's conversation with Circle
 * 55 support in the Messenger. A plain POST, so it works without JavaScript. Pages that show it
 * list the `support` namespace in their `handle`.
 */
export function ContactSupport({ className = 'button button--secondary' }: { className?: string }) {
  const { t } = useTranslation('support')
  // Writing to support speaks for the member: not while the team views Circle 55 as them (decision 078).
  if (useViewingAs()) return null
  return (
    <Form method="post" action="/messenger/new">
      <SubmitButton pending="opening" name="to" value="support" className={className}>
        {t('contact')}
      </SubmitButton>
    </Form>
  )
}
