import { z } from 'zod'
import { onboardingSteps, venueTypes } from './enums.ts'

/**
 * First-party analytics (issue 32 §5, decision 081): the dictionary of the events Circle 55
 * records, each with the only properties it may carry. Anything else given is dropped before it is
 * stored or forwarded, so no message text, health, Medicare or payment detail, name, email or
 * free text can reach `analytics_events` or a vendor: every property is an id, a flag, a number or
 * one of a closed list.
 *
 * `page` (a page view; its path is a column, not a property) and `identify` (a visitor signing in
 * or up, linking the day's visitor hash to the member) are recorded by the analytics service
 * itself; the others by `track(name, props)`. `forward: false` keeps an event first-party even
 * when a vendor is configured.
 */

const id = z.uuid()
const none = z.object({})

export const analyticsEvents = {
  page: { props: none, forward: true },
  identify: { props: z.object({ method: z.enum(['sign_in', 'sign_up']) }), forward: true },
  /** A member finished creating their account (basic info saved). */
  signup_completed: { props: none, forward: true },
  /** A member moved past an onboarding step (decision 023). */
  onboarding_step: { props: z.object({ step: z.enum(onboardingSteps) }), forward: true },
  /** A member said they are going (or joined the waiting list). */
  rsvp_created: { props: z.object({ experience_id: id, waitlisted: z.boolean() }), forward: true },
  /** A member cancelled their RSVP; `late`: within the activity's late-cancel window. */
  rsvp_cancelled: { props: z.object({ experience_id: id, late: z.boolean() }), forward: true },
  /** A member created an activity they host. */
  host_activity_created: { props: z.object({ experience_id: id, venue_type: z.enum(venueTypes) }), forward: true },
  /** A host marked a member as having come. */
  attended: { props: z.object({ experience_id: id }), forward: true },
  /** A host marked a member as not having come (counted, never shown as blame). */
  no_show: { props: z.object({ experience_id: id }), forward: true },
  /** A member closed a banner. */
  banner_dismissed: { props: z.object({ banner_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) }), forward: true },
  /** A member opened the help chat. */
  help_opened: { props: none, forward: true },
} as const satisfies Record<string, { props: z.ZodObject; forward: boolean }>

export type AnalyticsEventName = keyof typeof analyticsEvents
/** The events `track` records (`page` and `identify` have their own calls). */
export type TrackedEventName = Exclude<AnalyticsEventName, 'page' | 'identify'>
export type AnalyticsProps<N extends AnalyticsEventName> = z.input<(typeof analyticsEvents)[N]['props']>

export const analyticsEventNames = Object.keys(analyticsEvents) as AnalyticsEventName[]

/**
 * Only the allow-listed properties of an event, or null when they do not fit (a wrong type, a
 * value off its list): the event is then recorded without properties rather than with bad ones.
 */
export function allowedProps(name: AnalyticsEventName, props: unknown): Record<string, unknown> | null {
  const parsed = analyticsEvents[name].props.safeParse(props ?? {})
  return parsed.success ? parsed.data : null
}

/** What a visitor chose on the consent question (EU languages) or their privacy choices page. */
export const analyticsConsents = ['granted', 'refused'] as const
export type AnalyticsConsent = (typeof analyticsConsents)[number]

/** A rough kind of device, from the browser's user agent (which is not kept). */
export const deviceClasses = ['mobile', 'tablet', 'desktop'] as const
export type DeviceClass = (typeof deviceClasses)[number]

export { keptQueryParameters } from './campaign-parameters.ts'

/** The cookie remembering a visitor's consent choice (first-party, 13 months). */
export const consentCookieName = 'c55_consent'

/** `POST v1/analytics/consent` and the web's privacy choices form. */
export const analyticsConsentBodySchema = z
  .object({ choice: z.enum(analyticsConsents, { error: 'choice_invalid' }) })
  .meta({ id: 'AnalyticsConsentChange' })
export type AnalyticsConsentBody = z.infer<typeof analyticsConsentBodySchema>

/** What the browser says of tracking: Global Privacy Control (`Sec-GPC: 1`) and Do Not Track (`DNT: 1`). */
export interface PrivacySignals {
  gpc: boolean
  dnt: boolean
}

export function privacySignals(headers: Headers): PrivacySignals {
  return { gpc: headers.get('sec-gpc')?.trim() === '1', dnt: headers.get('dnt')?.trim() === '1' }
}

/** The languages of the EU visitors (French, Dutch) asked before anything non-essential is recorded. */
export const consentLanguages: readonly string[] = ['fr', 'nl']

/**
 * How much may be recorded of a visitor (decision 081):
 * - `full`: the day's visitor hash, the member's id on page views, and forwarding to a vendor;
 * - `anonymous`: a page view counted with neither (path, language, device kind only), never
 *   forwarded; a member's own product events (an RSVP, attendance) keep their id, first-party.
 * GPC or Do Not Track, a refusal, or an EU language without an answer yet: `anonymous`.
 */
export function analyticsMode(input: { signals: PrivacySignals; choice: AnalyticsConsent | null; language: string | null }): 'full' | 'anonymous' {
  if (input.signals.gpc || input.signals.dnt) return 'anonymous'
  if (input.choice === 'refused') return 'anonymous'
  if (input.choice === 'granted') return 'full'
  return consentLanguages.includes(input.language ?? '') ? 'anonymous' : 'full'
}

/** Whether the consent question is shown: an EU language, no answer yet, and no GPC or DNT (already a no). */
export function asksConsent(input: { signals: PrivacySignals; choice: AnalyticsConsent | null; language: string | null }) {
  return !input.signals.gpc && !input.signals.dnt && input.choice === null && consentLanguages.includes(input.language ?? '')
}

/** `GET/PUT v1/users/me/analytics-consent`: the member's answer (null: not answered yet). */
export const analyticsConsentSchema = z
  .object({ choice: z.enum(analyticsConsents).nullable() })
  .meta({ id: 'AnalyticsConsent' })
export type AnalyticsConsentAnswer = z.infer<typeof analyticsConsentSchema>
