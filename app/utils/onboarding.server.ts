import { redirect, type AppLoadContext } from '@remix-run/node'
import { getApi, returnToFrom } from './auth.server.ts'
import { onboardingPath } from './onboarding.ts'
import { pathWithReturnTo } from './redirect.ts'
import type { OnboardingStep } from '#contract/enums.ts'
import type { UpdateMe, User } from '#contract/users.ts'

/**
 * Saves a step's answers together with the step the member goes on to, so that a member who stops
 * there resumes there after signing in (issue 13 §6), and sends them on, keeping where they were
 * before signing up (`returnTo`, decision 020).
 */
export async function continueOnboarding(request: Request, context: AppLoadContext, next: OnboardingStep, answers: UpdateMe = {}) {
  await getApi(request, context).users.updateMe({ ...answers, onboarding_step: next })
  return redirect(pathWithReturnTo(onboardingPath[next], returnToFrom(request)))
}

/** Where a signed-in member continues onboarding, or null when there is nothing left to do. */
export function resumeOnboardingPath(user: User): string | null {
  if (!user.onboarded) return onboardingPath.basicInfo
  if (!user.onboarding_step || user.onboarding_step === 'done') return null
  return onboardingPath[user.onboarding_step]
}

/** The step's "Skip for now" was pressed (a plain form post of its own, see SkipStep). */
export async function isSkip(request: Request) {
  if (!request.headers.get('content-type')?.startsWith('application/x-www-form-urlencoded')) return false
  return (await request.clone().formData()).get('intent') === 'skip'
}
