import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely'
import { bannerAudiences, type BannerAudience } from '#contract/banners.ts'
import {
  cardBrands as logoCardBrands,
  coverageTypes,
  employments,
  familyMembers,
  genders,
  joinReasons,
  languages,
  mediaTargets,
  popupTypes,
  relationshipStatuses,
  reportReasons,
  surveyTypes,
  userStates,
  venueTypes,
  verificationStatuses,
  type CoverageType,
  type Employment,
  type FamilyMember,
  type Gender,
  type JoinReason,
  type Language,
  type MediaTarget,
  type OnboardingStep,
  type PopupType,
  type RelationshipStatus,
  type ReportReason,
  type SurveyType,
  type UserState,
  type VenueType,
  type VerificationStatus,
} from '#contract/enums.ts'
import type { Interest, NearbyVisibility } from '#contract/profile.ts'
import { verificationProviders, type VerificationProviderName } from '#contract/verification.ts'
import type { ReportOutcome, ReportSnapshot } from '#contract/moderation.ts'
import type { StaffRole } from '#contract/staff.ts'
import type { AnalyticsConsent, DeviceClass } from '#contract/analytics.ts'
import type { MedicareConsentMethod, MedicareRevocationMethod } from '#contract/medicare-rules.ts'

/**
 * Kysely types for every table in `migrations/`, in the migrations' order. `columns.ts` states
 * each column's PostgreSQL type, nullability and default in a map that the compiler checks
 * against these interfaces, and `schema.test.ts` checks that map against a migrated database:
 * a migration and these types cannot disagree unnoticed (docs/decisions/017-database-types.md).
 *
 * Conventions: a column with a database default is `Generated<…>` (or a `ColumnType` whose insert
 * type admits `undefined`); `timestamptz` reads as `Date`, `date` as an ISO string and `int8` as a
 * number (type parsers in `database.ts`); jsonb is written as JSON text and read parsed.
 */
type Timestamp = ColumnType<Date, Date | string, Date | string>
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
type CreatedAt = ColumnType<Date, Date | string | undefined, never>
/** `text[] NOT NULL DEFAULT '{}'`. */
type TextArray<T extends string> = ColumnType<T[], T[] | undefined, T[]>
/** jsonb, written as JSON text (`JSON.stringify`). */
type Json<T> = ColumnType<T, string, string>
/** jsonb with a default (`DEFAULT '{}'`). */
type JsonWithDefault<T> = ColumnType<T, string | undefined, string>
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>
type JsonObject = Record<string, unknown>
/** Any JSON document but `null`, as node-postgres parses a `jsonb NOT NULL` column. */
export type JsonValue = string | number | boolean | JsonValue[] | { [key: string]: JsonValue | null }

/** Whom a banner shows to (a CHECK list, decision 084). */
export { bannerAudiences }

// PostgreSQL enum types (CREATE TYPE … AS ENUM), with their labels in the migration's order. The
// enumerations of spec §3 are the contract's (contract/enums.ts), declared once; schema.test.ts
// checks that the database's labels are the same.
export {
  coverageTypes,
  employments,
  familyMembers,
  genders,
  joinReasons,
  mediaTargets,
  popupTypes,
  relationshipStatuses,
  reportReasons,
  surveyTypes,
  userStates,
  venueTypes,
  verificationStatuses,
}
export type {
  CoverageType,
  Employment,
  FamilyMember,
  Gender,
  JoinReason,
  MediaTarget,
  PopupType,
  RelationshipStatus,
  ReportReason,
  SurveyType,
  UserState,
  VenueType,
  VerificationStatus,
}
export const channelKinds = ['experience', 'direct', 'support'] as const
export type ChannelKind = (typeof channelKinds)[number]
export const subscriptionStatuses = ['incomplete', 'active', 'past_due', 'canceled'] as const
export type SubscriptionStatus = (typeof subscriptionStatuses)[number]
export const deviceKinds = ['web_push', 'ios', 'android'] as const
export type DeviceKind = (typeof deviceKinds)[number]
/** `verifications.provider` (decision 025): the contract's `verificationProviders`. */
export { verificationProviders, type VerificationProviderName }

/** Every enum type of the database by its PostgreSQL name (checked against `pg_enum`). */
export const pgEnums = {
  user_state: userStates,
  gender: genders,
  employment: employments,
  relationship_status: relationshipStatuses,
  venue_type: venueTypes,
  media_target: mediaTargets,
  channel_kind: channelKinds,
  report_reason: reportReasons,
  verification_status: verificationStatuses,
  survey_type: surveyTypes,
  popup_type: popupTypes,
  subscription_status: subscriptionStatuses,
  device_kind: deviceKinds,
  verification_provider: verificationProviders,
} as const

// text columns limited by a CHECK (… IN …) or (… <@ ARRAY[…]) constraint.
/** `users.locale`: the languages of spec §9. */
export const locales = languages
export type Locale = Language
export const codePurposes = ['sign_in', 'sign_up', 'reset_password', 'change_email', 'confirm_phone'] as const
export type CodePurpose = (typeof codePurposes)[number]
/** `payment_methods.brand`: the brands of spec §3, or one without a logo. */
export const cardBrands = [...logoCardBrands, 'unknown'] as const
export type CardBrand = (typeof cardBrands)[number]
export const placeKinds = ['city', 'zip'] as const
export type PlaceKind = (typeof placeKinds)[number]

export interface MediaTable {
  id: Generated<string>
  owner_id: string | null
  target: MediaTarget
  storage_key: string
  thumbnail_key: string | null
  mime_type: string
  width: number
  height: number
  bytes: number
  /** The staff member who uploaded it while acting as its owner (migration 0036, decision 078). */
  impersonator_id: Generated<string | null>
  created_at: CreatedAt
}

export interface UsersTable {
  id: Generated<string>
  auth_subject: string | null
  stream_id: Generated<string>
  slug: string
  email: string | null
  phone: string | null
  first_name: string | null
  last_name: string | null
  name: string | null
  formatted_name: string | null
  dob: ColumnType<string | null, string | null | undefined, string | null>
  gender: Gender | null
  join_reasons: TextArray<JoinReason>
  avatar_media_id: string | null
  /** The member's role on the Circle 55 team; null for members (migration 0035, decision 077). */
  staff_role: StaffRole | null
  banned: Generated<boolean>
  is_suspended: Generated<boolean>
  state: Generated<UserState>
  lat: number | null
  long: number | null
  city: string | null
  region: string | null
  locale: Locale | null
  onboarded_at: NullableTimestamp
  created_at: CreatedAt
  updated_at: UpdatedAt
  deleted_at: NullableTimestamp
  /** When the member last signed in (migration 0007); null before their first sign-in since. */
  last_sign_in_at: NullableTimestamp
  /** The onboarding step the member reached (issue 13 §6), to resume there after signing in. */
  onboarding_step: OnboardingStep | null
  /** Chat user search also lists the members one blocked (spec §6, migration 0012). */
  show_blocked_in_chat_search: Generated<boolean>
  /** When the member saw the one-time reminder before sharing contact details in a first message (migration 0014). */
  contact_reminder_seen_at: NullableTimestamp
  /** When a suspension ends (migration 0013, decision 037); null: until an admin lifts it. */
  suspended_until: NullableTimestamp
  /** When the member confirmed their phone with a texted code (migration 0022); cleared when the phone changes. */
  phone_confirmed_at: NullableTimestamp
  /** The member's answer to the analytics consent choice (migration 0039, decision 081); null until they answer. */
  analytics_consent: AnalyticsConsent | null
}

export interface CredentialsTable {
  user_id: string
  password_hash: string
  updated_at: UpdatedAt
}

export interface LoginCodesTable {
  id: Generated<string>
  email: string
  purpose: CodePurpose
  code_hash: string
  payload: NullableJson<JsonObject>
  attempts: Generated<number>
  expires_at: Timestamp
  consumed_at: NullableTimestamp
  created_at: CreatedAt
}

export interface OidcPayloadsTable {
  id: string
  type: string
  payload: Json<JsonObject>
  grant_id: string | null
  user_code: string | null
  uid: string | null
  expires_at: NullableTimestamp
  consumed_at: NullableTimestamp
}

export interface WebSessionsTable {
  id: string
  user_id: string | null
  data: JsonWithDefault<JsonObject>
  expires_at: Timestamp
  created_at: CreatedAt
  updated_at: UpdatedAt
}

export interface RateLimitsTable {
  key: string
  window_start: Timestamp
  count: number
}

export interface AppSecretsTable {
  name: string
  value: Json<JsonValue>
  created_at: CreatedAt
}

export interface EmailOutboxTable {
  id: Generated<string>
  to_address: string
  subject: string
  text_body: string
  html_body: string | null
  kind: string
  locale: string
  created_at: CreatedAt
  sent_at: NullableTimestamp
  /** Extra headers, e.g. RFC 8058's List-Unsubscribe and List-Unsubscribe-Post (migration 0020). */
  headers: NullableJson<Record<string, string>>
  /** Files sent with the email, e.g. a calendar file; content in base64 (migration 0020). */
  attachments: NullableJson<EmailAttachment[]>
  /** Delivery attempts that failed so far, and the last one's error (migration 0028). */
  attempts: Generated<number>
  last_error: string | null
  /** Set when delivery was given up, after at least a day of retries (migration 0028). */
  failed_at: NullableTimestamp
}

/** A text message sent or waiting (migration 0022, decision 049). */
export interface SmsOutboxTable {
  id: Generated<string>
  user_id: string | null
  to_number: string
  body: string
  kind: string
  locale: string
  /** The activity the text is about: a reply "C" cancels the seat there. */
  experience_id: string | null
  created_at: CreatedAt
  sent_at: NullableTimestamp
  /** Twilio's message sid once it accepted the text. */
  provider_ref: string | null
}

/** A number that texted STOP and not START since (migration 0025, decision 057): no text goes to it. */
export interface SmsOptOutsTable {
  /** E.164. */
  phone: string
  created_at: CreatedAt
}

/** An inbound text acted on, by Twilio's `MessageSid` (migration 0029, decision 066): each is acted on once. */
export interface SmsInboundMessagesTable {
  message_sid: string
  received_at: CreatedAt
}

/** A file attached to an email; `content` is base64. */
export interface EmailAttachment {
  filename: string
  content_type: string
  content: string
}

export interface ProfilesTable {
  user_id: string
  bio: string | null
  employment: Employment | null
  relationship: RelationshipStatus | null
  family: TextArray<FamilyMember>
  show_age: Generated<boolean>
  nearby_visibility: ColumnType<NearbyVisibility, NearbyVisibility | undefined, NearbyVisibility>
  updated_at: UpdatedAt
}

export interface UserInterestsTable {
  user_id: string
  interest: Interest
  position: Generated<number>
}

export interface ProfilePromptsTable {
  id: Generated<string>
  user_id: string
  prompt: string
  answer: string
  position: Generated<number>
}

export interface ExperiencesTable {
  id: Generated<string>
  slug: string
  host_id: string | null
  title: string
  description: Generated<string>
  cover_media_id: string | null
  max_attendees: number | null
  attendees_count: Generated<number>
  start_at: NullableTimestamp
  end_at: NullableTimestamp
  timezone: Generated<string>
  venue_type: VenueType
  latitude: number | null
  longitude: number | null
  formatted_address: string | null
  place_id: string | null
  city: string | null
  region: string | null
  url: string | null
  ticket_url: string | null
  no_show_fee_cents: number | null
  is_hostless: Generated<boolean>
  is_premium: Generated<boolean>
  canceled_at: NullableTimestamp
  /** Who cancelled it (its host, or an admin); null before migration 0005 (the host) or when not cancelled. */
  canceled_by: string | null
  created_at: CreatedAt
  updated_at: UpdatedAt
  /** When the host last changed the time or the place (migration 0032): seats saved before it are never charged a fee. */
  schedule_changed_at: NullableTimestamp
  /** When the host confirmed who came (migration 0032). */
  attendance_confirmed_at: NullableTimestamp
  /** When its no-show fees were worked out, a day after the host confirmed (migration 0032). */
  fees_assessed_at: NullableTimestamp
}

export interface ExperienceAttendeesTable {
  experience_id: string
  user_id: string
  created_at: CreatedAt
  /** The member's agreement to the no-show fee that binds this seat; null: not bound (migration 0032). */
  fee_consent_id: string | null
}

export interface AttendanceCancellationsTable {
  id: Generated<string>
  experience_id: string
  user_id: string
  is_late: boolean
  no_show_fee_cents: number | null
  fee_charged_at: NullableTimestamp
  created_at: CreatedAt
  /** The agreement that bound the seat given back (migration 0032). */
  fee_consent_id: string | null
}

/** A member's agreement to an activity's no-show fee, as shown to them (migration 0032, decision 075): append-only evidence. */
export interface FeeConsentsTable {
  id: Generated<string>
  user_id: string
  experience_id: string
  amount_cents: number
  policy_version: string
  text_shown: string
  language: string
  /** The card agreed with; null once the account (and its cards) is deleted: `text_shown` still names it. */
  payment_method_id: string | null
  created_at: CreatedAt
}

/** A Stripe webhook event applied, by its id (migration 0032, decision 073). */
export interface PaymentEventsTable {
  id: string
  type: string
  applied_at: CreatedAt
}

/** The host's "present" / "did not come" for a member after the activity (migration 0032). */
export interface AttendanceMarksTable {
  experience_id: string
  user_id: string
  present: boolean
  marked_by: string | null
  /** Set again when the host changes the mark. */
  marked_at: Generated<Date>
}

export const noShowFeeReasons = ['late_cancel', 'no_show'] as const
export const noShowFeeStatuses = ['noticed', 'disputed', 'charged', 'needs_confirmation', 'declined', 'waived', 'refunded'] as const
export type NoShowFeeStatus = (typeof noShowFeeStatuses)[number]
export const noShowFeeWaivers = ['first_in_12_months', 'seat_taken', 'schedule_changed', 'marked_present', 'admin', 'unpaid_14_days'] as const
export type NoShowFeeWaiver = (typeof noShowFeeWaivers)[number]

/** A no-show fee and each of its steps (migration 0032, decision 075). */
export interface NoShowFeesTable {
  id: Generated<string>
  user_id: string
  experience_id: string
  consent_id: string
  reason: (typeof noShowFeeReasons)[number]
  amount_cents: number
  status: NoShowFeeStatus
  charge_on: Date
  noticed_at: CreatedAt
  charged_at: NullableTimestamp
  provider_ref: string | null
  decline_code: string | null
  dispute_text: string | null
  disputed_at: NullableTimestamp
  waiver: NoShowFeeWaiver | null
  waiver_note: string | null
  waived_by: string | null
  waived_at: NullableTimestamp
  /** The card it was paid with (migration 0033). */
  charged_brand: CardBrand | null
  charged_last4: string | null
  /** A charged fee given back by the team: the provider's refund, why, who and when (migration 0033). */
  refund_ref: string | null
  refund_note: string | null
  refunded_by: string | null
  refunded_at: NullableTimestamp
  created_at: CreatedAt
}

export interface WaitlistEntriesTable {
  experience_id: string
  user_id: string
  created_at: CreatedAt
}

/** The reminder slots before an activity's start (issue 15 §2, decision 050). */
export const reminderSlots = ['24h', '2h'] as const
export type ReminderSlot = (typeof reminderSlots)[number]

/** One reminder sent: one member, one activity, one slot, one start (migration 0023). */
export interface ExperienceRemindersTable {
  experience_id: string
  user_id: string
  slot: ReminderSlot
  start_at: Date
  created_at: CreatedAt
}

/** The start an activity's reminder jobs were queued for (migration 0023). */
export interface ExperienceReminderSchedulesTable {
  experience_id: string
  start_at: Date
}

/** `experience_invitations.state`: an invitation waits for its member's answer, or has it. */
export const invitationStates = ['pending', 'accepted', 'declined'] as const
export type InvitationState = (typeof invitationStates)[number]

/** An invitation to an activity, one per member (migration 0006, decision 019). */
export interface ExperienceInvitationsTable {
  experience_id: string
  user_id: string
  /** The host or admin who sent it; null if their row is gone. */
  invited_by: string | null
  state: ColumnType<InvitationState, InvitationState | undefined, InvitationState>
  created_at: CreatedAt
  /** When the member accepted or declined; null while pending. */
  answered_at: NullableTimestamp
  /** Sent by an attendee or the host through "Invite a friend" (migration 0042, decision 087): named as them. */
  by_friend: Generated<boolean>
}

export interface MessageChannelsTable {
  id: Generated<string>
  kind: ChannelKind
  /** Set exactly when `kind` is `experience`. */
  experience_id: string | null
  created_by: string | null
  direct_key: string | null
  last_message_at: NullableTimestamp
  created_at: CreatedAt
  /** A support conversation: when an admin last answered it or marked it done (migration 0016, decision 039). */
  support_handled_at: NullableTimestamp
}

export interface ChannelMembershipsTable {
  channel_id: string
  user_id: string
  is_accepted: Generated<boolean>
  last_read_at: NullableTimestamp
  left_at: NullableTimestamp
  created_at: CreatedAt
}

export interface MessagesTable {
  id: Generated<string>
  channel_id: string
  user_id: string | null
  body: string
  media_id: string | null
  is_system: Generated<boolean>
  created_at: CreatedAt
  deleted_at: NullableTimestamp
  /**
   * Grows in commit order: the realtime stream's event id (migrations 0010, 0017; decision 032).
   * Given as the message's transaction commits: null only inside that transaction.
   */
  seq: ColumnType<number | null, never, never>
  /** A product message's translation key under `chat:product.` (migration 0011); null for a member's message. */
  product_key: string | null
  product_params: JsonWithDefault<Record<string, string>>
  /** The admin who wrote a support answer (migration 0016); never shown to the member, who reads "Circle 55 support". */
  answered_by: string | null
}

export interface BlocksTable {
  blocker_id: string
  blocked_id: string
  created_at: CreatedAt
}

export interface ReportsTable {
  id: Generated<string>
  reporter_id: string | null
  reported_user_id: string | null
  experience_id: string | null
  message_id: string | null
  reason: ReportReason
  details: Generated<string>
  resolved_at: NullableTimestamp
  resolved_by: string | null
  created_at: CreatedAt
  /** A reported channel (migration 0013). */
  channel_id: string | null
  /** The reported content as it was when reported (decision 037); `{}` for reports made before. */
  snapshot: JsonWithDefault<ReportSnapshot | Record<string, never>>
  /** What the admin did (migration 0013); null while open. */
  outcome: ReportOutcome | null
}

export interface NotificationsTable {
  id: Generated<string>
  user_id: string
  type: string
  data: JsonWithDefault<JsonObject>
  seen_at: NullableTimestamp
  /** When the delivery job ran (migration 0003). */
  delivered_at: NullableTimestamp
  /** Whether it shows in the member's list: their in-app switches when it was recorded (migration 0020). */
  in_app: Generated<boolean>
  /** The activity `data` names, as a uuid; computed by PostgreSQL when the row is written (migration 0024). */
  experience_id: ColumnType<string | null, never, never>
  created_at: CreatedAt
}

export interface NotificationGlobalSettingsTable {
  user_id: string
  channel: string
  enabled: boolean
}

export interface NotificationWorkflowSettingsTable {
  user_id: string
  template_id: string
  channel: string
  enabled: boolean
}

export interface DevicesTable {
  id: Generated<string>
  user_id: string
  kind: DeviceKind
  token: string
  keys: NullableJson<JsonObject>
  created_at: CreatedAt
  last_seen_at: UpdatedAt
  /** Consecutive failed pushes (migration 0028): the device is dropped after a few. */
  failures: Generated<number>
  /** No push is tried before this: the device's backoff, or the one push in flight (migration 0028). */
  retry_after: NullableTimestamp
}

export interface PaymentMethodsTable {
  id: Generated<string>
  user_id: string
  provider: string
  provider_ref: string
  brand: CardBrand
  /** char(4). */
  last4: string
  exp_month: number
  exp_year: number
  is_default: Generated<boolean>
  created_at: CreatedAt
  /** Removed by the member (migration 0030): kept so that what named the card still can. */
  removed_at: NullableTimestamp
}

/** The states of an "Add a card" the member started (migration 0030, decision 073). */
export const cardSetupStatuses = ['open', 'complete', 'expired'] as const
export type CardSetupStatus = (typeof cardSetupStatuses)[number]
/** The built-in hosted card page's session states (decision 073). */
export const builtinCheckoutStatuses = ['open', 'requires_authentication', 'complete', 'expired'] as const
export const builtinCheckoutModes = ['setup', 'payment'] as const
/** The built-in bank's charge outcomes (decision 073). */
export const builtinChargeStatuses = ['succeeded', 'requires_authentication', 'declined'] as const

/** The member's customer at a payments provider (migration 0030). */
export interface PaymentCustomersTable {
  user_id: string
  provider: string
  customer_ref: string
  created_at: CreatedAt
}

/** Each "Add a card" the member started through the provider's hosted page (migration 0030). */
export interface CardSetupsTable {
  id: Generated<string>
  user_id: string
  provider: string
  provider_ref: string | null
  redirect_url: string | null
  return_path: string
  status: Generated<CardSetupStatus>
  payment_method_id: string | null
  created_at: CreatedAt
  completed_at: NullableTimestamp
}

/** The built-in provider's vault: a token, brand, last four digits and expiry, never a number or CVC. */
export interface BuiltinVaultCardsTable {
  token: string
  customer: string
  brand: CardBrand
  /** char(4). */
  last4: string
  exp_month: number
  exp_year: number
  set_up_for_off_session: Generated<boolean>
  detached_at: NullableTimestamp
  created_at: CreatedAt
}

/** The built-in hosted card page's sessions (standing in for Stripe Checkout). */
export interface BuiltinCheckoutSessionsTable {
  id: string
  user_id: string
  customer: string
  mode: (typeof builtinCheckoutModes)[number]
  status: Generated<(typeof builtinCheckoutStatuses)[number]>
  success_url: string
  cancel_url: string
  card_token: string | null
  expires_at: Date
  created_at: CreatedAt
  /** `payment` mode (migration 0031): what is charged, in cents, and what for. */
  amount_cents: number | null
  description: string | null
  /** `year` for a payment that renews (premium membership); null for a one-off payment. */
  recurring_interval: string | null
  /** The built-in bank's charge, once paid. */
  charge_ref: string | null
}

/** The built-in bank's charges, one per idempotency key. */
export interface BuiltinChargesTable {
  idempotency_key: string
  ref: string
  card_token: string
  amount_cents: number
  status: (typeof builtinChargeStatuses)[number]
  decline_code: string | null
  created_at: CreatedAt
}

/** A hosted page a member was sent to to pay a fee themselves, and what became of it (migration 0033). */
export interface FeeCheckoutsTable {
  ref: string
  fee_id: string
  payment_ref: string | null
  refund_ref: string | null
  created_at: CreatedAt
}

/** A feature flag, the built-in provider's store (since 0001; its rules since migration 0037, decision 079). */
export interface FeatureFlagsTable {
  key: string
  description: Generated<string>
  enabled: Generated<boolean>
  rollout_percent: Generated<number>
  variants: JsonWithDefault<Array<{ name: string; weight: number }>>
  roles: TextArray<string>
  regions: TextArray<string>
  languages: TextArray<string>
  updated_by: string | null
  created_at: CreatedAt
  updated_at: UpdatedAt
}

export const impersonationEndReasons = ['stopped', 'expired', 'revoked'] as const

/** A staff member viewing Circle 55 as a member (migration 0036, decision 078). */
export interface ImpersonationsTable {
  id: Generated<string>
  actor_id: string
  subject_id: string
  reason: string
  acting_reason: string | null
  acting_since: NullableTimestamp
  started_at: CreatedAt
  expires_at: Date
  ended_at: NullableTimestamp
  end_reason: (typeof impersonationEndReasons)[number] | null
  member_told_at: NullableTimestamp
}

/**
 * A page view or tracked event (migration 0039, decision 081): no IP address, no user agent, no
 * free text; `visitor_hash` is salted afresh each day and null without consent.
 */
export interface AnalyticsEventsTable {
  id: ColumnType<number, never, never>
  occurred_at: CreatedAt
  name: string
  user_id: string | null
  visitor_hash: string | null
  path: string | null
  props: JsonWithDefault<JsonObject>
  locale: string | null
  impersonated: Generated<boolean>
  is_bot: Generated<boolean>
  referrer_domain: string | null
  device_class: DeviceClass | null
}

/** One day's events by name, path and locale, kept after the raw events go (migration 0039, decision 081). */
export interface AnalyticsDailyTable {
  day: string
  name: string
  path: Generated<string>
  locale: Generated<string>
  events: Generated<number>
  visitors: Generated<number>
  members: Generated<number>
}

/** The random salt of one day's visitor hashes, deleted after its day (migration 0039, decision 081). */
export interface AnalyticsSaltsTable {
  day: string
  salt: string
}

/** A refund by the built-in bank (migration 0033), once per idempotency key. */
export interface BuiltinRefundsTable {
  idempotency_key: string
  ref: string
  charge_ref: string
  amount_cents: number
  created_at: CreatedAt
}

export interface PartnershipsTable {
  id: Generated<string>
  name: string
  regions: TextArray<string>
  price_cents: number
  regular_price_cents: number
  active: Generated<boolean>
  created_at: CreatedAt
}

export interface SubscriptionsTable {
  id: Generated<string>
  user_id: string
  plan: string
  status: SubscriptionStatus
  partnership_id: string | null
  provider_ref: string | null
  current_period_end: NullableTimestamp
  created_at: CreatedAt
  canceled_at: NullableTimestamp
  /** The yearly price in cents (migration 0031): 0 for a partner's $0 plan. */
  price_cents: Generated<number>
  /** The payments provider of a paid plan (`builtin` or `stripe`); null for a partner's $0 plan. */
  provider: string | null
  /** The provider's hosted checkout that starts a paid plan. */
  checkout_ref: string | null
  /** The card a paid plan renews on. */
  payment_method_id: string | null
  /** Cancelled online: the plan runs to `current_period_end`, then ends (nothing more is charged). */
  cancel_at_period_end: Generated<boolean>
  current_period_start: NullableTimestamp
  /** The period end whose renewal reminder was sent (once per period, California ARL). */
  reminded_period_end: NullableTimestamp
  updated_at: UpdatedAt
  /** When the provider's subscription was last read into the row (migration 0034; Stripe, decision 076). */
  synced_at: NullableTimestamp
}

/** The member's express consent to automatic renewal (migration 0031): append-only, the card filled in once. */
export interface SubscriptionConsentsTable {
  id: Generated<string>
  user_id: string
  subscription_id: string
  text_version: string
  /** The exact text shown above the button, in the member's language. */
  text: string
  locale: string
  price_cents: number
  renewal_interval: string
  payment_method_id: string | null
  created_at: CreatedAt
}

export interface VerificationsTable {
  id: Generated<string>
  user_id: string
  status: Generated<VerificationStatus>
  media_id: string | null
  reviewed_by: string | null
  reviewed_at: NullableTimestamp
  created_at: CreatedAt
  /** Who checks it (migration 0009, decision 025). */
  provider: Generated<VerificationProviderName>
  /** The vendor's id for it (a Stripe VerificationSession id). */
  provider_ref: string | null
  /** Storage keys of the encrypted photos of a built-in request; null once decided. */
  document_key: string | null
  selfie_key: string | null
  /** Why it was rejected (the member reads it); null when approved, pending or cancelled. */
  rejection_reason: string | null
  decided_at: NullableTimestamp
}

export interface PopupsTable {
  id: Generated<string>
  user_id: string
  type: PopupType
  experience_id: string | null
  dismissed_at: NullableTimestamp
  created_at: CreatedAt
  /** A `BANNER` popup's banner, its content hash when put away, and when the dismissal ends (null: never). */
  banner_id: string | null
  content_hash: string | null
  expires_at: NullableTimestamp
}

export interface SurveysTable {
  id: Generated<string>
  user_id: string
  type: SurveyType
  experience_id: string
  attended: boolean | null
  rating: number | null
  feedback: string | null
  created_at: CreatedAt
}

export interface BannersTable {
  id: Generated<string>
  title: Json<JsonObject>
  body: Json<JsonObject>
  link_url: string | null
  latitude: number | null
  longitude: number | null
  radius_miles: number | null
  starts_at: Generated<Date | null>
  ends_at: NullableTimestamp
  created_at: CreatedAt
  /** Two-letter codes; empty with no circle: everywhere (decision 084). */
  us_states: TextArray<string>
  audience: Generated<BannerAudience>
  /** How many days a dismissal holds; null: until the banner changes. */
  dismiss_days: number | null
  /** Changes when the banner's words or link do: a dismissed banner that changed comes back. */
  content_hash: Generated<string>
  created_by: string | null
  updated_at: UpdatedAt
}

/** The licensed agency the team names (migration 0041, decision 086); at most one is current (`retired_at` null). */
export interface MedicarePartnersTable {
  id: Generated<string>
  name: string
  license: string
  /** The number it calls from, E.164. */
  phone: string
  disclaimer: string
  organization_count: number
  plan_count: number
  callback_days: Generated<number>
  active: Generated<boolean>
  /** Raised by each change: the words members agree to name it. */
  revision: Generated<number>
  retired_at: NullableTimestamp
  created_by: string | null
  updated_by: string | null
  created_at: CreatedAt
  updated_at: UpdatedAt
  /** Where its stop notices go (migration 0043); null only for an agency named before it. */
  notices_email: string | null
}

/**
 * A member's permission to be called by the agency (decision 086): append-only, PostgreSQL refuses
 * UPDATE and DELETE but the account deletion's one blanking of `phone`, `topics` and `user_agent`.
 */
export interface MedicareConsentsTable {
  id: Generated<string>
  user_id: string
  partner_id: string
  partner_revision: number
  /** E.164; null once the account is deleted. */
  phone: string | null
  phone_last4: string
  topics: ColumnType<CoverageType[], CoverageType[], CoverageType[]>
  text_version: string
  /** The exact words shown, in `locale`. */
  text_shown: string
  locale: Language
  method: MedicareConsentMethod
  page: string | null
  user_agent: string | null
  created_at: CreatedAt
  erased_at: NullableTimestamp
}

/** A consent's end, one per consent, append-only like the consents. */
export interface MedicareConsentRevocationsTable {
  consent_id: string
  method: MedicareRevocationMethod
  revoked_at: CreatedAt
}

/**
 * A consent's end as sent to its agency (migration 0043, decision 086): written with the email's
 * outbox row (`email_id`, whose `sent_at` says when it was delivered), append-only.
 */
export interface MedicareStopNoticesTable {
  consent_id: string
  partner_id: string
  to_address: string
  email_id: string
  queued_at: CreatedAt
}

/** `referrals.status` (migration 0042, decision 087): counted only once the friend attended an activity. */
export const referralStatuses = ['signed_up', 'qualified', 'not_counted'] as const
export type ReferralStatus = (typeof referralStatuses)[number]
/** Why a referral is not counted: the new account looks like the referrer's own (decision 087). */
export const referralReasons = ['self', 'same_email', 'same_device', 'same_address', 'same_card'] as const
export type ReferralReason = (typeof referralReasons)[number]
/** What a `referral_signals` row is a keyed hash of. */
export const referralSignalKinds = ['device', 'address'] as const
export type ReferralSignalKind = (typeof referralSignalKinds)[number]

/** A member brought by someone's invite link (migration 0042 reshaped 0001's table; decision 087). */
export interface ReferralsTable {
  id: Generated<string>
  referrer_id: string
  /** The new member; null once they deleted their account (the referrer keeps the count). */
  referred_user_id: string | null
  created_at: CreatedAt
  status: ColumnType<ReferralStatus, ReferralStatus | undefined, ReferralStatus>
  reason: ReferralReason | null
  /** The activity the invitation was for, if it named one. */
  experience_id: string | null
  qualified_at: NullableTimestamp
  /** The first activity the friend was marked present at. */
  qualifying_experience_id: string | null
  /** When the referrer was told their friend came to a first activity (once). */
  referrer_told_at: NullableTimestamp
}

/** Each member's invite code (migration 0042, decision 087). */
export interface ReferralCodesTable {
  user_id: string
  code: string
  /** The referral banner may show the member's first name to the people they invite. */
  show_first_name: Generated<boolean>
  /** How often the invite link was opened. */
  clicks: Generated<number>
  created_at: CreatedAt
}

/** A keyed hash of a browser or an internet address a member signed in from (decision 087). */
export interface ReferralSignalsTable {
  user_id: string
  kind: ReferralSignalKind
  hash: string
  seen_at: UpdatedAt
}

/** An address someone invited to an activity with "Invite a friend": its keyed hash, never the address. */
export interface FriendInvitationsTable {
  inviter_id: string
  experience_id: string
  email_hash: string
  created_at: CreatedAt
}

/** The campaign a new account came from (the sign-up cookie's `utm_*`), once per account. */
export interface SignupAttributionsTable {
  user_id: string
  utm_source: string | null
  utm_medium: string | null
  utm_campaign: string | null
  created_at: CreatedAt
}

export interface AuditLogTable {
  /** bigserial, read as a number (database.ts). */
  id: Generated<number>
  actor_id: string | null
  impersonator_id: string | null
  action: string
  target_type: string | null
  target_id: string | null
  data: JsonWithDefault<JsonObject>
  request_id: string | null
  created_at: CreatedAt
}

export interface PlacesTable {
  /** `us-or-portland` for a city (`-<geonames id>` added for a second one of the same name), `zip-97201`. */
  id: string
  kind: PlaceKind
  /** The city name; for a ZIP, the name of the city the Postal Service gives it. */
  name: string
  /** char(2). */
  state: string
  state_name: string | null
  latitude: number
  longitude: number
  population: number | null
  time_zone: string
  /** `name` folded to lower-case ASCII, for accent-insensitive search. */
  search: string
}

export interface Database {
  media: MediaTable
  users: UsersTable
  credentials: CredentialsTable
  login_codes: LoginCodesTable
  oidc_payloads: OidcPayloadsTable
  web_sessions: WebSessionsTable
  rate_limits: RateLimitsTable
  app_secrets: AppSecretsTable
  email_outbox: EmailOutboxTable
  sms_outbox: SmsOutboxTable
  sms_opt_outs: SmsOptOutsTable
  sms_inbound_messages: SmsInboundMessagesTable
  profiles: ProfilesTable
  user_interests: UserInterestsTable
  profile_prompts: ProfilePromptsTable
  experiences: ExperiencesTable
  experience_attendees: ExperienceAttendeesTable
  attendance_cancellations: AttendanceCancellationsTable
  waitlist_entries: WaitlistEntriesTable
  experience_invitations: ExperienceInvitationsTable
  experience_reminders: ExperienceRemindersTable
  experience_reminder_schedules: ExperienceReminderSchedulesTable
  message_channels: MessageChannelsTable
  channel_memberships: ChannelMembershipsTable
  messages: MessagesTable
  blocks: BlocksTable
  reports: ReportsTable
  notifications: NotificationsTable
  notification_global_settings: NotificationGlobalSettingsTable
  notification_workflow_settings: NotificationWorkflowSettingsTable
  devices: DevicesTable
  payment_methods: PaymentMethodsTable
  payment_customers: PaymentCustomersTable
  fee_consents: FeeConsentsTable
  attendance_marks: AttendanceMarksTable
  no_show_fees: NoShowFeesTable
  payment_events: PaymentEventsTable
  card_setups: CardSetupsTable
  builtin_vault_cards: BuiltinVaultCardsTable
  builtin_checkout_sessions: BuiltinCheckoutSessionsTable
  builtin_charges: BuiltinChargesTable
  builtin_refunds: BuiltinRefundsTable
  fee_checkouts: FeeCheckoutsTable
  impersonations: ImpersonationsTable
  analytics_events: AnalyticsEventsTable
  analytics_daily: AnalyticsDailyTable
  analytics_salts: AnalyticsSaltsTable
  partnerships: PartnershipsTable
  subscriptions: SubscriptionsTable
  subscription_consents: SubscriptionConsentsTable
  verifications: VerificationsTable
  popups: PopupsTable
  surveys: SurveysTable
  banners: BannersTable
  medicare_partners: MedicarePartnersTable
  medicare_consents: MedicareConsentsTable
  medicare_consent_revocations: MedicareConsentRevocationsTable
  medicare_stop_notices: MedicareStopNoticesTable
  referrals: ReferralsTable
  referral_codes: ReferralCodesTable
  referral_signals: ReferralSignalsTable
  friend_invitations: FriendInvitationsTable
  signup_attributions: SignupAttributionsTable
  feature_flags: FeatureFlagsTable
  audit_log: AuditLogTable
  places: PlacesTable
}

export type BuiltinVaultCard = Selectable<BuiltinVaultCardsTable>
export type User = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type UserUpdate = Updateable<UsersTable>
export type Experience = Selectable<ExperiencesTable>
export type NewExperience = Insertable<ExperiencesTable>
