import type { TFunction } from 'i18next'

/**
 * What a member sends to invite a friend (decision 087), written in one place: the email's subject
 * and body, the text message, and what the phone's share sheet gets. Were a reward ever given for
 * a friend who comes (`incentive`, from the API), every one of them would say so (FTC Endorsement
 * Guides); today there is none and they promise nothing.
 */
export interface ShareTexts {
  emailSubject: string
  /** Paragraphs, the link among them. */
  emailBody: string[]
  /** One message, the link at its end. */
  text: string
  /** `mailto:` with the subject and body filled in. */
  mailto: string
  /** `sms:` with the text filled in (the member's own phone sends it, never Circle 55). */
  sms: string
}

export function shareTexts(
  t: TFunction,
  invite: { link: string; incentive: string | null },
): ShareTexts {
  const disclosure = invite.incentive
    ? t('referrals:share.incentive', { incentive: invite.incentive })
    : null
  const emailSubject = t('referrals:share.emailSubject')
  const emailBody = [
    ...t('referrals:share.emailBody').split(/\n{2,}/),
    invite.link,
    ...(disclosure ? [disclosure] : []),
    t('referrals:share.emailClosing'),
  ]
  const text = [t('referrals:share.text'), invite.link, disclosure].filter(Boolean).join(' ')
  return {
    emailSubject,
    emailBody,
    text,
    mailto: `mailto:?subject=${encodeURIComponent(emailSubject)}&body=${encodeURIComponent(emailBody.join('\n\n'))}`,
    sms: `sms:?&body=${encodeURIComponent(text)}`,
  }
}
