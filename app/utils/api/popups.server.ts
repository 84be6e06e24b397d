import { listOf } from '#contract/common.ts'
import { adminBannerSchema, bannerSchema, type AdminBanner, type Banner, type BannerInput } from '#contract/banners.ts'
import { popupListSchema, type DismissPopupInput, type Popup } from '#contract/popups.ts'
import type { ApiTransport } from '../api.server.ts'

/** Popups and banners (spec §7 `v1/users/me/popups`, `v1/cms/banners`; decisions 046, 084): the only code that knows their paths. */
export function popupsClient(api: ApiTransport) {
  return {
    /** The signed-in member's open popups: "Did you go to …?", then banners where they live. */
    list: async (): Promise<Popup[]> => (await api.json('GET', 'v1/users/me/popups', popupListSchema)).data,
    /** Puts one away. */
    dismiss: (input: DismissPopupInput) => api.empty('PUT', 'v1/users/me/popups', { body: input }),
    /** The banners showing at a point for the caller (a visitor too). */
    bannersAt: async (point: { latitude: number; longitude: number }): Promise<Banner[]> =>
      (await api.json('GET', `v1/cms/banners?latitude=${point.latitude}&longitude=${point.longitude}`, listOf(bannerSchema))).data,
    adminList: async (): Promise<AdminBanner[]> => (await api.json('GET', 'v1/admin/banners', listOf(adminBannerSchema))).data,
    create: (input: BannerInput): Promise<AdminBanner> => api.one('POST', 'v1/admin/banners', adminBannerSchema, { body: input }),
    update: (id: string, input: BannerInput): Promise<AdminBanner> => api.one('PUT', `v1/admin/banners/${encodeURIComponent(id)}`, adminBannerSchema, { body: input }),
    end: (id: string): Promise<AdminBanner> => api.one('POST', `v1/admin/banners/${encodeURIComponent(id)}/end`, adminBannerSchema),
  }
}
