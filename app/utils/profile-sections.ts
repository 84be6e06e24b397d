import { genders } from '#contract/enums.ts'
import { maxProfilePrompts } from '#contract/profile.ts'

/**
 * The sections of `/account/edit` (issue 13 §1) and the choices its page draws, without the
 * schemas (profile-schemas.ts, used by the server only), so the page's browser bundle does not
 * carry zod.
 */

export const profileSections = ['name', 'about', 'interests', 'prompts', 'city', 'phone', 'privacy', 'language'] as const
export type ProfileSection = (typeof profileSections)[number]

/** Where each section lives on the page (the anchor a saved section goes back to). */
export const sectionAnchor = (section: ProfileSection | 'photo') => `${section}-section`

/** How many prompt rows the form offers (all of them, so that it works without JavaScript). */
export const promptRows = maxProfilePrompts

export function isProfileSection(value: unknown): value is ProfileSection {
  return typeof value === 'string' && (profileSections as readonly string[]).includes(value)
}

/** The gender choices: spec §3's, and "Prefer not to say", saved as no gender. */
export const preferNotToSay = 'prefer_not_to_say'
export const genderChoices = [...genders, preferNotToSay] as const
