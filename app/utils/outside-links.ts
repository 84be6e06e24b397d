import { defaultOutsideLinks, type OutsideLinks } from '#contract/outside-links.ts'
import { useRootData } from './root-data.ts'

/**
 * Spec §2's outside links from configuration (decision 088), as the root loader gives them; the
 * defaults on the error page drawn without it. A null link is not shown anywhere.
 */
export function useOutsideLinks(): OutsideLinks {
  return useRootData()?.links ?? defaultOutsideLinks
}
