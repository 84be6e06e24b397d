import { z } from 'zod'
import { defineNotification } from '../kind.ts'

/** Spec §3 `sample`: a test notification, which asks nothing of the member. */
export const sample = defineNotification({
  type: 'sample',
  data: z.object({}),
  topic: 'product_updates',
  copy: 'sample',
  text: (_data, { t }) => ({ title: t('title'), body: t('body') }),
  link: () => '/notifications',
  email: 'text',
  push: true,
  sms: { cancelReply: false },
})
