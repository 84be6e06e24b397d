import type { Experience, MediaTable, User } from '../db/schema.ts'
import { ApiProblem, problems } from '../http/errors.ts'
import { isSuspendedMember } from '#contract/display-name.ts'
import type { StaffRole } from '#contract/staff.ts'

/**
 * The API's access policy (decision 012): every "may this caller do that?" in `api/` is asked
 * here, never answered by a `staff_role` or `host_id` comparison in a service or a handler.
 *
 * Permissions are typed strings `action:entity[:qualifier]`, Epic Stack style. A permission
 * that ends in `:own` or `:any` comes in pairs: `:any` allows it on every resource, `:own` on
 * the caller's own (what "own" means is the action's `owns` rule below). Roles grant
 * permissions; a caller's role comes from the users row: a member, or one of the team's roles
 * (`staff_role`, decision 077), each a member's permissions and its own tools.
 */

/** The request's caller: the member's row, with the staff member's id while one views Circle 55 as them (decision 078). */
export type RequestCaller = User & { impersonator_id?: string }

/** The caller as resolved once per request (`api/app.ts`): the member's row, or null. */
export type Caller = Pick<User, 'id' | 'staff_role' | 'banned' | 'is_suspended' | 'state'> | null
type Member = NonNullable<Caller>

// ---------------------------------------------------------------------------------------------
// Resources: the facts a rule needs, read by the service before it asks.

/** An activity; `holds_seat` is whether the caller holds a seat (read for cancelled activities). */
export type ExperienceResource = Pick<Experience, 'host_id'> & { holds_seat?: boolean }
/** A seat: whose it is, at which activity. */
export interface SeatResource {
  user_id: string
  experience: ExperienceResource
}
/** An invitation to an activity: whom it is addressed to. */
export interface InvitationResource {
  user_id: string
}
/** A member acted upon (their account, their activity list). */
export interface MemberResource {
  id: string
}
/**
 * A message channel as the caller stands in it (decision 029). `experience`: the activity of an
 * activity channel with whether the caller holds a seat there; null for a direct channel.
 * `membership`: the caller's membership row, null when they never joined.
 */
export interface ChannelResource {
  experience: ExperienceResource | null
  membership: { left_at: Date | null } | null
}
/** Who takes part in a channel now: an activity's host or attendee; a direct channel's member. */
const takesPart = (caller: Member, channel: ChannelResource) =>
  channel.experience ? isHost(caller, channel.experience) || channel.experience.holds_seat === true : channel.membership !== null

/** A stored photo. */
export type MediaResource = { owner_id: string | null; target?: MediaTable['target'] }

const isHost = (caller: Member, experience: ExperienceResource) =>
  experience.host_id !== null && experience.host_id === caller.id

/** Whether the caller hosts the activity: a fact shown to the viewer (`viewer.is_host`), not a permission. */
export function isHostOf(caller: Caller, experience: ExperienceResource) {
  return caller !== null && isHost(caller, experience)
}
const isSelf = (caller: Member, member: MemberResource) => member.id === caller.id
const isOwner = (caller: Member, media: MediaResource) => media.owner_id !== null && media.owner_id === caller.id

/**
 * Actions granted as `:own` / `:any`, each with what makes a resource the caller's own.
 * Adding one: a line here, its permissions in `grants`, a refusal if the default 403 is wrong.
 */
const ownership = {
  /** A cancelled activity stays readable to its host and to whoever held a seat. */
  'read:experience:canceled': (caller: Member, experience: ExperienceResource) =>
    isHost(caller, experience) || experience.holds_seat === true,
  'update:experience': isHost,
  /** Cancel the activity (DELETE): final. */
  'delete:experience': isHost,
  /** The attendee CSV (display names, RSVP time, attendance state; never contact details). */
  'export:attendees': isHost,
  /** Invite members by email (they are seated only if they accept, decision 019). */
  'add:attendees': isHost,
  /** Accept or decline an invitation: only the member it is addressed to, admins included. */
  'respond:invitation': (caller: Member, invitation: InvitationResource) => invitation.user_id === caller.id,
  /** The whole notify list (others see only their own entry). */
  'read:waitlist': isHost,
  /** Take a seat: one's own, or (any) for someone else. */
  'create:attendance': (caller: Member, seat: Pick<SeatResource, 'user_id'>) => seat.user_id === caller.id,
  /** Give up a seat: one's own, or any seat at an activity one hosts. */
  'delete:attendance': (caller: Member, seat: SeatResource) =>
    seat.user_id === caller.id || isHost(caller, seat.experience),
  /** A member's activity list (attending and hosting). */
  'read:user:experiences': isSelf,
  'update:user': isSelf,
  'delete:user': isSelf,
  /** Join an activity's chat: its attendees, and its host without attending (spec §6). */
  'join:channel': (caller: Member, experience: ExperienceResource) => isHost(caller, experience) || experience.holds_seat === true,
  /**
   * Read a channel: whoever takes part, and a former attendee up to when they left (the service
   * cuts the messages at `left_at`). Admins read no one's chat: moderation works from reports.
   */
  'read:channel': (caller: Member, channel: ChannelResource) => takesPart(caller, channel) || channel.membership !== null,
  /** Write in a channel (the service adds the closing date, acceptance and blocks). */
  'write:channel': takesPart,
  /** Use a photo (as an activity cover): one's own upload, or any for admins. */
  'use:media': isOwner,
  /** Private photos (ID verification): their owner and admins. */
  'read:media:private': isOwner,
  /** Answer the post-activity survey (decision 046): only whoever held a seat at the activity. */
  'answer:survey': (_caller: Member, experience: ExperienceResource) => experience.holds_seat === true,
  /** An activity's ratings and comments (decision 046): its host, and admins. */
  'read:survey:results': isHost,
  /** Say who came to an activity after it (decision 075): its host, and admins. */
  'mark:attendance': isHost,
  /** "Invite a friend" to an activity (decision 087): its host and whoever holds a seat there; nobody for someone else's activity, admins included. */
  'invite:friend': (caller: Member, experience: ExperienceResource) => isHost(caller, experience) || experience.holds_seat === true,
} satisfies Record<string, (caller: Member, resource: never) => boolean>

/** Actions that need no resource: the role alone decides. */
const plainActions = [
  /** An activity that is not cancelled (anonymous callers get the public fields). */
  'read:experience',
  /** The exact address, the online link and precise coordinates of an activity. */
  'read:experience:details',
  'create:experience',
  /** The admin-only flags `is_hostless` and `is_premium`. */
  'update:experience:flags',
  /** Who attends an activity (spec §6: anonymous visitors cannot). */
  'read:attendees',
  'join:waitlist',
  /** A member's public card (anonymous callers get the name only). */
  'read:user',
  /** The rest of another member's public profile (city, age by decade, photo, prompts, hosted activities). */
  'read:user:profile',
  /** Members to meet (`GET v1/members`): people met at activities, members near by. */
  'read:members',
  /** One's own channel list, and starting a direct channel with another member (decision 029). */
  'read:channels',
  'create:channel:direct',
  /** One's own live chat stream (`GET v1/chat/events`, decision 032): only what one may read. */
  'read:chat:events',
  'create:media',
  'create:report',
  /** Whether the caller blocked a member, and whether they can message one (decision 030). */
  'read:block',
  /** Block or unblock a member: always the caller's own block, so no `:own`/`:any` (decision 030). */
  'create:block',
  'delete:block',
  /** See one's own identity verification status and ask to be verified (decision 025). */
  'request:verification',
  /** See pending ID verification requests with their photos, approve or reject them (decision 025). */
  'review:verification',
  /** Write to Circle 55 support: one's own support conversation (decision 039). */
  'contact:support',
  /** One's own in-app notifications: read them, mark them seen (decision 043); nobody reads another's. */
  'read:notifications',
  'update:notifications',
  /** Read every member's support conversation and answer it as "Circle 55 support" (decision 039). */
  'answer:support',
  /** One's own notification settings, read and changed (decision 044): always the caller's own. */
  'read:notification_settings',
  'update:notification_settings',
  /** Register and unregister one's own browsers for web push (decision 048). */
  'register:device',
  /** Later (moderation, admin): read and resolve reports; act as another member. */
  'review:reports',
  'impersonate:user',
  /** One's own open popups, and dismissing them (decision 046). */
  'read:popups',
  /** One's own payment cards: list them (decision 073); nobody reads another member's. */
  'read:payment_methods',
  /** Add (through the provider's hosted page), make default and remove one's own cards (decision 073). */
  'manage:payment_methods',
  /** One's own premium membership and the partner offers for one's region (decision 074). */
  'read:subscription',
  /** Join premium (a partner's $0 plan or the paid plan) and cancel it: always one's own (decision 074). */
  'manage:subscription',
  /** List, create and edit partnerships (the partner offers), each change audited (decision 074). */
  'manage:partnerships',
  /** One's own no-show fees: read them, say one is wrong (decision 075). */
  'read:fees',
  /** Every member's fees: charge a disputed one, waive any with a reason (decision 075). */
  'review:fees',
  /** Pay one's own fee on the provider's hosted page when the bank would not take it off-session (decision 075). */
  'pay:fees',
  /** Give back a charged fee, with the reason (decision 075): money leaves Circle 55. */
  'refund:fees',
  /** The team's start page and its counts (`/admin`, `GET v1/admin/overview`): every team role (decision 077). */
  'read:staff:overview',
  /** Give members roles on the team, change and take them back, audited (decision 077). */
  'manage:staff',
  /** While viewing as a member, switch to acting on their behalf for a stated reason (decision 078). */
  'act:as:user',
  /** A member's account as the team sees it (`/admin/members`): any team role (decision 078). */
  'read:user:admin',
  /** Create and change feature flags, audited (decision 079). */
  'manage:flags',
  /** The team's dashboard of weekly numbers, counts only, nobody named (decision 082): every team role. */
  'read:analytics',
  /** One's own activities in numbers (decision 082): always the caller's own, small counts hidden. */
  'read:host:dashboard',
  /** Banners by location (decision 084). */
  'manage:banners',
  /** The team's audit log: who did what, as whom (decision 089); admins only. */
  'read:audit',
  /** One's own permission to be called about Medicare plans: see it, give it, stop it (decision 086); always the caller's own. */
  'manage:medicare_consent',
  /** Name the licensed agency that may call members who agree, and change its details, audited (decision 086). */
  'manage:medicare_partner',
  /** Download the agency's list of members whose permission is in force, each download audited (decision 086). */
  'export:medicare_consents',
  /** What the referral banner may say of whoever shared an invite link, and counting its clicks (decision 087): anyone. */
  'read:referral:banner',
  /** One's own invite link, what came of it, and whether the banner names one (decision 087): always the caller's own. */
  'read:referrals',
  'update:referrals',
] as const

type OwnedAction = keyof typeof ownership
type PlainAction = (typeof plainActions)[number]
/** What a service asks about. */
export type Action = OwnedAction | PlainAction
/** What a role is granted. */
export type Permission = PlainAction | `${OwnedAction}:own` | `${OwnedAction}:any`
type ResourceOf<A extends Action> = A extends OwnedAction ? Parameters<(typeof ownership)[A]>[1] : never
/** `can(caller, 'update:experience', experience)`; plain actions take no resource. */
type ActionArgs<A extends Action> = A extends OwnedAction ? [resource: ResourceOf<A>] : []

export type Role = 'anonymous' | 'member' | StaffRole

const anonymous = ['read:experience', 'read:user', 'read:referral:banner'] as const satisfies Permission[]
const member = [
  ...anonymous,
  'read:experience:details',
  'read:experience:canceled:own',
  'create:experience',
  'update:experience:own',
  'delete:experience:own',
  'export:attendees:own',
  'add:attendees:own',
  'respond:invitation:own',
  'read:attendees',
  'read:waitlist:own',
  'join:waitlist',
  'create:attendance:own',
  'delete:attendance:own',
  'read:user:profile',
  'read:members',
  'read:user:experiences:own',
  'update:user:own',
  'delete:user:own',
  'create:media',
  'use:media:own',
  'read:media:private:own',
  'create:report',
  'read:block',
  'create:block',
  'delete:block',
  'request:verification',
  'read:channels',
  'create:channel:direct',
  'join:channel:own',
  'read:channel:own',
  'write:channel:own',
  'read:chat:events',
  'contact:support',
  'read:notifications',
  'update:notifications',
  'read:notification_settings',
  'update:notification_settings',
  'register:device',
  'read:popups',
  'read:payment_methods',
  'manage:payment_methods',
  'read:subscription',
  'manage:subscription',
  'read:fees',
  'pay:fees',
  'mark:attendance:own',
  'answer:survey:own',
  'read:survey:results:own',
  'read:host:dashboard',
  'manage:medicare_consent',
  'read:referrals',
  'update:referrals',
  'invite:friend:own',
] as const satisfies Permission[]
/** Reports and what they lead to (suspensions), identity checks, activities that break the rules. */
const moderator = [
  ...member,
  'read:staff:overview',
  'read:analytics',
  'read:user:admin',
  'review:reports',
  'review:verification',
  'read:media:private:any',
  'read:experience:canceled:any',
  'delete:experience:any',
  'read:user:experiences:any',
] as const satisfies Permission[]
/** The support inbox, and a member's account as they see it. */
const support = [...member, 'read:staff:overview', 'read:analytics', 'read:user:admin', 'answer:support', 'impersonate:user', 'act:as:user', 'read:user:experiences:any', 'read:experience:canceled:any', 'read:waitlist:any'] as const satisfies Permission[]
/** No-show fees (disputes, waivers, refunds) and the partner offers. */
const finance = [...member, 'read:staff:overview', 'read:analytics', 'read:user:admin', 'review:fees', 'refund:fees', 'manage:partnerships', 'manage:medicare_partner', 'export:medicare_consents'] as const satisfies Permission[]
const admin = [
  ...member,
  'read:staff:overview',
  'read:analytics',
  'read:user:admin',
  'manage:flags',
  'manage:banners',
  'read:audit',
  'act:as:user',
  'manage:staff',
  'read:experience:canceled:any',
  'update:experience:any',
  'update:experience:flags',
  'delete:experience:any',
  'export:attendees:any',
  'add:attendees:any',
  'read:waitlist:any',
  'create:attendance:any',
  'delete:attendance:any',
  'read:user:experiences:any',
  'use:media:any',
  'read:media:private:any',
  'read:survey:results:any',
  'mark:attendance:any',
  'review:fees',
  'refund:fees',
  'review:reports',
  'review:verification',
  'impersonate:user',
  'manage:partnerships',
  'manage:medicare_partner',
  'export:medicare_consents',
  // Support conversations only (decision 039); every other chat stays private (below).
  'answer:support',
  // Not `join:channel:any`, `read:channel:any` or `write:channel:any`: chats are private to
  // those in them; moderation reads reported messages from the report (decision 029).
  // Not `respond:invitation:any`: nobody accepts or declines an invitation for its member.
  // Not `answer:survey:any`: nobody answers a survey for another member.
  // Not `update:user:any` or `delete:user:any`: an admin changes or deletes another member's
  // account through the moderation tools (with an audit trail), not the member's own calls.
] as const satisfies Permission[]

/** Every permission a role holds. */
export const grants: Record<Role, ReadonlySet<Permission>> = {
  anonymous: new Set(anonymous),
  member: new Set(member),
  moderator: new Set(moderator),
  support: new Set(support),
  finance: new Set(finance),
  admin: new Set(admin),
}

/** Every action services ask about. */
export const actions: readonly Action[] = [...plainActions, ...(Object.keys(ownership) as OwnedAction[])]

/** Every permission the policy knows (for the decision record and the tests). */
export const permissions: readonly Permission[] = [...grants.admin]

/**
 * The caller's role, from the users row. A suspended, banned or deleted member is treated as
 * having no user (spec §6), even though `resolveCaller` already refuses their token.
 */
export function roleOf(caller: Caller): Role {
  if (!caller || caller.state === 'deleted' || isSuspended(caller)) return 'anonymous'
  return caller.staff_role ?? 'member'
}

/**
 * Suspended (by flag or state) or banned: such a member's token is refused with `user_suspended`.
 * The same rule as the display name's generic member label (contract/display-name.ts).
 */
export function isSuspended(user: Pick<User, 'banned' | 'is_suspended' | 'state'>) {
  return isSuspendedMember(user)
}

/** Whether `caller` may do `action` (on `resource`, for actions granted as `:own`/`:any`). */
export function can<A extends Action>(caller: Caller, action: A, ...[resource]: ActionArgs<A>): boolean {
  const role = roleOf(caller)
  const held = grants[role]
  if (!(action in ownership)) return held.has(action as Permission)
  const owned = action as OwnedAction
  if (held.has(`${owned}:any`)) return true
  if (!caller || role === 'anonymous' || !held.has(`${owned}:own`)) return false
  const owns = ownership[owned] as (caller: Member, resource: unknown) => boolean
  return owns(caller, resource)
}

/** The 403 a refused action answers when the generic one would not say enough (spec §8). */
const refusals: Partial<Record<Action, () => ApiProblem>> = {
  'update:experience': () => problems.forbidden('Only the host or an admin can do this.'),
  'delete:experience': () => problems.forbidden('Only the host or an admin can do this.'),
  'export:attendees': () => problems.forbidden('Only the host or an admin can do this.'),
  'add:attendees': () => problems.forbidden('Only the host or an admin can do this.'),
  'update:experience:flags': () => new ApiProblem(403, 'admin_only', 'Only admins can change this.'),
  'manage:partnerships': () => new ApiProblem(403, 'admin_only', 'Only admins can change this.'),
  'create:attendance': () => problems.forbidden('You can only sign yourself up.'),
  'respond:invitation': () => problems.forbidden('Only the invited member can answer this invitation.'),
  'delete:attendance': () => problems.forbidden('Only the member, the host or an admin can cancel this seat.'),
  'read:user:experiences': () => problems.forbidden('You can only see your own activities.'),
  'delete:user': () => problems.forbidden('You can only delete your own account.'),
  'join:channel': () => problems.forbidden('Only the activity’s attendees and host can join its chat.'),
  'read:channel': () => problems.forbidden('Only the activity’s attendees and host can read its chat.'),
  'write:channel': () => problems.forbidden('Only the activity’s attendees and host can write in its chat.'),
  'answer:survey': () => problems.forbidden('Only the activity’s attendees can answer its survey.'),
  'read:survey:results': () => problems.forbidden('Only the host or an admin can do this.'),
  'invite:friend': () => problems.forbidden('Only the host and the people going can invite a friend to this activity.'),
}

/**
 * `can`, or throw: 401 when an anonymous caller would need to sign in, 403 (with the action's
 * own code and message) when a signed-in member may not.
 */
export function requirePermission<A extends Action>(caller: Caller, action: A, ...resource: ActionArgs<A>): void {
  if (can(caller, action, ...resource)) return
  if (roleOf(caller) === 'anonymous') throw problems.unauthorized()
  throw refusals[action]?.() ?? problems.forbidden()
}
