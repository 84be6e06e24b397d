import { z } from 'zod'
import { defineNotification } from '../kind.ts'

/**
 * A friend who joined with the member's invite link came to a first activity (decision 087): the
 * referral counts now, and the member is told once (never at each click or sign-up, AFFiNE #6889).
 * The friend is not named: the link may have been passed on.
 */
export const referralQualified = defineNotification({
  type: 'referral.qualified',
  data: z.object({ referral_id: z.uuid() }),
  topic: 'activity_updates',
  copy: 'referralQualified',
  text: (_data, { t }) => ({ title: t('title'), body: t('body') }),
  link: () => '/referrals',
  email: 'text',
  push: false,
  sms: null,
})
