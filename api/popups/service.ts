import type { DismissPopupInput, Popup } from '#contract/popups.ts'
import { bannerPopups, dismissBanner } from '../banners/service.ts'
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { requirePermission } from '../policy/permissions.ts'
import type { PlacesProvider } from '../providers/maps/provider.ts'
import { attendancePopups, dismissAttendancePopup } from '../surveys/service.ts'

/**
 * Popups (spec §3, §7 `v1/users/me/popups`; issue 32 §4; decision 084): one list and one way to
 * put one away, whatever its type. Each type's module says what is open and records the
 * dismissal in the `popups` table: "Did you go?" (`api/surveys/`), banners (`api/banners/`).
 * "Did you go?" comes first: it is about something the member did.
 */

export interface PopupsDeps {
  db: DB
  places: PlacesProvider
}

/** `GET v1/users/me/popups`: the caller's open popups. */
export async function listPopups({ db, places }: PopupsDeps, caller: User, now = new Date()): Promise<Popup[]> {
  requirePermission(caller, 'read:popups')
  const [attendance, banners] = await Promise.all([attendancePopups(db, caller, now), bannerPopups(db, places, caller, now)])
  return [...attendance, ...banners]
}

/** `PUT v1/users/me/popups`: puts one away. */
export async function dismissPopup({ db }: PopupsDeps, caller: User, input: DismissPopupInput, now = new Date()) {
  requirePermission(caller, 'read:popups')
  switch (input.type) {
    case 'EXPERIENCE_ATTENDANCE':
      return dismissAttendancePopup(db, caller, input.experience_id, now)
    case 'BANNER':
      return dismissBanner(db, caller, input.banner_id, now)
  }
}
