import { z } from 'zod'
import { defineNotification } from '../kind.ts'

/** A report the member made was handled (never its outcome, issue 14 §5). */
export const reportHandled = defineNotification({
  type: 'report.handled',
  data: z.object({ report_id: z.uuid() }),
  topic: null,
  copy: 'reportHandled',
  text: (_data, { t }) => ({ title: t('title'), body: t('body') }),
  link: () => '/notifications',
  email: 'text',
  push: false,
  sms: null,
})
