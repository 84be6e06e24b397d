import type { OnboardingStep } from '#contract/enums.ts'

/** Onboarding's pages in order (spec §2); steps join as their features exist (issue 13 §6). */
export const onboardingPath = {
  basicInfo: '/get-started',
  location: '/get-started/location',
  'profile-photo': '/get-started/profile-photo',
  subscription: '/get-started/subscription',
  verification: '/get-started/verification',
  notifications: '/get-started/notifications',
  done: '/get-started/success',
} as const satisfies Record<OnboardingStep | 'basicInfo', string>

export type OnboardingPage = keyof typeof onboardingPath
const order = Object.keys(onboardingPath) as OnboardingPage[]

/**
 * "Step 2 of 6": the page's place in onboarding, and the page before it for Back. The last page
 * greets a member who has finished, so it leads forward only.
 */
export function onboardingPosition(page: OnboardingPage) {
  const index = order.indexOf(page)
  const goesBack = index > 0 && index < order.length - 1
  return { step: index + 1, total: order.length, previous: goesBack ? onboardingPath[order[index - 1]!] : null }
}
