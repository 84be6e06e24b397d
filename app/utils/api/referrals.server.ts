import {
  attributionResultSchema,
  inviteFriendResultSchema,
  referralBannerSchema,
  referralSummarySchema,
  type Attribution,
  type InviteFriendResult,
  type ReferralBanner,
  type ReferralSummary,
} from '#contract/referrals.ts'
import type { ApiTransport } from '../api.server.ts'

/** Referrals (decision 087): the member's invite link, the banner, sign-up attribution, "Invite a friend". The only code that knows their paths. */
export function referralsClient(api: ApiTransport) {
  return {
    summary: (): Promise<ReferralSummary> =>
      api.one('GET', 'v1/users/me/referrals', referralSummarySchema),
    saveSettings: (showFirstName: boolean): Promise<ReferralSummary> =>
      api.one('PUT', 'v1/users/me/referrals', referralSummarySchema, {
        body: { show_first_name: showFirstName },
      }),
    banner: (code: string): Promise<ReferralBanner> =>
      api.one('GET', `v1/referrals/${encodeURIComponent(code)}`, referralBannerSchema, {
        token: null,
      }),
    click: (code: string): Promise<void> =>
      api.empty('POST', `v1/referrals/${encodeURIComponent(code)}/clicks`, { token: null }),
    arrive: (body: Attribution, options: { token: string }) =>
      api.one('POST', 'v1/users/me/attribution', attributionResultSchema, {
        body,
        token: options.token,
      }),
    inviteFriend: (experienceId: string, email: string): Promise<InviteFriendResult> =>
      api.one(
        'POST',
        `v1/experiences/${encodeURIComponent(experienceId)}/invite-friend`,
        inviteFriendResultSchema,
        { body: { email } },
      ),
  }
}
