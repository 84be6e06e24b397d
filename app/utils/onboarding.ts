import type { OnboardingStep } from '#contract/enums.ts'

/**
 * Onboarding's eight pages in the spec's order (§2; issue 33 §3): basic info, location permission,
 * notification permission, profile photo, subscription partnership, ID verification, Medicare
 * registration, success.
 */
export const onboardingPath = {
  basicInfo: '/get-started',
  location: '/get-started/location',
  notifications: '/get-started/notifications',
  'profile-photo': '/get-started/profile-photo',
  subscription: '/get-started/subscription',
  verification: '/get-started/verification',
  medicare: '/get-started/medicare',
  done: '/get-started/success',
} as const satisfies Record<OnboardingStep | 'basicInfo', string>

export type OnboardingPage = keyof typeof onboardingPath
const order = Object.keys(onboardingPath) as OnboardingPage[]

/** The step a member goes on to from `page` (the success page is the last). */
export function nextOnboardingStep(page: Exclude<OnboardingPage, 'done'>): OnboardingStep {
  return order[order.indexOf(page) + 1] as OnboardingStep
}

/**
 * "Step 2 of 8": the page's place in onboarding, and the page before it for Back. The last page
 * greets a member who has finished, so it leads forward only.
 */
export function onboardingPosition(page: OnboardingPage) {
  const index = order.indexOf(page)
  const goesBack = index > 0 && index < order.length - 1
  return { step: index + 1, total: order.length, previous: goesBack ? onboardingPath[order[index - 1]!] : null }
}
