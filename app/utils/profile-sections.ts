import { genders } from '#contract/enums.ts'
import { maxProfilePrompts } from '#contract/profile.ts'

/**
 * The sections of the profile editor (issue 13 §1, issue 29 §4) and the choices its pages draw,
 * without the schemas (profile-schemas.ts, used by the server only), so the pages' browser bundle
 * does not carry zod. `/account/edit` lists them, each with a "Change" link to its own page,
 * `/account/edit/{section}`.
 */

export const profileSections = ['name', 'about', 'interests', 'prompts', 'city', 'phone', 'privacy', 'language'] as const
export type ProfileSection = (typeof profileSections)[number]

/** Where each section is on `/account/edit` (the row a saved section goes back to). */
export const sectionAnchor = (section: ProfileSection | 'photo') => `${section}-section`

/** A section's own page. */
export const sectionPath = (section: ProfileSection) => `/account/edit/${section}`

/** How many prompt rows the form offers (all of them, so that it works without JavaScript). */
export const promptRows = maxProfilePrompts

export function isProfileSection(value: unknown): value is ProfileSection {
  return typeof value === 'string' && (profileSections as readonly string[]).includes(value)
}

/** The gender choices: spec §3's, and "Prefer not to say", saved as no gender. */
export const preferNotToSay = 'prefer_not_to_say'
export const genderChoices = [...genders, preferNotToSay] as const
