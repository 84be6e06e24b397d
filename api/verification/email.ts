import type { DB } from '../db/database.ts'
import { emailGreeting, emailT } from '../i18n.ts'
import { emailRecipient } from '../notifications/emails.ts'
import type { OutgoingEmail } from '../providers/email/mailer.ts'

/**
 * The `verification.decided` email (decisions 018, 025; api/notifications/types), in the member's
 * language: verified, or not, with the reviewer's reason and the way to try again. Sent only
 * while it is still true (the request still has that outcome) and only to a member others may see.
 */
export async function composeVerificationEmail(
  db: DB,
  notification: { user_id: string; data: { verification_id: string; outcome: 'approved' | 'rejected' } },
  publicUrl: string,
): Promise<OutgoingEmail | null> {
  const { verification_id: id, outcome } = notification.data
  const member = await emailRecipient(db, notification.user_id)
  if (!member) return null
  const request = await db
    .selectFrom('verifications')
    .select(['status', 'rejection_reason'])
    .where('id', '=', id)
    .where('user_id', '=', notification.user_id)
    .executeTakeFirst()
  if (!request || request.status !== (outcome === 'approved' ? 'verified' : 'not_verified')) return null

  const language = member.locale ?? 'en'
  const t = emailT(language)
  const kind = outcome === 'approved' ? 'verificationApproved' : 'verificationRejected'
  const paragraphs = [t(`${kind}.body`)]
  if (outcome === 'rejected') paragraphs.push(t(`${kind}.reason`, { reason: request.rejection_reason ?? '' }))
  paragraphs.push(t('verificationPhotosDeleted'), t('verificationNeverAsked'), `${t(`${kind}.action`)}\n${publicUrl}/account/verification`)
  return {
    to: member.email,
    kind,
    locale: language,
    subject: t(`${kind}.subject`),
    text: [emailGreeting(t, member.first_name), ...paragraphs, t('signature')].join('\n\n'),
  }
}
