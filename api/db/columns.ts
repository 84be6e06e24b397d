import type { InsertType, SelectType } from 'kysely'
import type { Database } from './schema.ts'
import { reportOutcomes } from '#contract/moderation.ts'
import { nearbyVisibilities } from '#contract/profile.ts'
import { noShowFeeReasons, noShowFeeStatuses, noShowFeeWaivers, builtinChargeStatuses, builtinCheckoutModes, builtinCheckoutStatuses, cardBrands, cardSetupStatuses, codePurposes, coverageTypes, familyMembers, invitationStates, joinReasons, reminderSlots, locales, pgEnums, placeKinds } from './schema.ts'

/**
 * Every column of every table as the migrations create it: `'<type>[ null][ default]'`, where the
 * type is PostgreSQL's `udt_name` (`int4`, `timestamptz`, `_text` for text[], an enum's name),
 * `null` marks a nullable column and `default` a column with a database default.
 *
 * Two checks keep the three in step (docs/decisions/017-database-types.md):
 * - the compiler: the `satisfies` clause below derives, from each column's type in `schema.ts`,
 *   the specs it allows, so a table or column missing here or there, a wrong nullability, a
 *   non-`Generated` column with a default (or the reverse), or a TypeScript type that cannot hold
 *   the PostgreSQL one (`number` for `uuid`, an enum union that is not the enum's labels) fails
 *   `tsc`;
 * - `schema.test.ts`: reads `information_schema.columns` of a migrated database and expects
 *   exactly this map, `pg_enum` to hold exactly `pgEnums`, and the CHECK lists below.
 */
export const databaseColumns = {
  media: {
    id: 'uuid default',
    owner_id: 'uuid null',
    target: 'media_target',
    storage_key: 'text',
    thumbnail_key: 'text null',
    mime_type: 'text',
    width: 'int4',
    height: 'int4',
    bytes: 'int4',
    created_at: 'timestamptz default',
  },
  users: {
    id: 'uuid default',
    auth_subject: 'text null',
    stream_id: 'text default',
    slug: 'citext',
    email: 'citext null',
    phone: 'text null',
    first_name: 'text null',
    last_name: 'text null',
    name: 'text null',
    formatted_name: 'text null',
    dob: 'date null',
    gender: 'gender null',
    join_reasons: '_text default',
    avatar_media_id: 'uuid null',
    is_admin: 'bool default',
    banned: 'bool default',
    is_suspended: 'bool default',
    state: 'user_state default',
    lat: 'float8 null',
    long: 'float8 null',
    city: 'text null',
    region: 'text null',
    locale: 'text null',
    onboarded_at: 'timestamptz null',
    created_at: 'timestamptz default',
    updated_at: 'timestamptz default',
    deleted_at: 'timestamptz null',
    last_sign_in_at: 'timestamptz null',
    onboarding_step: 'text null',
    show_blocked_in_chat_search: 'bool default',
    contact_reminder_seen_at: 'timestamptz null',
    suspended_until: 'timestamptz null',
    phone_confirmed_at: 'timestamptz null',
  },
  credentials: {
    user_id: 'uuid',
    password_hash: 'text',
    updated_at: 'timestamptz default',
  },
  login_codes: {
    id: 'uuid default',
    email: 'citext',
    purpose: 'text',
    code_hash: 'text',
    payload: 'jsonb null',
    attempts: 'int4 default',
    expires_at: 'timestamptz',
    consumed_at: 'timestamptz null',
    created_at: 'timestamptz default',
  },
  oidc_payloads: {
    id: 'text',
    type: 'text',
    payload: 'jsonb',
    grant_id: 'text null',
    user_code: 'text null',
    uid: 'text null',
    expires_at: 'timestamptz null',
    consumed_at: 'timestamptz null',
  },
  web_sessions: {
    id: 'text',
    user_id: 'uuid null',
    data: 'jsonb default',
    expires_at: 'timestamptz',
    created_at: 'timestamptz default',
    updated_at: 'timestamptz default',
  },
  rate_limits: {
    key: 'text',
    window_start: 'timestamptz',
    count: 'int4',
  },
  app_secrets: {
    name: 'text',
    value: 'jsonb',
    created_at: 'timestamptz default',
  },
  email_outbox: {
    id: 'uuid default',
    to_address: 'citext',
    subject: 'text',
    text_body: 'text',
    html_body: 'text null',
    kind: 'text',
    locale: 'text',
    created_at: 'timestamptz default',
    sent_at: 'timestamptz null',
    headers: 'jsonb null',
    attachments: 'jsonb null',
    attempts: 'int4 default',
    last_error: 'text null',
    failed_at: 'timestamptz null',
  },
  sms_outbox: {
    id: 'uuid default',
    user_id: 'uuid null',
    to_number: 'text',
    body: 'text',
    kind: 'text',
    locale: 'text',
    experience_id: 'uuid null',
    created_at: 'timestamptz default',
    sent_at: 'timestamptz null',
    provider_ref: 'text null',
  },
  sms_opt_outs: {
    phone: 'text',
    created_at: 'timestamptz default',
  },
  sms_inbound_messages: {
    message_sid: 'text',
    received_at: 'timestamptz default',
  },
  profiles: {
    user_id: 'uuid',
    bio: 'text null',
    employment: 'employment null',
    relationship: 'relationship_status null',
    family: '_text default',
    show_age: 'bool default',
    nearby_visibility: 'text default',
    updated_at: 'timestamptz default',
  },
  user_interests: {
    user_id: 'uuid',
    interest: 'text',
    position: 'int4 default',
  },
  profile_prompts: {
    id: 'uuid default',
    user_id: 'uuid',
    prompt: 'text',
    answer: 'text',
    position: 'int4 default',
  },
  experiences: {
    id: 'uuid default',
    slug: 'citext',
    host_id: 'uuid null',
    title: 'text',
    description: 'text default',
    cover_media_id: 'uuid null',
    max_attendees: 'int4 null',
    attendees_count: 'int4 default',
    start_at: 'timestamptz null',
    end_at: 'timestamptz null',
    timezone: 'text default',
    venue_type: 'venue_type',
    latitude: 'float8 null',
    longitude: 'float8 null',
    formatted_address: 'text null',
    place_id: 'text null',
    city: 'text null',
    region: 'text null',
    url: 'text null',
    ticket_url: 'text null',
    no_show_fee_cents: 'int4 null',
    is_hostless: 'bool default',
    is_premium: 'bool default',
    canceled_at: 'timestamptz null',
    canceled_by: 'uuid null',
    created_at: 'timestamptz default',
    updated_at: 'timestamptz default',
    schedule_changed_at: 'timestamptz null',
    attendance_confirmed_at: 'timestamptz null',
    fees_assessed_at: 'timestamptz null',
  },
  experience_attendees: {
    experience_id: 'uuid',
    user_id: 'uuid',
    created_at: 'timestamptz default',
    fee_consent_id: 'uuid null',
  },
  attendance_cancellations: {
    id: 'uuid default',
    experience_id: 'uuid',
    user_id: 'uuid',
    is_late: 'bool',
    no_show_fee_cents: 'int4 null',
    fee_charged_at: 'timestamptz null',
    created_at: 'timestamptz default',
    fee_consent_id: 'uuid null',
  },
  waitlist_entries: {
    experience_id: 'uuid',
    user_id: 'uuid',
    created_at: 'timestamptz default',
  },
  experience_invitations: {
    experience_id: 'uuid',
    user_id: 'uuid',
    invited_by: 'uuid null',
    state: 'text default',
    created_at: 'timestamptz default',
    answered_at: 'timestamptz null',
  },
  experience_reminders: {
    experience_id: 'uuid',
    user_id: 'uuid',
    slot: 'text',
    start_at: 'timestamptz',
    created_at: 'timestamptz default',
  },
  experience_reminder_schedules: {
    experience_id: 'uuid',
    start_at: 'timestamptz',
  },
  message_channels: {
    id: 'uuid default',
    kind: 'channel_kind',
    experience_id: 'uuid null',
    created_by: 'uuid null',
    direct_key: 'text null',
    last_message_at: 'timestamptz null',
    created_at: 'timestamptz default',
    support_handled_at: 'timestamptz null',
  },
  channel_memberships: {
    channel_id: 'uuid',
    user_id: 'uuid',
    is_accepted: 'bool default',
    last_read_at: 'timestamptz null',
    left_at: 'timestamptz null',
    created_at: 'timestamptz default',
  },
  messages: {
    id: 'uuid default',
    channel_id: 'uuid',
    user_id: 'uuid null',
    body: 'text',
    media_id: 'uuid null',
    is_system: 'bool default',
    created_at: 'timestamptz default',
    deleted_at: 'timestamptz null',
    seq: 'int8 null',
    product_key: 'text null',
    product_params: 'jsonb default',
    answered_by: 'uuid null',
  },
  blocks: {
    blocker_id: 'uuid',
    blocked_id: 'uuid',
    created_at: 'timestamptz default',
  },
  reports: {
    id: 'uuid default',
    reporter_id: 'uuid null',
    reported_user_id: 'uuid null',
    experience_id: 'uuid null',
    message_id: 'uuid null',
    reason: 'report_reason',
    details: 'text default',
    resolved_at: 'timestamptz null',
    resolved_by: 'uuid null',
    created_at: 'timestamptz default',
    channel_id: 'uuid null',
    snapshot: 'jsonb default',
    outcome: 'text null',
  },
  notifications: {
    id: 'uuid default',
    user_id: 'uuid',
    type: 'text',
    data: 'jsonb default',
    seen_at: 'timestamptz null',
    created_at: 'timestamptz default',
    delivered_at: 'timestamptz null',
    in_app: 'bool default',
    experience_id: 'uuid null',
  },
  notification_global_settings: {
    user_id: 'uuid',
    channel: 'text',
    enabled: 'bool',
  },
  notification_workflow_settings: {
    user_id: 'uuid',
    template_id: 'text',
    channel: 'text',
    enabled: 'bool',
  },
  devices: {
    id: 'uuid default',
    user_id: 'uuid',
    kind: 'device_kind',
    token: 'text',
    keys: 'jsonb null',
    created_at: 'timestamptz default',
    last_seen_at: 'timestamptz default',
    failures: 'int4 default',
    retry_after: 'timestamptz null',
  },
  payment_methods: {
    id: 'uuid default',
    user_id: 'uuid',
    provider: 'text',
    provider_ref: 'text',
    brand: 'text',
    last4: 'bpchar',
    exp_month: 'int4',
    exp_year: 'int4',
    is_default: 'bool default',
    created_at: 'timestamptz default',
    removed_at: 'timestamptz null',
  },
  fee_consents: {
    id: 'uuid default',
    user_id: 'uuid',
    experience_id: 'uuid',
    amount_cents: 'int4',
    policy_version: 'text',
    text_shown: 'text',
    language: 'text',
    payment_method_id: 'uuid null',
    created_at: 'timestamptz default',
  },
  attendance_marks: {
    experience_id: 'uuid',
    user_id: 'uuid',
    present: 'bool',
    marked_by: 'uuid null',
    marked_at: 'timestamptz default',
  },
  payment_events: {
    id: 'text',
    type: 'text',
    applied_at: 'timestamptz default',
  },
  no_show_fees: {
    id: 'uuid default',
    user_id: 'uuid',
    experience_id: 'uuid',
    consent_id: 'uuid',
    reason: 'text',
    amount_cents: 'int4',
    status: 'text',
    charge_on: 'timestamptz',
    noticed_at: 'timestamptz default',
    charged_at: 'timestamptz null',
    provider_ref: 'text null',
    decline_code: 'text null',
    dispute_text: 'text null',
    disputed_at: 'timestamptz null',
    waiver: 'text null',
    waiver_note: 'text null',
    waived_by: 'uuid null',
    waived_at: 'timestamptz null',
    created_at: 'timestamptz default',
  },
  payment_customers: {
    user_id: 'uuid',
    provider: 'text',
    customer_ref: 'text',
    created_at: 'timestamptz default',
  },
  card_setups: {
    id: 'uuid default',
    user_id: 'uuid',
    provider: 'text',
    provider_ref: 'text null',
    redirect_url: 'text null',
    return_path: 'text',
    status: 'text default',
    payment_method_id: 'uuid null',
    created_at: 'timestamptz default',
    completed_at: 'timestamptz null',
  },
  builtin_vault_cards: {
    token: 'text',
    customer: 'text',
    brand: 'text',
    last4: 'bpchar',
    exp_month: 'int4',
    exp_year: 'int4',
    set_up_for_off_session: 'bool default',
    detached_at: 'timestamptz null',
    created_at: 'timestamptz default',
  },
  builtin_checkout_sessions: {
    id: 'text',
    user_id: 'uuid',
    customer: 'text',
    mode: 'text',
    status: 'text default',
    success_url: 'text',
    cancel_url: 'text',
    card_token: 'text null',
    expires_at: 'timestamptz',
    created_at: 'timestamptz default',
    amount_cents: 'int4 null',
    description: 'text null',
    recurring_interval: 'text null',
    charge_ref: 'text null',
  },
  builtin_charges: {
    idempotency_key: 'text',
    ref: 'text',
    card_token: 'text',
    amount_cents: 'int4',
    status: 'text',
    decline_code: 'text null',
    created_at: 'timestamptz default',
  },
  partnerships: {
    id: 'uuid default',
    name: 'text',
    regions: '_text default',
    price_cents: 'int4',
    regular_price_cents: 'int4',
    active: 'bool default',
    created_at: 'timestamptz default',
  },
  subscriptions: {
    id: 'uuid default',
    user_id: 'uuid',
    plan: 'text',
    status: 'subscription_status',
    partnership_id: 'uuid null',
    provider_ref: 'text null',
    current_period_end: 'timestamptz null',
    created_at: 'timestamptz default',
    canceled_at: 'timestamptz null',
    price_cents: 'int4 default',
    provider: 'text null',
    checkout_ref: 'text null',
    payment_method_id: 'uuid null',
    cancel_at_period_end: 'bool default',
    current_period_start: 'timestamptz null',
    reminded_period_end: 'timestamptz null',
    updated_at: 'timestamptz default',
  },
  subscription_consents: {
    id: 'uuid default',
    user_id: 'uuid',
    subscription_id: 'uuid',
    text_version: 'text',
    text: 'text',
    locale: 'text',
    price_cents: 'int4',
    renewal_interval: 'text',
    payment_method_id: 'uuid null',
    created_at: 'timestamptz default',
  },
  verifications: {
    id: 'uuid default',
    user_id: 'uuid',
    status: 'verification_status default',
    media_id: 'uuid null',
    reviewed_by: 'uuid null',
    reviewed_at: 'timestamptz null',
    created_at: 'timestamptz default',
    provider: 'verification_provider default',
    provider_ref: 'text null',
    document_key: 'text null',
    selfie_key: 'text null',
    rejection_reason: 'text null',
    decided_at: 'timestamptz null',
  },
  popups: {
    id: 'uuid default',
    user_id: 'uuid',
    type: 'popup_type',
    experience_id: 'uuid null',
    dismissed_at: 'timestamptz null',
    created_at: 'timestamptz default',
  },
  surveys: {
    id: 'uuid default',
    user_id: 'uuid',
    type: 'survey_type',
    experience_id: 'uuid',
    attended: 'bool null',
    rating: 'int4 null',
    feedback: 'text null',
    created_at: 'timestamptz default',
  },
  banners: {
    id: 'uuid default',
    title: 'jsonb',
    body: 'jsonb',
    link_url: 'text null',
    latitude: 'float8 null',
    longitude: 'float8 null',
    radius_miles: 'int4 null',
    starts_at: 'timestamptz null',
    ends_at: 'timestamptz null',
    created_at: 'timestamptz default',
  },
  medicare_registrations: {
    user_id: 'uuid',
    phone: 'text',
    permission_to_contact: 'bool',
    coverage_types: '_text default',
    created_at: 'timestamptz default',
  },
  referrals: {
    id: 'uuid default',
    referrer_id: 'uuid',
    code: 'text',
    referred_user_id: 'uuid null',
    created_at: 'timestamptz default',
  },
  feature_flags: {
    key: 'text',
    enabled: 'bool default',
    variant: 'text null',
    description: 'text default',
    updated_at: 'timestamptz default',
  },
  audit_log: {
    id: 'int8 default',
    actor_id: 'uuid null',
    impersonator_id: 'uuid null',
    action: 'text',
    target_type: 'text null',
    target_id: 'text null',
    data: 'jsonb default',
    request_id: 'text null',
    created_at: 'timestamptz default',
  },
  places: {
    id: 'text',
    kind: 'text',
    name: 'text',
    state: 'bpchar',
    state_name: 'text null',
    latitude: 'float8',
    longitude: 'float8',
    population: 'int4 null',
    time_zone: 'text',
    search: 'text',
  },
} as const satisfies { [T in keyof Database]: { [C in keyof Database[T]]-?: ColumnSpec<Database[T][C]> } }

/**
 * The text columns whose values a CHECK constraint lists (`locale IN ('en', 'fr', 'nl')`,
 * `join_reasons <@ ARRAY[…]`): the TypeScript union of each is derived from its array here, and
 * `schema.test.ts` compares each array with its constraint.
 */
export const checkedColumns = {
  users: { join_reasons: joinReasons, locale: locales },
  login_codes: { purpose: codePurposes },
  profiles: { family: familyMembers, nearby_visibility: nearbyVisibilities },
  payment_methods: { brand: cardBrands },
  card_setups: { status: cardSetupStatuses },
  no_show_fees: { reason: noShowFeeReasons, status: noShowFeeStatuses, waiver: noShowFeeWaivers },
  builtin_vault_cards: { brand: cardBrands },
  builtin_checkout_sessions: { mode: builtinCheckoutModes, status: builtinCheckoutStatuses },
  builtin_charges: { status: builtinChargeStatuses },
  medicare_registrations: { coverage_types: coverageTypes },
  places: { kind: placeKinds },
  experience_invitations: { state: invitationStates },
  experience_reminders: { slot: reminderSlots },
  reports: { outcome: reportOutcomes },
} as const satisfies { [T in keyof Database]?: { [C in keyof Database[T]]?: readonly Element<Database[T][C]>[] } }

// Each list holds every value its column's type allows, not only some of them.
const _checkedListsAreExact: AllTrue<ListsMatch<typeof checkedColumns>> = true

// The specs a column's TypeScript type allows.

type PgEnum = keyof typeof pgEnums
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
/** The enum types whose labels are exactly the union `T`. */
type EnumsOf<T> = { [E in PgEnum]: Same<(typeof pgEnums)[E][number], T> extends true ? E : never }[PgEnum]

/** The PostgreSQL types a value of type `T` (never null) is read from. */
type PgTypeFor<T> = [T] extends [Date]
  ? 'timestamptz'
  : [T] extends [boolean]
    ? 'bool'
    : [T] extends [number]
      ? 'int4' | 'int8' | 'float8'
      : [T] extends [readonly string[]]
        ? '_text'
        : [T] extends [string]
          ? string extends T
            ? 'uuid' | 'text' | 'citext' | 'bpchar' | 'date'
            : // A union of literals: a PostgreSQL enum with exactly those labels, or text with a CHECK.
              EnumsOf<T> | 'text'
          : 'jsonb'

type Nullable<C> = null extends SelectType<C> ? ' null' : ''
/**
 * A NOT NULL column may be left out of an insert (`Generated`) exactly when it has a default; a
 * nullable one always may be (Kysely inserts null), with or without a default.
 */
type Default<C> = null extends SelectType<C> ? '' | ' default' : undefined extends InsertType<C> ? ' default' : ''

type ColumnSpec<C> = `${PgTypeFor<Exclude<SelectType<C>, null>>}${Nullable<C>}${Default<C>}`

/** A column's value, or the value of one element of an array column. */
type Element<C> = Exclude<SelectType<C>, null> extends readonly (infer E)[] ? E : Exclude<SelectType<C>, null>
type ListsMatch<M> = {
  [T in keyof M]: {
    [C in keyof M[T]]: T extends keyof Database
      ? C extends keyof Database[T]
        ? Same<M[T][C] extends readonly (infer E)[] ? E : never, Element<Database[T][C]>>
        : false
      : false
  }
}
type AllTrue<X> = X extends { [T in keyof X]: { [C in keyof X[T]]: true } } ? true : false
