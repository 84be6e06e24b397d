import { z } from 'zod'
import { composeRecommendationsEmail } from '../../recommendations/email.ts'
import { defineNotification } from '../kind.ts'

/** The weekly "activities near you" (opt-in, decision 051), soonest first. */
export const experienceRecommended = defineNotification({
  type: 'experience.recommended',
  data: z.object({ experience_ids: z.array(z.uuid()).min(1).max(20) }),
  topic: 'recommendations',
  copy: 'recommended',
  text: (_data, { t }) => ({ title: t('title'), body: t('body') }),
  link: () => '/',
  email: { copy: ['experienceRecommended'], compose: composeRecommendationsEmail },
  push: true,
  sms: { cancelReply: false },
})
