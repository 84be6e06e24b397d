/**
 * The enumerations of spec §3 (and the few the product adds), declared here and nowhere else:
 * the API's schemas, the database types and the web's forms and option lists all read them.
 * Plain arrays, no zod: option lists ship in browser bundles.
 */

/** Spec §9: languages; the first is the default and the fallback. */
export const languages = ['en', 'fr', 'nl'] as const
export type Language = (typeof languages)[number]

/** Spec §3: user state. */
export const userStates = ['active', 'created', 'deleted', 'suspended'] as const
export type UserState = (typeof userStates)[number]

/**
 * The onboarding steps after basic info (spec §2, issue 13 §6) where a member who stopped resumes
 * after signing in; `done` once they have been through them all.
 */
export const onboardingSteps = ['location', 'notifications', 'profile-photo', 'subscription', 'verification', 'medicare', 'done'] as const
export type OnboardingStep = (typeof onboardingSteps)[number]

/** Spec §3 profile: gender. */
export const genders = ['woman', 'man', 'other'] as const
export type Gender = (typeof genders)[number]

/** Spec §3 profile: reasons for joining (goals). */
export const joinReasons = ['close_friends', 'new_people', 'relationship', 'things_to_do'] as const
export type JoinReason = (typeof joinReasons)[number]

/** Spec §3 profile: employment. */
export const employments = ['part_time', 'full_time', 'retired', 'other'] as const
export type Employment = (typeof employments)[number]

/** Spec §3 profile: relationship. */
export const relationshipStatuses = ['single', 'widowed', 'divorced', 'in_relationship', 'married', 'other'] as const
export type RelationshipStatus = (typeof relationshipStatuses)[number]

/** Spec §3 profile: family. */
export const familyMembers = ['pets', 'children', 'grandchildren'] as const
export type FamilyMember = (typeof familyMembers)[number]

/** Spec §3 experience: venue type (an online activity has a URL, an in-person one a place). */
export const venueTypes = ['in_person', 'online'] as const
export type VenueType = (typeof venueTypes)[number]

/** Spec §3 report: the reasons a member can give, in the order shown. */
export const reportReasons = [
  'fake_or_scam',
  'harmful_or_illegal',
  'happened_in_person',
  'inappropriate_or_offensive',
  'low_quality_or_spam',
  'something_else',
] as const
export type ReportReason = (typeof reportReasons)[number]

/** Spec §3 verification: status. */
export const verificationStatuses = ['not_verified', 'processing', 'verified'] as const
export type VerificationStatus = (typeof verificationStatuses)[number]

/** Spec §3 Medicare registration: coverage types. */
export const coverageTypes = ['dental', 'hearing', 'drug_coverage', 'vision'] as const
export type CoverageType = (typeof coverageTypes)[number]

/** Spec §3 payment method: the card brands with a logo. */
export const cardBrands = ['amex', 'discover', 'mastercard', 'visa'] as const
export type CardBrand = (typeof cardBrands)[number]

/** Spec §3 popup types, and `BANNER`: a banner the member put away (decision 084). */
export const popupTypes = ['EXPERIENCE_ATTENDANCE', 'BANNER'] as const
export type PopupType = (typeof popupTypes)[number]

/** Spec §3 survey types. */
export const surveyTypes = ['EXPERIENCE_ATTENDANCE_SURVEY', 'POST_EXPERIENCE_SURVEY'] as const
export type SurveyType = (typeof surveyTypes)[number]

/** Spec §3 media: what an uploaded photo is for. */
export const mediaTargets = ['avatar', 'experience_cover', 'verification', 'message'] as const
export type MediaTarget = (typeof mediaTargets)[number]
