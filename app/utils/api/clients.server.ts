import { createApiTransport } from '../api.server.ts'
import { accountClient } from './account.server.ts'
import { blocksClient } from './blocks.server.ts'
import { chatClient } from './chat.server.ts'
import { chatEventsClient } from './chat-events.server.ts'
import { experiencesClient } from './experiences.server.ts'
import { mediaClient } from './media.server.ts'
import { membersClient } from './members.server.ts'
import { moderationClient } from './moderation.server.ts'
import { notificationsClient } from './notifications.server.ts'
import { notificationSettingsClient } from './notification-settings.server.ts'
import { paymentsClient } from './payments.server.ts'
import { feesClient } from './fees.server.ts'
import { staffClient } from './staff.server.ts'
import { flagsClient } from './flags.server.ts'
import { analyticsClient } from './analytics.server.ts'
import { dashboardsClient } from './dashboards.server.ts'
import { placesClient } from './places.server.ts'
import { profilesClient } from './profiles.server.ts'
import { pushClient } from './push.server.ts'
import { reportsClient } from './reports.server.ts'
import { subscriptionsClient } from './subscriptions.server.ts'
import { medicareClient } from './medicare.server.ts'
import { supportClient } from './support.server.ts'
import { surveysClient } from './surveys.server.ts'
import { popupsClient } from './popups.server.ts'
import { referralsClient } from './referrals.server.ts'
import { usersClient } from './users.server.ts'
import { verificationClient } from './verification.server.ts'
import { auditClient } from './audit.server.ts'

/**
 * The product API as typed resource clients, one per resource of spec §7 (decision 015): a
 * route writes `api.experiences.attend(id, userId)`, never a path. Every answer is parsed with
 * the contract's schema (a mismatch is the §8 Parse Error); 204s return nothing.
 */
export function createApi(options: Parameters<typeof createApiTransport>[0]) {
  const transport = createApiTransport(options)
  return {
    experiences: experiencesClient(transport),
    users: usersClient(transport),
    account: accountClient(transport),
    profiles: profilesClient(transport),
    places: placesClient(transport),
    media: mediaClient(transport),
    reports: reportsClient(transport),
    verification: verificationClient(transport),
    members: membersClient(transport),
    chat: chatClient(transport),
    blocks: blocksClient(transport),
    chatEvents: chatEventsClient(transport),
    support: supportClient(transport),
    moderation: moderationClient(transport),
    notifications: notificationsClient(transport),
    notificationSettings: notificationSettingsClient(transport),
    surveys: surveysClient(transport),
    popups: popupsClient(transport),
    push: pushClient(transport),
    payments: paymentsClient(transport),
    fees: feesClient(transport),
    staff: staffClient(transport),
    flags: flagsClient(transport),
    analytics: analyticsClient(transport),
    dashboards: dashboardsClient(transport),
    subscriptions: subscriptionsClient(transport),
    medicare: medicareClient(transport),
    referrals: referralsClient(transport),
    audit: auditClient(transport),
  }
}
export type Api = ReturnType<typeof createApi>
