import { onboardingSteps } from './enums.ts'

/**
 * The dashboards' rules (decision 082), without zod: the pages that draw them load only these,
 * not the schemas in `dashboards.ts`.
 */

/** The flag of a host's numbers (migration 0046): off, My activities shows none and the API answers 404. */
export const hostNumbersFlag = 'host-numbers'

/** How many weeks a dashboard covers: 12 unless asked (4 to 52). */
export const dashboardWeeks = { default: 12, min: 4, max: 52 } as const

/** On a host's dashboard, a count of 1 to 4 is answered as null ("fewer than 5"), and an average needs 5 ratings. */
export const smallCountBelow = 5

/** How far onboarding got: every member who signed up, then each page of onboarding they reached (decision 023). */
export const onboardingStages = ['signed_up', ...onboardingSteps] as const
export type OnboardingStage = (typeof onboardingStages)[number]
