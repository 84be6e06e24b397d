import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MEDICARE_CONSENT_VERSION } from '#contract/medicare-rules.ts'
import type { NewUser, User } from '#api/db/schema.ts'
import { createLocalStorage } from '#api/providers/storage/local.ts'
import { createApiHarness, createExperience, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

/**
 * The access matrix (decision 012): every endpoint of the API × every kind of caller × the status
 * it answers. One row per request; the statuses are in the order of `callers`:
 *
 *   anonymous · member (attends the activity) · other (another member) · host · admin · suspended
 *
 * A blocked member has a table of their own at the end (issue 14 §7).
 *
 * Adding an endpoint or a rule is one line in `rows`; the last test fails when an endpoint of the
 * OpenAPI document has no row. Rows run in order against fixtures built once; requests are
 * chosen so that none changes what a later row sees (see the notes beside the few that write).
 */
const callers = ['anonymous', 'member', 'other', 'host', 'admin', 'suspended'] as const
type CallerName = (typeof callers)[number]

/** Fixture names a row's `{param}` can point at (`{ id: 'cancelled' }`). */
type FixtureName =
  | 'experience'
  | 'banner'
  | 'cancelled'
  | 'doomed'
  | 'flagged'
  | 'past'
  | 'invited'
  | 'declinable'
  | 'member'
  | 'bystander'
  | 'blockable'
  | 'leaver'
  | 'deleted'
  | 'banned'
  | 'suspendedMember'
  | 'coverKey'
  | 'privateKey'
  | 'place'
  | 'verificationRequest'
  | 'approvable'
  | 'rejectable'
  | 'documentFile'
  | 'channel'
  | 'direct'
  | 'leavable'
  | 'support'
  | 'directMessage'
  | 'report'
  | 'dismissable'
  | 'notification'
  | 'card'
  | 'cardSetup'
  | 'checkout'
  | 'fee'
  | 'partnership'
  | 'staffMember'
  | 'flagKey'
  | 'admin'
  | 'referralCode'

interface Row {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** The OpenAPI path, `{param}`s filled from `params` (default: the activity), then `query`. */
  path: string
  statuses: string
  params?: Record<string, FixtureName>
  query?: string
  body?: (ids: Record<FixtureName, string>, caller: CallerName) => unknown
  /** Send the body as multipart form data (uploads). */
  multipart?: boolean
}

const row = (method: Row['method'], path: string, statuses: string, options: Omit<Row, 'method' | 'path' | 'statuses'> = {}): Row => ({
  method,
  path,
  statuses,
  ...options,
})

/** A browser's push subscription (65-byte key, 16-byte secret) at a push service. */
const pushSubscription = {
  endpoint: 'https://push.example/matrix',
  keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(16, 1).toString('base64url') },
}

// prettier-ignore
const rows: Row[] = [
  //                                                         anon mbr other host admin susp
  row('GET', '/health',                                       '200 200 200 200 200 403'),
  row('GET', '/openapi.json',                                 '200 200 200 200 200 403'),
  // users
  row('GET', '/v1/users/me',                                  '401 200 200 200 200 403'),
  row('PUT', '/v1/users/me',                                  '401 200 200 200 200 403', { body: () => ({}) }),
  row('POST', '/v1/users/me/sign-ins',                        '401 200 200 200 200 403'),
  // Only one's own photo uploaded as a profile photo: someone else's is 404, a cover or ID photo 422.
  row('PUT', '/v1/users/me/avatar',                           '401 404 404 422 404 403', { body: (ids) => ({ file_name: ids.coverKey }) }),
  row('PUT', '/v1/users/me/avatar',                           '401 422 404 404 404 403', { body: (ids) => ({ file_name: ids.privateKey }) }),
  row('DELETE', '/v1/users/me/avatar',                        '401 204 204 204 204 403'),
  // Nobody deletes someone else's account, admins included (moderation tools come later).
  row('DELETE', '/v1/users/{id}',                             '401 403 403 403 403 403', { params: { id: 'leaver' } }),
  row('GET', '/users/{id}',                                   '200 200 200 200 200 403', { params: { id: 'member' } }),
  row('GET', '/users/{id}',                                   '200 200 200 200 200 403', { params: { id: 'deleted' } }),
  // Another member's: the activities they host that are coming up, or those in common.
  row('GET', '/v1/users/{id}/experiences',                    '401 200 200 200 200 403', { params: { id: 'member' } }),
  row('GET', '/v1/users/{id}/experiences',                    '401 200 200 200 200 403', { params: { id: 'member' }, query: 'in_common=true' }),
  row('GET', '/v1/users/{id}/experiences',                    '401 404 404 404 404 403', { params: { id: 'deleted' }, query: 'in_common=true' }),
  row('GET', '/v1/users/{id}/experiences',                    '401 404 404 404 404 403', { params: { id: 'suspendedMember' }, query: 'in_common=true' }),
  row('GET', '/users/{id}',                                   '200 200 200 200 200 403', { params: { id: 'suspendedMember' } }),
  // members to meet
  row('GET', '/v1/members',                                   '401 200 200 200 200 403'),
  row('GET', '/v1/members',                                   '401 200 200 200 200 403', { query: 'name=Ma&page=2' }),
  row('GET', '/v1/members',                                   '401 422 422 422 422 403', { query: `name=${'x'.repeat(51)}` }),
  // the account (decision 028)
  // Each caller asks for an address of its own (a code is only sent; nothing changes yet).
  row('POST', '/v1/users/me/email-change',                    '401 202 202 202 202 403', { body: (_, caller) => ({ email: `matrix-${caller}@example.com` }) }),
  // Each caller has the change the row above started waiting (the suspended one has none).
  row('GET', '/v1/users/me/email-change',                     '401 200 200 200 200 403'),
  // A wrong code: the permission check passes, the code does not (nothing changes).
  row('POST', '/v1/users/me/email-change/confirm',            '401 422 422 422 422 403', { body: () => ({ code: '000000' }) }),
  // Ends web sessions and identity-provider grants; the matrix calls with bearer tokens only.
  row('DELETE', '/v1/users/me/sessions',                      '401 204 204 204 204 403'),
  // text messages (decision 049): the fixtures have no phone, so the permission check passes and 409 phone_missing follows.
  row('POST', '/v1/users/me/phone/confirmation',              '401 409 409 409 409 403'),
  row('PUT', '/v1/users/me/phone/confirmation',               '401 409 409 409 409 403', { body: () => ({ code: '000000' }) }),
  // Twilio's webhook (built in here: no signature); an unknown number is ignored with an empty answer.
  row('POST', '/v1/sms/inbound',                              '200 200 200 200 200 403', { body: () => 'From=%2B15035559999&Body=C' }),
  // profiles: members read each other's; suspended, banned and deleted members are not found.
  row('GET', '/v1/users/{id}/interests',                      '401 200 200 200 200 403', { params: { id: 'member' } }),
  row('GET', '/v1/users/{id}/interests',                      '401 404 404 404 404 403', { params: { id: 'deleted' } }),
  row('GET', '/v1/users/{id}/interests',                      '401 404 404 404 404 403', { params: { id: 'banned' } }),
  row('GET', '/v1/users/{id}/profile-prompts',                '401 200 200 200 200 403', { params: { id: 'member' } }),
  row('GET', '/v1/users/{id}/profile-prompts',                '401 404 404 404 404 403', { params: { id: 'deleted' } }),
  row('GET', '/v1/users/{id}/profile-prompts',                '401 404 404 404 404 403', { params: { id: 'banned' } }),
  row('GET', '/v1/profile/catalogue',                         '200 200 200 200 200 403'),
  // experiences
  row('GET', '/v1/experiences',                               '200 200 200 200 200 403'),
  row('GET', '/v1/experiences/{idOrSlug}',                    '200 200 200 200 200 403', { params: { idOrSlug: 'experience' } }),
  row('GET', '/v1/experiences/{idOrSlug}',                    '200 200 200 200 200 403', { params: { idOrSlug: 'experience' }, query: 'format=ical' }),
  row('GET', '/v1/experiences/{idOrSlug}',                    '404 200 404 200 200 403', { params: { idOrSlug: 'cancelled' } }),
  row('GET', '/v1/experiences/{idOrSlug}',                    '404 200 404 200 200 403', { params: { idOrSlug: 'cancelled' }, query: 'format=ical' }),
  // An empty body passes the permission check and then fails validation (title_required…).
  row('POST', '/v1/experiences',                              '401 422 422 422 422 403', { body: () => ({}) }),
  row('PUT', '/v1/experiences/{id}',                          '401 403 403 200 200 403', { body: () => ({}) }),
  // Admin-only flags: the host runs before the admin, so the flag is still unset when the host asks.
  row('PUT', '/v1/experiences/{id}',                          '401 403 403 403 200 403', { params: { id: 'flagged' }, body: () => ({ is_premium: true }) }),
  // Cancelling is final and idempotent: the host's 204 cancels, the admin's 204 finds it cancelled.
  row('DELETE', '/v1/experiences/{id}',                       '401 403 403 204 204 403', { params: { id: 'doomed' } }),
  // A past activity (issue 29 §4): who may is refused as past (409), nothing changes; others 403 as before.
  row('PUT', '/v1/experiences/{id}',                          '401 403 403 409 409 403', { params: { id: 'past' }, body: () => ({ title: 'Renamed afterwards' }) }),
  row('DELETE', '/v1/experiences/{id}',                       '401 403 403 409 409 403', { params: { id: 'past' } }),
  row('POST', '/v1/experiences/{id}/attendees/create-by-emails', '401 403 403 409 409 403', { params: { id: 'past' }, body: () => ({ emails: ['nobody@example.com'] }) }),
  row('GET', '/v1/experiences/{id}/attendees',                '401 200 200 200 200 403'),
  row('GET', '/v1/experiences/{id}/attendees',                '401 200 404 200 200 403', { params: { id: 'cancelled' } }),
  row('GET', '/v1/experiences/{id}/attendees',                '401 403 403 200 200 403', { query: 'format=csv' }),
  // Signing up the member who already attends: idempotent for whoever may.
  row('POST', '/v1/experiences/{id}/attendees',               '401 200 403 403 200 403', { body: (ids) => ({ user_id: ids.member }) }),
  // A seat nobody holds: whoever may cancel it is told it is not there (404).
  row('DELETE', '/v1/experiences/{id}/attendees/{userId}',    '401 403 403 404 404 403', { params: { id: 'experience', userId: 'bystander' } }),
  // One's own seat at a past activity: allowed, then refused as past (409).
  row('DELETE', '/v1/experiences/{id}/attendees/{userId}',    '401 409 403 409 409 403', { params: { id: 'past', userId: 'member' } }),
  row('POST', '/v1/experiences/{id}/attendees/create-by-emails', '401 403 403 200 200 403', { body: () => ({ emails: ['nobody@example.com'] }) }),
  // Only the invited member (other) answers an invitation; nobody else holds one to answer (404).
  row('POST', '/v1/experiences/{id}/invitations/accept',     '401 404 200 404 404 403', { params: { id: 'invited' } }),
  row('POST', '/v1/experiences/{id}/invitations/decline',    '401 404 204 404 404 403', { params: { id: 'declinable' } }),
  row('GET', '/v1/experiences/{id}/waitlist',                 '401 200 200 200 200 403'),
  row('POST', '/v1/experiences/{id}/waitlist',                '401 409 409 409 409 403'),
  row('DELETE', '/v1/experiences/{id}/waitlist',              '401 204 204 204 204 403'),
  // media
  row('POST', '/v1/medias',                                   '401 422 422 422 422 403', { multipart: true, body: () => ({ target: 'experience_cover' }) }),
  row('POST', '/v1/medias/duplicate',                         '401 200 200 200 200 403', { body: (ids) => ({ experience_id: ids.experience }) }),
  // A cancelled activity's cover: whoever may still read the activity (host, attendees, admins).
  row('POST', '/v1/medias/duplicate',                         '401 200 404 200 200 403', { body: (ids) => ({ experience_id: ids.cancelled }) }),
  row('GET', '/media/{key}',                                  '200 200 200 200 200 403', { params: { key: 'coverKey' } }),
  // An ID verification photo (owned by the member): its owner and admins only.
  row('GET', '/media/{key}',                                  '404 200 404 404 200 403', { params: { key: 'privateKey' } }),
  // places
  row('GET', '/v1/places',                                    '200 200 200 200 200 403', { query: 'query=portland' }),
  row('GET', '/v1/places/nearest',                            '200 200 200 200 200 403', { query: 'latitude=45.52&longitude=-122.68' }),
  row('GET', '/v1/places/{id}',                               '200 200 200 200 200 403', { params: { id: 'place' } }),
  // reports
  row('POST', '/v1/reported-contents',                        '401 201 201 201 201 403', { body: (ids) => ({ reason: 'something_else', experience_id: ids.experience }) }),
  row('POST', '/reported-contents',                           '401 201 201 201 201 403', { body: (ids) => ({ reason: 'something_else', experience_id: ids.experience }) }),
  // A channel or a message only by those who read it (404 otherwise, admins included: they read no chat).
  row('POST', '/v1/reported-contents',                        '401 201 404 201 404 403', { body: (ids) => ({ reason: 'something_else', channel_id: ids.channel }) }),
  row('POST', '/v1/reported-contents',                        '401 201 201 404 404 403', { body: (ids) => ({ reason: 'something_else', channel_id: ids.direct }) }),
  // The member wrote it: they cannot report their own message (422).
  row('POST', '/v1/reported-contents',                        '401 422 201 404 404 403', { body: (ids) => ({ reason: 'something_else', message_id: ids.directMessage }) }),
  // moderation (decision 037): admins holding review:reports only.
  row('GET', '/v1/admin/reports',                             '401 403 403 403 200 403'),
  row('GET', '/v1/admin/reports/{id}',                        '401 403 403 403 200 403', { params: { id: 'report' } }),
  row('POST', '/v1/admin/reports/{id}/actions',               '401 403 403 403 200 403', { params: { id: 'dismissable' }, body: () => ({ action: 'dismiss', reason: 'Nothing wrong here.' }) }),
  // blocking (decision 030): every member blocks and unblocks for themselves; these rows leave no block behind.
  row('GET', '/v1/block/{id}',                                '401 200 200 200 200 403', { params: { id: 'blockable' } }),
  row('PUT', '/v1/block/{id}',                                '401 200 200 200 200 403', { params: { id: 'blockable' } }),
  row('PUT', '/v1/block/{id}',                                '401 200 200 200 200 403', { params: { id: 'blockable' } }),
  row('GET', '/v1/block/{id}/me',                             '401 200 200 200 200 403', { params: { id: 'blockable' } }),
  row('DELETE', '/v1/block/{id}',                             '401 204 204 204 204 403', { params: { id: 'blockable' } }),
  row('DELETE', '/v1/block/{id}',                             '401 204 204 204 204 403', { params: { id: 'blockable' } }),
  row('PUT', '/v1/block/{id}',                                '401 404 404 404 404 403', { params: { id: 'deleted' } }),
  row('GET', '/v1/block/{id}/me',                             '401 404 404 404 404 403', { params: { id: 'deleted' } }),
  // The member blocking themselves: 422; the others block the member, and the next row unblocks.
  row('PUT', '/v1/block/{id}',                                '401 422 200 200 200 403', { params: { id: 'member' } }),
  row('DELETE', '/v1/block/{id}',                             '401 204 204 204 204 403', { params: { id: 'member' } }),
  // A suspended member can still be blocked (and the answer never says they are suspended).
  row('PUT', '/v1/block/{id}',                                '401 200 200 200 200 403', { params: { id: 'suspendedMember' } }),
  row('DELETE', '/v1/block/{id}',                             '401 204 204 204 204 403', { params: { id: 'suspendedMember' } }),
  // identity verification (decision 025): one's own status; no photos sent, so 422 for whoever may ask.
  row('GET', '/v1/verification',                              '401 200 200 200 200 403'),
  row('POST', '/v1/verification/initiate',                    '401 422 422 422 422 403', { multipart: true, body: () => ({}) }),
  // The review queue and its photos: reviewers (admins) only; anyone else is told there is nothing (404).
  row('GET', '/v1/verification/requests',                     '401 404 404 404 200 403'),
  row('GET', '/v1/verification/requests/{id}',                '401 404 404 404 200 403', { params: { id: 'verificationRequest' } }),
  row('GET', '/v1/verification/requests/{id}/files/{file}',   '401 404 404 404 200 403', { params: { id: 'verificationRequest', file: 'documentFile' } }),
  row('POST', '/v1/verification/requests/{id}/approve',       '401 404 404 404 200 403', { params: { id: 'approvable' } }),
  row('POST', '/v1/verification/requests/{id}/reject',        '401 404 404 404 200 403', { params: { id: 'rejectable' }, body: () => ({ reason: 'The photo is blurred.' }) }),
  // chat (decision 029): an activity's chat is its attendees' (member) and its host's; a direct
  // channel its two members' (member wrote to other); admins read no one's chat.
  row('PUT', '/experiences/{id}/message-channels/join',       '401 200 403 200 403 403'),
  row('GET', '/experiences/{id}/message-channels',            '401 200 403 200 403 403'),
  // Each caller writes to a bystander: a new channel for whoever may.
  row('POST', '/users/message-channels',                      '401 201 201 201 201 403', { body: (ids) => ({ user_id: ids.bystander }) }),
  row('POST', '/users/message-channels',                      '401 403 403 403 403 403', { body: (ids) => ({ user_id: ids.suspendedMember }) }),
  row('POST', '/users/message-channels',                      '401 403 403 403 403 403', { body: (ids) => ({ user_id: ids.banned }) }),
  row('POST', '/users/message-channels',                      '401 404 404 404 404 403', { body: (ids) => ({ user_id: ids.deleted }) }),
  row('GET', '/message-channels/{id}',                        '401 200 403 200 403 403', { params: { id: 'channel' } }),
  row('GET', '/message-channels/{id}',                        '401 200 200 404 404 403', { params: { id: 'direct' } }),
  row('GET', '/message-channels/{id}/users',                  '401 200 403 200 403 403', { params: { id: 'channel' } }),
  row('GET', '/message-channels/{id}/users',                  '401 200 200 404 404 403', { params: { id: 'direct' } }),
  row('GET', '/v1/chat/message-channels',                     '401 200 200 200 200 403'),
  row('GET', '/v1/chat/message-channels',                     '401 200 200 200 200 403', { query: 'exclude_results=true' }),
  row('POST', '/v1/chat/message-channels/{id}/messages',      '401 201 403 201 403 403', { params: { id: 'channel' }, body: () => ({ text: 'Hello' }) }),
  // The request's sender writes (its first message); the recipient's reply accepts it.
  row('POST', '/v1/chat/message-channels/{id}/messages',      '401 201 201 404 404 403', { params: { id: 'direct' }, body: () => ({ text: 'Hello' }) }),
  row('POST', '/v1/chat/message-channels/{id}/read',          '401 204 403 204 403 403', { params: { id: 'channel' } }),
  row('POST', '/v1/chat/message-channels/{id}/accept',        '401 200 200 404 404 403', { params: { id: 'direct' } }),
  // The live stream (decision 032); once=true ends it after what is pending, so the row reads a whole answer.
  row('GET', '/v1/chat/events',                               '401 200 200 200 200 403', { query: 'once=true' }),
  // A direct channel between member and host: each leaves it; nobody else is in it.
  row('DELETE', '/users/message-channels/{id}/leave',         '401 204 404 204 404 403', { params: { id: 'leavable' } }),
  // New-message search (decision 034): any member searches for themselves.
  row('GET', '/v1/chat/users',                                '401 200 200 200 200 403'),
  row('GET', '/v1/chat/users',                                '401 200 200 200 200 403', { query: 'name=Ma&page=2' }),
  row('GET', '/v1/chat/users',                                '401 422 422 422 422 403', { query: `name=${'x'.repeat(51)}` }),
  row('GET', '/message-channels/{id}',                        '401 200 403 200 403 403', { params: { id: 'channel' }, query: 'show_blocked=true' }),
  row('GET', '/message-channels/{id}',                        '401 422 422 422 422 403', { params: { id: 'channel' }, query: 'show_blocked=yes' }),
  // support (decision 039): each member's conversation with Circle 55 support (member's is `support`):
  // theirs to read and write as a channel, nobody else's; admins read and answer it in the inbox only.
  row('POST', '/v1/support/message-channel',                  '401 200 201 201 201 403'),
  // The help chat (decision 083): one's own support conversation as one reads it, and the vendor widget (none here).
  row('GET', '/v1/support/help-chat',                         '401 200 200 200 200 403'),
  row('GET', '/message-channels/{id}',                        '401 200 404 404 404 403', { params: { id: 'support' } }),
  row('POST', '/v1/chat/message-channels/{id}/messages',      '401 201 404 404 404 403', { params: { id: 'support' }, body: () => ({ text: 'A question' }) }),
  row('GET', '/v1/admin/support',                             '401 403 403 403 200 403'),
  row('GET', '/v1/admin/support/{id}',                        '401 403 403 403 200 403', { params: { id: 'support' } }),
  row('GET', '/v1/admin/support/{id}',                        '401 403 403 403 404 403', { params: { id: 'direct' } }),
  row('POST', '/v1/admin/support/{id}/messages',              '401 403 403 403 201 403', { params: { id: 'support' }, body: () => ({ text: 'An answer' }) }),
  row('POST', '/v1/admin/support/{id}/messages',              '401 403 403 403 404 403', { params: { id: 'direct' }, body: () => ({ text: 'An answer' }) }),
  row('POST', '/v1/admin/support/{id}/done',                  '401 403 403 403 200 403', { params: { id: 'support' } }),
  // in-app notifications (decision 043): each member reads and marks only their own.
  row('GET', '/users/notifications',                          '401 200 200 200 200 403'),
  row('GET', '/users/notifications',                          '401 200 200 200 200 403', { query: 'seen_at=null&exclude_results=true' }),
  row('PUT', '/users/notifications/{id}/seen',                '401 200 404 404 404 403', { params: { id: 'notification' } }),
  row('PUT', '/users/notifications/seen',                     '401 204 204 204 204 403'),
  // notification settings (decision 044): each caller reads and changes only their own.
  // One-click unsubscribe: no sign-in, the signed link is the only credential (a valid one: delivery.test.ts).
  row('GET', '/v1/notifications/unsubscribe/{token}',        '404 404 404 404 404 403', { params: { token: 'member' } }),
  row('POST', '/v1/notifications/unsubscribe/{token}',       '404 404 404 404 404 403', { params: { token: 'member' } }),
  row('GET', '/v1/notifications/settings/global',             '401 200 200 200 200 403'),
  row('PUT', '/v1/notifications/settings/global',             '401 200 200 200 200 403', { body: () => ({ preferences: [{ type: 'email', enabled: true }] }) }),
  row('PUT', '/v1/notifications/settings/global',             '401 422 422 422 422 403', { body: () => ({ preferences: [{ type: 'fax', enabled: true }] }) }),
  row('GET', '/v1/notifications/settings/workflow',           '401 200 200 200 200 403'),
  row('PUT', '/v1/notifications/settings/workflow',           '401 200 200 200 200 403', { body: () => ({ settings: [{ template_id: 'reminders', preference: { channels: { email: true } } }] }) }),
  row('PUT', '/v1/notifications/settings/workflow',           '401 422 422 422 422 403', { body: () => ({ settings: [] }) }),
  // web push (decision 048): each caller registers and unregisters only their own browsers.
  row('GET', '/v1/notifications/push-key',                    '401 200 200 200 200 403'),
  row('GET', '/v1/notifications/devices',                      '401 200 200 200 200 403'),
  row('PUT', '/v1/notifications/register-device',             '401 200 200 200 200 403', { body: () => pushSubscription }),
  row('PUT', '/v1/notifications/register-device',             '401 422 422 422 422 403', { body: () => ({ ...pushSubscription, endpoint: 'http://push.example/abc' }) }),
  row('DELETE', '/v1/notifications/register-device',          '401 204 204 204 204 403', { body: () => ({ endpoint: pushSubscription.endpoint }) }),
  // the post-activity survey (decision 046): `past` has ended and only the member attended it.
  row('GET', '/v1/users/me/popups',                           '401 200 200 200 200 403'),
  row('PUT', '/v1/users/me/popups',                           '401 204 403 403 403 403', { params: { id: 'past' }, body: (ids) => ({ type: 'EXPERIENCE_ATTENDANCE', experience_id: ids.past }) }),
  // banners (decision 084): anyone reads those showing at a point; any member hides one; admins manage them.
  row('PUT', '/v1/users/me/popups',                           '401 204 204 204 204 403', { body: (ids) => ({ type: 'BANNER', banner_id: ids.banner }) }),
  row('GET', '/v1/cms/banners',                               '200 200 200 200 200 403', { query: 'latitude=45.52&longitude=-122.68' }),
  row('GET', '/v1/admin/banners',                             '401 403 403 403 200 403'),
  row('POST', '/v1/admin/banners',                            '401 403 403 403 201 403', { body: () => ({ title: { en: 'Matrix', fr: 'Matrice', nl: 'Matrix' }, body: { en: 'Matrix', fr: 'Matrice', nl: 'Matrix' }, ends_at: new Date(Date.now() + 86_400_000).toISOString(), area: { kind: 'everywhere' } }) }),
  row('PUT', '/v1/admin/banners/{id}',                        '401 403 403 403 200 403', { params: { id: 'banner' }, body: () => ({ title: { en: 'Matrix', fr: 'Matrice', nl: 'Matrix' }, body: { en: 'Matrix', fr: 'Matrice', nl: 'Matrix' }, ends_at: new Date(Date.now() + 86_400_000).toISOString(), area: { kind: 'everywhere' } }) }),
  row('POST', '/v1/admin/banners/{id}/end',                   '401 403 403 403 200 403', { params: { id: 'banner' } }),
  row('POST', '/v1/users/me/surveys',                         '401 200 403 403 403 403', { params: { id: 'past' }, body: (ids) => ({ type: 'POST_EXPERIENCE_SURVEY', experience_id: ids.past, rating: 4 }) }),
  row('POST', '/v1/users/me/surveys',                         '401 409 403 403 403 403', { body: (ids) => ({ type: 'EXPERIENCE_ATTENDANCE_SURVEY', experience_id: ids.experience, attended: true }) }),
  row('GET', '/v1/users/me/surveys/{experience_id}',           '401 200 403 403 403 403', { params: { experience_id: 'past' } }),
  row('GET', '/v1/experiences/{id}/survey-results',           '401 403 403 200 200 403', { params: { id: 'past' } }),
  // payment cards (decision 073): always the caller's own; `card`, `cardSetup` and `checkout` are the member's.
  row('GET', '/v1/payment-methods',                           '401 200 200 200 200 403'),
  row('GET', '/v1/payment-methods/default',                   '401 200 200 200 200 403'),
  row('POST', '/v1/payment-methods/default',                  '401 200 404 404 404 403', { query: 'id={card}' }),
  row('POST', '/v1/payment-methods/setup',                    '401 200 200 200 200 403'),
  row('GET', '/v1/payment-methods/setup/{id}',                '401 200 404 404 404 403', { params: { id: 'cardSetup' } }),
  row('GET', '/v1/payments/checkout/{id}',                    '401 200 404 404 404 403', { params: { id: 'checkout' } }),
  row('POST', '/v1/payments/checkout/{id}/authentication',    '401 409 404 404 404 403', { params: { id: 'checkout' }, body: () => ({ outcome: 'confirm' }) }),
  row('POST', '/v1/payments/checkout/{id}/card',              '401 200 404 404 404 403', { params: { id: 'checkout' }, body: () => ({ number: '4242424242424242', expiry: '12/40', cvc: '123', postal_code: '97201' }) }),
  // premium (decision 074): always the caller's own; the partnerships' administration is for admins.
  row('GET', '/v1/subscriptions/partnerships',                '401 200 200 200 200 403'),
  row('GET', '/v1/subscriptions/me',                          '401 200 200 200 200 403'),
  // No consent: the permission check passes, the consent does not (nothing starts).
  row('POST', '/v1/subscriptions/initiate',                   '401 422 422 422 422 403', { body: () => ({}) }),
  row('POST', '/v1/subscriptions/me/cancel',                  '401 409 409 409 409 403'),
  row('GET', '/v1/admin/partnerships',                        '401 403 403 403 200 403'),
  row('GET', '/v1/admin/partnerships/{id}',                   '401 403 403 403 200 403', { params: { id: 'partnership' } }),
  row('POST', '/v1/admin/partnerships',                       '401 403 403 403 200 403', { body: () => ({ name: 'Matrix Partner', regions: ['OR'], active: true }) }),
  row('PUT', '/v1/admin/partnerships/{id}',                   '401 403 403 403 200 403', { params: { id: 'partnership' }, body: () => ({ name: 'Matrix Partner', regions: ['OR'], active: true }) }),
  // no-show fees (decision 075): `past` is the host's, the member held a seat; `fee` is the member's.
  row('GET', '/v1/experiences/{id}/attendance',               '401 403 403 200 200 403', { params: { id: 'past' } }),
  row('POST', '/v1/experiences/{id}/attendance',              '401 403 403 200 200 403', { params: { id: 'past' }, body: () => ({ marks: [] }) }),
  row('GET', '/v1/fees',                                      '401 200 200 200 200 403'),
  // The fee was noticed, not refused by the bank: nothing to pay yet (409) for its member; nobody else's.
  row('POST', '/v1/fees/{id}/pay',                            '401 409 404 404 404 403', { params: { id: 'fee' } }),
  row('POST', '/v1/fees/{id}/dispute',                        '401 200 404 404 404 403', { params: { id: 'fee' }, body: () => ({ reason: 'I was there.' }) }),
  row('GET', '/v1/admin/fees',                                '401 403 403 403 200 403'),
  row('POST', '/v1/admin/fees/{id}/charge',                   '401 403 403 403 204 403', { params: { id: 'fee' } }),
  row('POST', '/v1/admin/fees/{id}/waive',                    '401 403 403 403 204 403', { params: { id: 'fee' }, body: () => ({ reason: 'Matrix' }) }),
  // Waived just above, never charged: the team may refund, this one has nothing to give back (409).
  row('POST', '/v1/admin/fees/{id}/refund',                   '401 403 403 403 409 403', { params: { id: 'fee' }, body: () => ({ reason: 'Matrix' }) }),
  // After the waiver: the member's fee is settled, so their only card may go (card_backs_fee before).
  row('DELETE', '/v1/payment-methods/{id}',                   '401 204 404 404 404 403', { params: { id: 'card' } }),
  // the team (decision 077): the start page for every role; roles given by admins only. The
  // admin asks about the member (not on the team: a role given, then taken back) and about
  // themself (refused: own_role); the team's other roles are in the block below.
  row('GET', '/v1/admin/overview',                            '401 403 403 403 200 403'),
  row('GET', '/v1/admin/staff',                               '401 403 403 403 200 403'),
  row('POST', '/v1/admin/staff',                              '401 403 403 403 200 403', { body: () => ({ email: 'matrix-staff@example.com', role: 'support' }) }),
  row('PUT', '/v1/admin/staff/{id}',                          '401 403 403 403 200 403', { params: { id: 'staffMember' }, body: () => ({ role: null }) }),
  row('PUT', '/v1/admin/staff/{id}',                          '401 403 403 403 409 403', { params: { id: 'admin' }, body: () => ({ role: 'support' }) }),
  // members as the team sees them, and viewing Circle 55 as one (decision 078): the admin signed in
  // just now starts viewing as the member (once); calls without an impersonation have none to read.
  row('GET', '/v1/admin/users',                               '401 403 403 403 200 403', { query: 'q=Mar' }),
  row('GET', '/v1/admin/users/{id}',                          '401 403 403 403 200 403', { params: { id: 'member' } }),
  row('POST', '/v1/admin/users/{id}/impersonation',           '401 403 403 403 200 403', { params: { id: 'member' }, body: () => ({ reason: 'Matrix' }) }),
  row('GET', '/v1/impersonation',                             '401 404 404 404 404 403'),
  row('POST', '/v1/impersonation/acting',                     '401 404 404 404 404 403', { body: () => ({ reason: 'Matrix' }) }),
  row('DELETE', '/v1/impersonation',                          '401 404 404 404 404 403'),
  // feature flags (decision 079): everyone reads their own values (a visitor too); admins edit them.
  row('GET', '/v1/flags',                                     '200 200 200 200 200 403'),
  // analytics consent (decision 081): each member's own answer, kept on their account.
  row('GET', '/v1/users/me/analytics-consent',                '401 200 200 200 200 403'),
  row('PUT', '/v1/users/me/analytics-consent',                '401 200 200 200 200 403', { body: () => ({ choice: 'granted' }) }),
  row('GET', '/v1/admin/flags',                               '401 403 403 403 200 403'),
  row('GET', '/v1/admin/flag-provider',                       '401 403 403 403 200 403'),
  row('PUT', '/v1/admin/flags/{key}',                         '401 403 403 403 200 403', { params: { key: 'flagKey' }, body: () => ({ description: 'Matrix', enabled: false, rollout_percent: 10, variants: [], roles: [], regions: [], languages: [] }) }),
  // dashboards (decision 082): the team's numbers for every team role; each member's own activities in numbers.
  row('GET', '/v1/admin/dashboard',                           '401 403 403 403 200 403'),
  // The audit log (decision 089): admins only; a malformed filter is read only once the caller may (422 for the admin alone).
  row('GET', '/v1/admin/audit-log',                           '401 403 403 403 200 403'),
  row('GET', '/v1/admin/audit-log',                           '401 403 403 403 200 403', { query: 'member={member}&kind=impersonation' }),
  row('GET', '/v1/admin/audit-log',                           '401 403 403 403 422 403', { query: 'kind=everything' }),
  row('GET', '/v1/users/me/hosting/dashboard',                '401 200 200 200 200 403'),
  // Medicare calls (decision 086): the admin names the agency first (revision 1); then each member
  // gives their own permission and stops it; the agency's list is for finance and admins.
  row('GET', '/v1/admin/medicare/partner',                    '401 403 403 403 200 403'),
  row('PUT', '/v1/admin/medicare/partner',                    '401 403 403 403 200 403', { body: () => ({ name: 'Matrix Agency', license: 'License 1', phone: '5035550100', disclaimer: 'Matrix.', organization_count: 1, plan_count: 2, callback_days: 2, active: true, notices_email: 'stops@matrix-agency.example' }) }),
  row('GET', '/v1/users/me/medicare',                         '401 200 200 200 200 403'),
  row('POST', '/v1/users/me/medicare',                        '401 201 201 201 201 403', { body: () => ({ phone: '5035550177', topics: ['dental'], agree: true, version: MEDICARE_CONSENT_VERSION, partner_revision: 1 }) }),
  row('GET', '/v1/admin/medicare/export',                     '401 403 403 403 200 403'),
  row('DELETE', '/v1/users/me/medicare',                      '401 204 204 204 204 403'),
  // referrals (decision 087): one's own invite link and choice; the banner and the click count for anyone;
  // "Invite a friend" for the host and whoever holds a seat (the member attends; the admin neither hosts nor attends).
  row('GET', '/v1/users/me/referrals',                        '401 200 200 200 200 403'),
  row('PUT', '/v1/users/me/referrals',                        '401 200 200 200 200 403', { body: () => ({ show_first_name: false }) }),
  row('GET', '/v1/referrals/{code}',                          '200 200 200 200 200 403', { params: { code: 'referralCode' } }),
  row('POST', '/v1/referrals/{code}/clicks',                  '204 204 204 204 204 403', { params: { code: 'referralCode' } }),
  row('POST', '/v1/users/me/attribution',                     '401 200 200 200 200 403', { body: () => ({}) }),
  row('POST', '/v1/experiences/{id}/invite-friend',           '401 200 403 200 403 403', { body: (_, caller) => ({ email: `matrix-friend-${caller}@example.com` }) }),
  // Stripe (payments) is not configured here either; stripe-flow.test.ts signs its deliveries.
  row('POST', '/v1/webhooks/stripe',                          '404 404 404 404 404 403', { body: () => ({ type: 'checkout.session.completed' }) }),
  // Stripe Identity is not configured here; with it, only a signed delivery is accepted (stripe.test.ts).
  row('POST', '/v1/webhooks/stripe-identity',                 '404 404 404 404 404 403', { body: () => ({ type: 'identity.verification_session.verified' }) }),
]

const DAY = 24 * 3_600_000

let database: TestDatabase
let api: ApiHarness
let mediaDir: string
const tokens = {} as Record<CallerName, string | undefined>
const ids = {} as Record<FixtureName, string>

async function member(overrides: Partial<NewUser> = {}): Promise<User> {
  return createUser(database.db, overrides)
}

async function experience(hostId: string, values: { canceled?: boolean; startsInDays?: number; coverId?: string } = {}) {
  const row = await createExperience(database.db, hostId, {
    start_at: new Date(Date.now() + (values.startsInDays ?? 5) * DAY),
    max_attendees: 10,
    cover_media_id: values.coverId ?? null,
    canceled_at: values.canceled ? new Date() : null,
  })
  return row.id
}

async function seat(experienceId: string, userId: string) {
  await database.db.insertInto('experience_attendees').values({ experience_id: experienceId, user_id: userId }).execute()
  await database.db.updateTable('experiences').set({ attendees_count: 1 }).where('id', '=', experienceId).execute()
}

/** A message channel with its accepted members and those asked to accept. */
async function channel(values: { kind: 'experience' | 'direct' | 'support'; experience_id?: string; direct_key?: string }, accepted: string[], asked: string[] = []) {
  const row = await database.db.insertInto('message_channels').values(values).returning('id').executeTakeFirstOrThrow()
  const members = [...accepted.map((user_id) => ({ user_id, is_accepted: true })), ...asked.map((user_id) => ({ user_id, is_accepted: false }))]
  await database.db.insertInto('channel_memberships').values(members.map((member) => ({ channel_id: row.id, ...member }))).execute()
  return row.id
}

/** A stored photo: the file in storage and its media row. */
async function photo(ownerId: string, target: 'experience_cover' | 'verification', folder: string) {
  const key = `${folder}/2026/01/${randomUUID()}.jpg`
  const storage = createLocalStorage(mediaDir)
  await storage.put(key, new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), 'image/jpeg')
  const media = await database.db
    .insertInto('media')
    .values({ owner_id: ownerId, target, storage_key: key, thumbnail_key: null, mime_type: 'image/jpeg', width: 1200, height: 600, bytes: 4 })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { id: media.id, key }
}

beforeAll(async () => {
  database = await createTestDatabase()
  mediaDir = await mkdtemp(join(tmpdir(), 'circle55-matrix-'))
  api = await createApiHarness(database.db, {}, { media: createLocalStorage(mediaDir) })

  const users = {
    member: await member({ first_name: 'Margaret', last_name: 'Hughes' }),
    other: await member({ first_name: 'Ruth', last_name: 'Owens' }),
    host: await member({ first_name: 'Walter', last_name: 'Brooks' }),
    admin: await member({ first_name: 'Alice', last_name: 'Admin', staff_role: 'admin', last_sign_in_at: new Date() }),
    suspended: await member({ first_name: 'Sam', last_name: 'Stone', is_suspended: true }),
  }
  for (const name of callers) tokens[name] = name === 'anonymous' ? undefined : await api.signToken(users[name].id)

  const cover = await photo(users.host.id, 'experience_cover', 'covers')
  const verification = await photo(users.member.id, 'verification', 'verification')
  ids.experience = await experience(users.host.id, { coverId: cover.id })
  ids.cancelled = await experience(users.host.id, { canceled: true, coverId: cover.id })
  ids.doomed = await experience(users.host.id)
  ids.flagged = await experience(users.host.id)
  ids.past = await experience(users.host.id, { startsInDays: -1 })
  await seat(ids.experience, users.member.id)
  await seat(ids.cancelled, users.member.id)
  await seat(ids.past, users.member.id)
  ids.channel = await channel({ kind: 'experience', experience_id: ids.experience }, [users.member.id, users.host.id])
  ids.direct = await channel({ kind: 'direct', direct_key: 'matrix-direct' }, [users.member.id], [users.other.id])
  ids.leavable = await channel({ kind: 'direct', direct_key: 'matrix-leavable' }, [users.member.id, users.host.id])
  ids.support = await channel({ kind: 'support', direct_key: `support:${users.member.id}` }, [users.member.id])
  const written = await database.db
    .insertInto('messages')
    .values({ channel_id: ids.direct, user_id: users.member.id, body: 'Hello from the matrix' })
    .returning('id')
    .executeTakeFirstOrThrow()
  ids.directMessage = written.id
  for (const name of ['report', 'dismissable'] as const) {
    const report = await database.db
      .insertInto('reports')
      .values({ reporter_id: users.other.id, reported_user_id: users.member.id, reason: 'something_else' })
      .returning('id')
      .executeTakeFirstOrThrow()
    ids[name] = report.id
  }
  ids.invited = await experience(users.host.id)
  ids.declinable = await experience(users.host.id)
  for (const id of [ids.invited, ids.declinable]) {
    await database.db.insertInto('experience_invitations').values({ experience_id: id, user_id: users.other.id, invited_by: users.host.id }).execute()
  }
  ids.member = users.member.id
  ids.bystander = (await member()).id
  ids.blockable = (await member()).id
  ids.leaver = (await member()).id
  ids.deleted = (await member({ state: 'deleted' })).id
  ids.banned = (await member({ banned: true })).id
  ids.suspendedMember = users.suspended.id
  ids.coverKey = cover.key
  ids.privateKey = verification.key
  ids.place = 'us-or-portland'
  ids.verificationRequest = await verificationRequest()
  ids.documentFile = 'document'
  ids.notification = (await database.db.insertInto('notifications').values({ user_id: users.member.id, type: 'sample', data: '{}' }).returning('id').executeTakeFirstOrThrow()).id
  ids.card = (
    await database.db
      .insertInto('payment_methods')
      .values({ user_id: users.member.id, provider: 'builtin', provider_ref: 'card_matrix', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2040 })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id
  const consent = await database.db
    .insertInto('fee_consents')
    .values({ user_id: users.member.id, experience_id: ids.past, amount_cents: 500, policy_version: 'v', text_shown: 'I agree', language: 'en', payment_method_id: ids.card })
    .returning('id')
    .executeTakeFirstOrThrow()
  ids.fee = (
    await database.db
      .insertInto('no_show_fees')
      .values({ user_id: users.member.id, experience_id: ids.past, consent_id: consent.id, reason: 'no_show', amount_cents: 500, status: 'noticed', charge_on: new Date(Date.now() + 2 * DAY) })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id
  const setup = await api.request('POST', 'v1/payment-methods/setup', { token: tokens.member })
  ids.cardSetup = setup.json.data[0].id
  ids.checkout = new URL(setup.json.data[0].redirect_url).pathname.replace('/checkout/', '')
  ids.staffMember = (await member({ email: 'matrix-staff@example.com' })).id
  ids.flagKey = 'matrix-flag'
  ids.banner = (
    await database.db.insertInto('banners').values({ title: JSON.stringify({ en: 'Matrix' }), body: JSON.stringify({ en: 'Matrix' }), ends_at: new Date(Date.now() + 86_400_000) }).returning('id').executeTakeFirstOrThrow()
  ).id
  ids.admin = users.admin.id
  ids.referralCode = 'MATRX234'
  await database.db.insertInto('referral_codes').values({ user_id: users.member.id, code: ids.referralCode }).execute()
  ids.partnership = (
    await database.db.insertInto('partnerships').values({ name: 'Matrix Partner', regions: ['OR'], price_cents: 0, regular_price_cents: 2000 }).returning('id').executeTakeFirstOrThrow()
  ).id
  for (const name of ['approvable', 'rejectable'] as const) {
    const applicant = await member()
    const pending = await database.db.insertInto('verifications').values({ user_id: applicant.id }).returning('id').executeTakeFirstOrThrow()
    ids[name] = pending.id
  }
})

/** A pending request with its two photos, sent through the API by a member of its own. */
async function verificationRequest() {
  const applicant = await member()
  const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#468' } }).jpeg().toBuffer()
  const form = new FormData()
  for (const name of ['document', 'selfie']) form.set(name, new File([new Uint8Array(jpeg)], `${name}.jpg`, { type: 'image/jpeg' }))
  const headers = { authorization: `Bearer ${await api.signToken(applicant.id)}` }
  const response = await api.app.fetch(new Request(`${api.env.PUBLIC_URL}/api/v1/verification/initiate`, { method: 'POST', headers, body: form }))
  if (response.status !== 200) throw new Error(`verification request: ${response.status}`)
  const row = await database.db.selectFrom('verifications').select('id').where('user_id', '=', applicant.id).executeTakeFirstOrThrow()
  return row.id
}

afterAll(async () => {
  await database?.drop()
  if (mediaDir) await rm(mediaDir, { recursive: true, force: true })
})

function urlOf(entry: Row) {
  const path = entry.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = ids[entry.params?.[name] ?? 'experience']
    return name === 'key' ? value : encodeURIComponent(value)
  })
  const query = entry.query?.replace(/\{(\w+)\}/g, (_, name: FixtureName) => encodeURIComponent(ids[name]))
  return query ? `${path}?${query}` : path
}

async function send(entry: Row, caller: CallerName): Promise<{ status: number }> {
  const token = tokens[caller]
  const body = entry.body?.(ids, caller)
  if (!entry.multipart) return api.request(entry.method, urlOf(entry), { token, body })
  const form = new FormData()
  for (const [name, value] of Object.entries(body as Record<string, string>)) form.set(name, value)
  const headers = new Headers(token ? { authorization: `Bearer ${token}` } : {})
  return api.app.fetch(new Request(`${api.env.PUBLIC_URL}/api${urlOf(entry)}`, { method: entry.method, headers, body: form }))
}

const cases = rows.flatMap((entry) => {
  const statuses = entry.statuses.split(/\s+/).map(Number)
  if (statuses.length !== callers.length) throw new Error(`${entry.method} ${entry.path}: ${callers.length} statuses expected`)
  const on = entry.params ? ` (${Object.values(entry.params).join(', ')})` : ''
  const label = `${entry.method} ${entry.path}${entry.query ? `?${entry.query}` : ''}${on}`
  return callers.map((caller, index) => ({ label, caller, status: statuses[index] as number, entry }))
})

describe('access matrix', () => {
  it.each(cases)('$label as $caller → $status', async ({ caller, status, entry }) => {
    const response = await send(entry, caller)
    expect(response.status).toBe(status)
  })

  it('has a row for every endpoint of the OpenAPI document', async () => {
    const response = await api.request('GET', '/openapi.json')
    const documented = Object.entries(response.json.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => ['get', 'post', 'put', 'delete', 'patch'].includes(method))
        .map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(documented.length).toBeGreaterThan(20)
    const covered = new Set(rows.map((entry) => `${entry.method} ${entry.path}`))
    expect(documented.filter((endpoint) => !covered.has(endpoint))).toEqual([])
  })
})

/**
 * The team's roles (issue 32 §1, decision 077): each staff-only endpoint for a moderator, a
 * support agent and someone in finance (an admin is in the matrix above; for every other
 * endpoint a team member is a member, which permissions.test.ts checks role by role). Requests
 * that pass the policy ask for something missing or refused afterwards, so nothing changes.
 */
describe('access matrix: the team’s roles', () => {
  const roles = ['moderator', 'support', 'finance'] as const
  const staff = {} as Record<(typeof roles)[number], string>
  beforeAll(async () => {
    for (const role of roles) staff[role] = await api.signToken((await member({ staff_role: role, last_sign_in_at: new Date() })).id)
  })

  const missing = '00000000-0000-4000-8000-000000000000'
  // prettier-ignore
  const cases: Array<{ method: Row['method']; path: () => string; statuses: string; body?: unknown }> = [
    //                                                                                            mod sup fin
    { method: 'GET', path: () => '/v1/admin/overview',                                           statuses: '200 200 200' },
    { method: 'GET', path: () => '/v1/admin/staff',                                              statuses: '403 403 403' },
    { method: 'POST', path: () => '/v1/admin/staff',                                             statuses: '403 403 403', body: { email: 'nobody@example.com', role: 'admin' } },
    { method: 'PUT', path: () => `/v1/admin/staff/${missing}`,                                   statuses: '403 403 403', body: { role: 'admin' } },
    { method: 'GET', path: () => '/v1/admin/reports',                                            statuses: '200 403 403' },
    { method: 'GET', path: () => `/v1/admin/reports/${ids.report}`,                              statuses: '200 403 403' },
    { method: 'GET', path: () => '/v1/verification/requests',                                    statuses: '200 404 404' },
    { method: 'GET', path: () => '/v1/admin/support',                                            statuses: '403 200 403' },
    { method: 'GET', path: () => `/v1/admin/support/${ids.support}`,                             statuses: '403 200 403' },
    { method: 'GET', path: () => '/v1/admin/fees',                                               statuses: '403 403 200' },
    { method: 'POST', path: () => `/v1/admin/fees/${missing}/waive`,                             statuses: '403 403 404', body: { reason: 'Matrix' } },
    { method: 'POST', path: () => `/v1/admin/fees/${missing}/refund`,                            statuses: '403 403 404', body: { reason: 'Matrix' } },
    { method: 'GET', path: () => '/v1/admin/partnerships',                                       statuses: '403 403 200' },
    { method: 'GET', path: () => `/v1/experiences/${ids.cancelled}`,                             statuses: '200 200 404' },
    { method: 'GET', path: () => `/v1/users/${ids.member}/experiences`,                          statuses: '200 200 200' },
    { method: 'GET', path: () => '/v1/admin/users?q=Mar',                                        statuses: '200 200 200' },
    { method: 'GET', path: () => `/v1/admin/users/${ids.member}`,                                statuses: '200 200 200' },
    { method: 'POST', path: () => `/v1/admin/users/${ids.bystander}/impersonation`,              statuses: '403 200 403', body: { reason: 'Matrix' } },
    { method: 'GET', path: () => '/v1/admin/flags',                                              statuses: '403 403 403' },
    { method: 'GET', path: () => '/v1/admin/flag-provider',                                      statuses: '403 403 403' },
    { method: 'GET', path: () => '/v1/admin/banners',                                            statuses: '403 403 403' },
    { method: 'POST', path: () => `/v1/admin/banners/${missing}/end`,                            statuses: '403 403 403' },
    { method: 'PUT', path: () => '/v1/admin/flags/matrix-flag',                                  statuses: '403 403 403', body: { description: '', enabled: true, rollout_percent: 100, variants: [], roles: [], regions: [], languages: [] } },
    { method: 'GET', path: () => '/v1/admin/dashboard',                                          statuses: '200 200 200' },
    { method: 'GET', path: () => '/v1/users/me/referrals',                                       statuses: '200 200 200' },
    { method: 'POST', path: () => `/v1/experiences/${ids.experience}/invite-friend`,             statuses: '403 403 403', body: { email: 'matrix-team@example.com' } },
    { method: 'GET', path: () => '/v1/admin/medicare/partner',                                   statuses: '403 403 200' },
    // The admin's details again: nothing changes for finance (200), the others are refused.
    { method: 'PUT', path: () => '/v1/admin/medicare/partner',                                   statuses: '403 403 200', body: { name: 'Matrix Agency', license: 'License 1', phone: '5035550100', disclaimer: 'Matrix.', organization_count: 1, plan_count: 2, callback_days: 2, active: true, notices_email: 'stops@matrix-agency.example' } },
    { method: 'GET', path: () => '/v1/admin/medicare/export?format=json',                        statuses: '403 403 200' },
    // Moderation's writes (review:reports): a report nobody filed is the moderator's 404.
    { method: 'POST', path: () => `/v1/admin/reports/${missing}/actions`,                        statuses: '404 403 403', body: { action: 'dismiss', reason: 'Matrix' } },
    // Identity checks (review:verification): the pending one and its photo for the moderator; the
    // two the admin decided above are decided (409); anyone else is told there is nothing (404).
    { method: 'GET', path: () => `/v1/verification/requests/${ids.verificationRequest}`,         statuses: '200 404 404' },
    { method: 'GET', path: () => `/v1/verification/requests/${ids.verificationRequest}/files/document`, statuses: '200 404 404' },
    { method: 'POST', path: () => `/v1/verification/requests/${ids.approvable}/approve`,         statuses: '409 404 404' },
    { method: 'POST', path: () => `/v1/verification/requests/${ids.rejectable}/reject`,          statuses: '409 404 404', body: { reason: 'The photo is blurred.' } },
    // The support inbox's writes (answer:support): a conversation that does not exist is support's 404.
    { method: 'POST', path: () => `/v1/admin/support/${missing}/messages`,                       statuses: '403 404 403', body: { text: 'An answer' } },
    { method: 'POST', path: () => `/v1/admin/support/${missing}/done`,                           statuses: '403 404 403' },
    // Fees (review:fees): charging a fee that does not exist is finance's 404.
    { method: 'POST', path: () => `/v1/admin/fees/${missing}/charge`,                            statuses: '403 403 404' },
    // Partnerships (manage:partnerships): finance reads one and adds one nobody is offered (inactive).
    { method: 'GET', path: () => `/v1/admin/partnerships/${ids.partnership}`,                    statuses: '403 403 200' },
    { method: 'POST', path: () => '/v1/admin/partnerships',                                      statuses: '403 403 200', body: { name: 'Matrix Team Partner', regions: ['OR'], active: false } },
    { method: 'PUT', path: () => `/v1/admin/partnerships/${missing}`,                            statuses: '403 403 404', body: { name: 'Matrix Partner', regions: ['OR'], active: true } },
    // Banners (manage:banners): admins only, whatever the body.
    { method: 'POST', path: () => '/v1/admin/banners',                                           statuses: '403 403 403', body: { title: { en: 'Matrix', fr: 'Matrice', nl: 'Matrix' }, body: { en: 'Matrix', fr: 'Matrice', nl: 'Matrix' }, ends_at: new Date(Date.now() + 86_400_000).toISOString(), area: { kind: 'everywhere' } } },
    { method: 'PUT', path: () => `/v1/admin/banners/${ids.banner}`,                              statuses: '403 403 403', body: { title: { en: 'Matrix', fr: 'Matrice', nl: 'Matrix' }, body: { en: 'Matrix', fr: 'Matrice', nl: 'Matrix' }, ends_at: new Date(Date.now() + 86_400_000).toISOString(), area: { kind: 'everywhere' } } },
    // The audit log (read:audit, decision 089): admins only.
    { method: 'GET', path: () => '/v1/admin/audit-log',                                          statuses: '403 403 403' },
    { method: 'GET', path: () => `/v1/admin/audit-log?member=${ids.member}`,                     statuses: '403 403 403' },
  ]
  const table = cases.flatMap((entry) => roles.map((role, index) => ({ label: `${entry.method} ${entry.path.toString().replace(/^\(\) => /, '')}`, role, status: Number(entry.statuses.split(' ')[index]), entry })))

  it.each(table)('$label as $role → $status', async ({ role, status, entry }) => {
    const response = await api.request(entry.method, entry.path(), { token: staff[role], ...(entry.body === undefined ? {} : { body: entry.body }) })
    expect(response.status).toBe(status)
  })

  it('has a case for every team-only endpoint of the OpenAPI document (`/v1/admin/…` and the identity-check queue)', async () => {
    const response = await api.request('GET', '/openapi.json')
    const teamOnly = Object.entries(response.json.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith('/v1/admin/') || path.startsWith('/v1/verification/requests'))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => ({ method: method.toUpperCase(), path })))
    expect(teamOnly.length).toBeGreaterThan(30)
    const matches = (template: string, url: string) => new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`).test(url.split('?')[0]!)
    const uncovered = teamOnly.filter(({ method, path }) => !cases.some((entry) => entry.method === method && matches(path, entry.path())))
    expect(uncovered.map(({ method, path }) => `${method} ${path}`)).toEqual([])
  })
})

/**
 * A member someone blocked (issue 14 §7): Bea attends an activity with Carl, who blocked her, and
 * shares a direct channel with him. What she may do is what any attendee may, except reach him —
 * refused exactly as for a member who cannot be messaged, so the block is never revealed
 * (decisions 030, 034). One status per row, for Bea.
 */
describe('access matrix: a blocked member', () => {
  const blocked = { token: '', ids: {} as Record<'experience' | 'group' | 'direct' | 'blocker' | 'blockerMessage', string> }

  beforeAll(async () => {
    const blocker = await member({ first_name: 'Carl', last_name: 'Barker' })
    const bea = await member({ first_name: 'Bea', last_name: 'Baker' })
    const host = await member()
    const activity = await experience(host.id)
    for (const attendee of [blocker, bea]) {
      await database.db.insertInto('experience_attendees').values({ experience_id: activity, user_id: attendee.id }).execute()
    }
    const group = await channel({ kind: 'experience', experience_id: activity }, [blocker.id, bea.id, host.id])
    const direct = await channel({ kind: 'direct', direct_key: 'matrix-blocked' }, [blocker.id, bea.id])
    const message = await database.db.insertInto('messages').values({ channel_id: direct, user_id: blocker.id, body: 'Hello Bea' }).returning('id').executeTakeFirstOrThrow()
    await database.db.insertInto('blocks').values({ blocker_id: blocker.id, blocked_id: bea.id }).execute()
    blocked.token = await api.signToken(bea.id)
    blocked.ids = { experience: activity, group, direct, blocker: blocker.id, blockerMessage: message.id }
  })

  const cases: Array<{ method: Row['method']; path: (ids: typeof blocked.ids) => string; status: number; body?: (ids: typeof blocked.ids) => unknown; what: string }> = [
    { what: 'joins the activity’s chat', method: 'PUT', path: (ids) => `/experiences/${ids.experience}/message-channels/join`, status: 200 },
    { what: 'reads the activity’s chat', method: 'GET', path: (ids) => `/message-channels/${ids.group}`, status: 200 },
    { what: 'writes in the activity’s chat', method: 'POST', path: (ids) => `/v1/chat/message-channels/${ids.group}/messages`, status: 201, body: () => ({ text: 'Hello all' }) },
    { what: 'reads the direct channel’s history', method: 'GET', path: (ids) => `/message-channels/${ids.direct}`, status: 200 },
    { what: 'cannot write in the direct channel', method: 'POST', path: (ids) => `/v1/chat/message-channels/${ids.direct}/messages`, status: 403, body: () => ({ text: 'Hello?' }) },
    { what: 'cannot open a new one', method: 'POST', path: () => '/users/message-channels', status: 404, body: (ids) => ({ user_id: ids.blocker }) },
    { what: 'is told only that they cannot message', method: 'GET', path: (ids) => `/v1/block/${ids.blocker}/me`, status: 200 },
    { what: 'may block back', method: 'PUT', path: (ids) => `/v1/block/${ids.blocker}`, status: 200 },
    { what: 'and unblock their own block', method: 'DELETE', path: (ids) => `/v1/block/${ids.blocker}`, status: 204 },
    { what: 'searches members to write to', method: 'GET', path: () => '/v1/chat/users?name=Ca', status: 200 },
    { what: 'may report the message they received', method: 'POST', path: () => '/v1/reported-contents', status: 201, body: (ids) => ({ reason: 'something_else', message_id: ids.blockerMessage }) },
    { what: 'reads their stream', method: 'GET', path: () => '/v1/chat/events?once=true', status: 200 },
  ]

  it.each(cases)('$what: $method → $status', async ({ method, path, status, body }) => {
    const response = await api.request(method, path(blocked.ids), { token: blocked.token, body: body?.(blocked.ids) })
    expect(response.status).toBe(status)
  })

  it('never lists the member who blocked them, and says only that they cannot message', async () => {
    const search = await api.request('GET', '/v1/chat/users?name=Ca', { token: blocked.token })
    expect(search.json.data.map((user: { id: string }) => user.id)).not.toContain(blocked.ids.blocker)
    const reach = await api.request('GET', `/v1/block/${blocked.ids.blocker}/me`, { token: blocked.token })
    expect(reach.json).toEqual({ can_message: false })
  })
})
