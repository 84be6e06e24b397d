import { listOf } from '#contract/common.ts'
import {
  adminPartnershipSchema,
  initiatedSubscriptionSchema,
  partnershipSchema,
  subscriptionSchema,
  type AdminPartnership,
  type InitiateSubscriptionBody,
  type InitiatedSubscription,
  type Partnership,
  type PartnershipBody,
  type Subscription,
} from '#contract/subscriptions.ts'
import type { ApiTransport } from '../api.server.ts'

/** Premium and the partner offer (spec §7 `v1/subscriptions/…`, decision 074): the only code that knows their paths. */
export function subscriptionsClient(api: ApiTransport) {
  return {
    /** The partner offers for the member's region; the first is the partnership. */
    partnerships: async (): Promise<Partnership[]> =>
      (await api.json('GET', 'v1/subscriptions/partnerships', listOf(partnershipSchema))).data,
    /** The member's premium, or null when they never joined. */
    mine: async (): Promise<Subscription | null> =>
      (await api.json('GET', 'v1/subscriptions/me', listOf(subscriptionSchema))).data[0] ?? null,
    /** A partner's $0 plan (active at once), or the paid plan (`redirect_url`: the hosted payment page). */
    initiate: (body: InitiateSubscriptionBody): Promise<InitiatedSubscription> =>
      api.one('POST', 'v1/subscriptions/initiate', initiatedSubscriptionSchema, { body }),
    cancel: (): Promise<Subscription> =>
      api.one('POST', 'v1/subscriptions/me/cancel', subscriptionSchema),
    /** Admin: the partnerships. */
    adminPartnerships: async (): Promise<AdminPartnership[]> =>
      (await api.json('GET', 'v1/admin/partnerships', listOf(adminPartnershipSchema))).data,
    adminPartnership: (id: string): Promise<AdminPartnership> =>
      api.one('GET', `v1/admin/partnerships/${encodeURIComponent(id)}`, adminPartnershipSchema),
    createPartnership: (body: PartnershipBody): Promise<AdminPartnership> =>
      api.one('POST', 'v1/admin/partnerships', adminPartnershipSchema, { body }),
    updatePartnership: (id: string, body: PartnershipBody): Promise<AdminPartnership> =>
      api.one('PUT', `v1/admin/partnerships/${encodeURIComponent(id)}`, adminPartnershipSchema, {
        body,
      }),
  }
}
