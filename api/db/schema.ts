import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely'

/** Kysely types for the tables in `migrations/`. Keep in step with the SQL. */
type Timestamp = ColumnType<Date, Date | string, Date | string>
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
type CreatedAt = ColumnType<Date, Date | string | undefined, never>

export type UserState = 'active' | 'created' | 'deleted' | 'suspended'
export const genders = ['woman', 'man', 'other'] as const
export type Gender = (typeof genders)[number]
export const joinReasons = ['close_friends', 'new_people', 'relationship', 'things_to_do'] as const
export type JoinReason = (typeof joinReasons)[number]
export type VenueType = 'in_person' | 'online'
export type Locale = 'en' | 'fr' | 'nl'
export type CodePurpose = 'sign_in' | 'sign_up' | 'reset_password'

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
  join_reasons: ColumnType<JoinReason[], JoinReason[] | undefined, JoinReason[]>
  avatar_media_id: string | null
  is_admin: Generated<boolean>
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
}

export interface MediaTable {
  id: Generated<string>
  owner_id: string | null
  target: 'avatar' | 'experience_cover' | 'verification' | 'message'
  storage_key: string
  thumbnail_key: string | null
  mime_type: string
  width: number
  height: number
  bytes: number
  created_at: CreatedAt
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
  payload: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>
  attempts: Generated<number>
  expires_at: Timestamp
  consumed_at: NullableTimestamp
  created_at: CreatedAt
}

export interface OidcPayloadsTable {
  id: string
  type: string
  payload: ColumnType<Record<string, unknown>, string, string>
  grant_id: string | null
  user_code: string | null
  uid: string | null
  expires_at: NullableTimestamp
  consumed_at: NullableTimestamp
}

export interface WebSessionsTable {
  id: string
  user_id: string | null
  data: ColumnType<Record<string, unknown>, string, string>
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
  value: ColumnType<unknown, string, string>
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
  created_at: CreatedAt
  updated_at: UpdatedAt
}

export interface ExperienceAttendeesTable {
  experience_id: string
  user_id: string
  created_at: CreatedAt
}

export interface AttendanceCancellationsTable {
  id: Generated<string>
  experience_id: string
  user_id: string
  is_late: boolean
  no_show_fee_cents: number | null
  fee_charged_at: NullableTimestamp
  created_at: CreatedAt
}

export interface WaitlistEntriesTable {
  experience_id: string
  user_id: string
  created_at: CreatedAt
}

export interface NotificationsTable {
  id: Generated<string>
  user_id: string
  type: string
  data: ColumnType<Record<string, unknown>, string | undefined, string>
  seen_at: NullableTimestamp
  created_at: CreatedAt
}

export interface AuditLogTable {
  id: Generated<string>
  actor_id: string | null
  impersonator_id: string | null
  action: string
  target_type: string | null
  target_id: string | null
  data: ColumnType<Record<string, unknown>, string | undefined, string>
  request_id: string | null
  created_at: CreatedAt
}

export interface ReferralsTable {
  id: Generated<string>
  referrer_id: string
  code: string
  referred_user_id: string | null
  created_at: CreatedAt
}

export interface PlacesTable {
  /** `us-or-portland` for a city (`-<geonames id>` added for a second one of the same name), `zip-97201`. */
  id: string
  kind: 'city' | 'zip'
  /** The city name; for a ZIP, the name of the city the Postal Service gives it. */
  name: string
  state: string
  state_name: string | null
  latitude: number
  longitude: number
  population: number | null
  time_zone: string
  /** `name` folded to lower-case ASCII, for accent-insensitive search. */
  search: string
}

export const reportReasons = [
  'fake_or_scam',
  'harmful_or_illegal',
  'happened_in_person',
  'inappropriate_or_offensive',
  'low_quality_or_spam',
  'something_else',
] as const
export type ReportReason = (typeof reportReasons)[number]

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
}

export interface Database {
  users: UsersTable
  media: MediaTable
  credentials: CredentialsTable
  login_codes: LoginCodesTable
  oidc_payloads: OidcPayloadsTable
  web_sessions: WebSessionsTable
  rate_limits: RateLimitsTable
  app_secrets: AppSecretsTable
  email_outbox: EmailOutboxTable
  experiences: ExperiencesTable
  experience_attendees: ExperienceAttendeesTable
  attendance_cancellations: AttendanceCancellationsTable
  waitlist_entries: WaitlistEntriesTable
  notifications: NotificationsTable
  audit_log: AuditLogTable
  referrals: ReferralsTable
  places: PlacesTable
  reports: ReportsTable
}

export type User = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type UserUpdate = Updateable<UsersTable>
export type Experience = Selectable<ExperiencesTable>
