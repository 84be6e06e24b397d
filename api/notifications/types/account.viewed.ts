import { z } from 'zod'
import { defineNotification } from '../kind.ts'

/**
 * A member of the team viewed Circle 55 as this member (decision 078): told afterwards, always, in
 * the app and by email (never a setting, nextcloud/impersonate #80): who, when, why, and whether
 * they acted on the member's behalf.
 */
export const accountViewed = defineNotification({
  type: 'account.viewed',
  data: z.object({
    impersonation_id: z.uuid(),
    staff_name: z.string(),
    started_at: z.string(),
    ended_at: z.string(),
    reason: z.string(),
    acted: z.boolean(),
  }),
  topic: null,
  copy: 'accountViewed',
  text: (data, { t, language }) => {
    if (!data.started_at || !data.ended_at || data.reason === undefined) return null
    const day = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'America/New_York' }).format(new Date(data.started_at))
    const time = (iso: string) => new Intl.DateTimeFormat(language, { timeStyle: 'short', timeZone: 'America/New_York' }).format(new Date(iso))
    const vars = { staff: data.staff_name || t('someone'), day, from: time(data.started_at), to: time(data.ended_at), reason: data.reason }
    return { title: t('title'), body: [t('body', vars), data.acted ? t('acted') : null, t('unexpected')].filter(Boolean).join(' ') }
  },
  link: () => '/account',
  email: 'text',
  push: false,
  sms: null,
})
