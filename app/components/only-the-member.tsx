import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useRootData } from '#app/utils/root-data.ts'

/** Whether the team is viewing Circle 55 as this member now (decision 078). */
export function useViewingAs() {
  return (useRootData()?.impersonation ?? null) !== null
}

/**
 * What only the member may do (issue 32 §2, decision 078): their cards and payments, email, phone,
 * sign-in, identity check and premium, and what speaks for them (messages, reports, invitations).
 * While the team views Circle 55 as them, the controls are
 * left out and one line says why (the API refuses them anyway); `quiet` leaves out the line too,
 * for a control repeated down a list.
 */
export function OnlyTheMember({ children, quiet = false }: { children: ReactNode; quiet?: boolean }) {
  const { t } = useTranslation('common')
  if (!useViewingAs()) return <>{children}</>
  return quiet ? null : <p className="notice">{t('impersonation.onlyTheMember')}</p>
}
