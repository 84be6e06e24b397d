import {
  adminMedicareSchema,
  medicareStateSchema,
  type AdminMedicare,
  type GiveMedicareConsentBody,
  type MedicarePartnerBody,
  type MedicareState,
} from '#contract/medicare.ts'
import type { Language } from '#contract/enums.ts'
import type { ApiTransport } from '../api.server.ts'

/** Permission to be called about Medicare plans (decision 086): the only code that knows its paths. */
export function medicareClient(api: ApiTransport) {
  return {
    /** The member's consent in force and the words offered now, in `locale`. */
    state: (locale: Language): Promise<MedicareState> => api.one('GET', 'v1/users/me/medicare', medicareStateSchema, { query: { locale } }),
    give: (body: GiveMedicareConsentBody): Promise<MedicareState> => api.one('POST', 'v1/users/me/medicare', medicareStateSchema, { body }),
    /** "Stop these calls". */
    stop: (): Promise<void> => api.empty('DELETE', 'v1/users/me/medicare'),
    /** The team: the agency and how many consents to it are in force. */
    admin: (): Promise<AdminMedicare> => api.one('GET', 'v1/admin/medicare/partner', adminMedicareSchema),
    savePartner: (body: MedicarePartnerBody): Promise<AdminMedicare> => api.one('PUT', 'v1/admin/medicare/partner', adminMedicareSchema, { body }),
    /** The agency's list as a CSV file (each download recorded by the API). */
    exportCsv: (): Promise<string> => api.text('v1/admin/medicare/export', 'text/csv'),
  }
}
