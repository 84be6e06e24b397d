import sharp from 'sharp'
import { PREMIUM_TERMS_VERSION } from '#contract/subscriptions.ts'
import { MEDICARE_CONSENT_VERSION } from '#contract/medicare-rules.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { redirectWithStep } from '#app/utils/identity-step.server.ts'
import type { IdentityBridge } from '#app/utils/load-context.ts'
import { createExperience, createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { wordingProblems } from '#tests/accessible-wording.ts'
import { htmlProblems } from '#tests/html-validate.ts'
import { createDocumentHandler } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import * as notFound from './$.tsx'
import * as identityCode from './_auth+/identity.$uid.code.tsx'
import * as identityPassword from './_auth+/identity.$uid._index.tsx'
import * as identityReset from './_auth+/identity.$uid.reset.tsx'
import * as identitySignUp from './_auth+/identity.$uid.signup.tsx'
import * as logout from './_auth+/logout.tsx'
import * as welcomeBack from './_auth+/welcome-back.tsx'
import * as company from './_content+/company.$page.tsx'
import * as legal from './_content+/legal.$page.tsx'
import * as home from './_index.tsx'
import * as account from './account+/_index.tsx'
import * as changeEmail from './account+/email.tsx'
import * as accountVerification from './account+/verification.tsx'
import * as notificationSettings from './account+/notification-settings.tsx'
import * as editProfile from './account+/edit.tsx'
import * as editProfileSection from './account+/edit_.$section.tsx'
import * as activity from './activities+/$id.tsx'
import * as adminHome from './admin+/_index.tsx'
import * as adminStaff from './admin+/staff.tsx'
import * as adminMembers from './admin+/members.tsx'
import * as adminFlags from './admin+/flags.tsx'
import * as adminAnalytics from './admin+/analytics.tsx'
import * as adminBanners from './admin+/banners.tsx'
import * as adminAudit from './admin+/audit.tsx'
import * as adminMember from './admin+/members_.$id.tsx'
import * as adminReports from './admin+/reports.tsx'
import * as adminReport from './admin+/reports_.$id.tsx'
import * as adminSupport from './admin+/support.tsx'
import * as adminSupportConversation from './admin+/support_.$id.tsx'
import * as helpChat from './help+/chat.tsx'
import * as helpCenter from './help+/_index.tsx'
import * as helpArticle from './help+/$slug.tsx'
import * as adminVerifications from './admin+/verifications.tsx'
import * as adminVerification from './admin+/verifications_.$id.tsx'
import * as editActivity from './activities+/$id_.edit.tsx'
import * as reportActivity from './activities+/$id_.report.tsx'
import * as survey from './activities+/$id_.survey.tsx'
import * as explore from './activities+/_index.tsx'
import * as attending from './attending.tsx'
import * as hostingNumbers from './attending_.numbers.tsx'
import * as createActivity from './create-activity.tsx'
import * as outbox from './dev+/outbox.tsx'
import * as phone from './account+/phone.tsx'
import * as payments from './account+/payments.tsx'
import * as checkout from './checkout.$id.tsx'
import * as fees from './account+/fees.tsx'
import * as attendance from './activities+/$id_.attendance.tsx'
import * as teamPayments from './admin+/payments.tsx'
import * as subscription from './account+/subscription.tsx'
import * as pricing from './pricing.tsx'
import * as referrals from './referrals.tsx'
import * as privacyChoices from './privacy-choices.tsx'
import * as subscriptionStep from './get-started+/subscription.tsx'
import * as adminPartners from './admin+/partners.tsx'
import * as medicare from './account+/medicare.tsx'
import * as medicareStep from './get-started+/medicare.tsx'
import * as adminMedicare from './admin+/medicare.tsx'
import * as duplicateActivity from './duplicate-activity.tsx'
import * as getStarted from './get-started+/_index.tsx'
import * as location from './get-started+/location.tsx'
import * as notificationsStep from './get-started+/notifications.tsx'
import * as profilePhotoStep from './get-started+/profile-photo.tsx'
import * as verificationStep from './get-started+/verification.tsx'
import * as onboarded from './get-started+/success.tsx'
import * as members from './members+/_index.tsx'
import * as messenger from './messenger+/_index.tsx'
import * as newMessage from './messenger+/new.tsx'
import * as reportMessage from './messenger+/report.tsx'
import * as profile from './p+/$slug.tsx'
import * as blockMember from './p+/$slug_.block.tsx'
import * as reportMember from './p+/$slug_.report.tsx'
import * as ownProfile from './p+/_index.tsx'

/**
 * The catalogue of page states (issue 30 §1): every page the web app draws, as a browser without
 * JavaScript gets it (the same HTML a browser with JavaScript starts from), signed out and signed
 * in, as host and as guest, and with form errors showing. Each state is drawn once per language
 * and checked once there:
 * - QUALITY.md: html-validate passes on every page (issue 11 §6). The end-to-end suite validates
 *   what it is sent as well; this is the quick, complete check.
 * - axe's rules that depend on wording (names, labels, titles, languages) in French and Dutch,
 *   without a browser (tests/accessible-wording.ts). English gets the whole audit, layout and
 *   colours included, in a browser with JavaScript on and off (tests/e2e/a11y.spec.ts and
 *   activities.spec.ts), the same markup the other languages fill with other words.
 */
const handle = createDocumentHandler(
  (
    [
      ['routes/_index', '', home],
      ['routes/activities+/_index', 'activities', explore],
      ['routes/activities+/$id', 'activities/:id', activity],
      ['routes/activities+/$id_.edit', 'activities/:id/edit', editActivity],
      ['routes/activities+/$id_.report', 'activities/:id/report', reportActivity],
      ['routes/activities+/$id_.survey', 'activities/:id/survey', survey],
      ['routes/attending', 'attending', attending],
      ['routes/attending_.numbers', 'attending/numbers', hostingNumbers],
      ['routes/create-activity', 'create-activity', createActivity],
      ['routes/duplicate-activity', 'duplicate-activity', duplicateActivity],
      ['routes/account+/_index', 'account', account],
      ['routes/account+/email', 'account/email', changeEmail],
      ['routes/account+/edit', 'account/edit', editProfile],
      ['routes/account+/edit_.$section', 'account/edit/:section', editProfileSection],
      ['routes/members+/_index', 'members', members],
      ['routes/p+/_index', 'p', ownProfile],
      ['routes/p+/$slug', 'p/:slug', profile],
      ['routes/p+/$slug_.report', 'p/:slug/report', reportMember],
      ['routes/p+/$slug_.block', 'p/:slug/block', blockMember],
      ['routes/messenger+/_index', 'messenger', messenger],
      ['routes/messenger+/new', 'messenger/new', newMessage],
      ['routes/messenger+/report', 'messenger/report', reportMessage],
      ['routes/admin+/_index', 'admin', adminHome],
      ['routes/admin+/reports', 'admin/reports', adminReports],
      ['routes/admin+/reports_.$id', 'admin/reports/:id', adminReport],
      ['routes/admin+/support', 'admin/support', adminSupport],
      ['routes/admin+/support_.$id', 'admin/support/:id', adminSupportConversation],
      ['routes/help+/chat', 'help/chat', helpChat],
      ['routes/help+/_index', 'help', helpCenter],
      ['routes/help+/$slug', 'help/:slug', helpArticle],
      ['routes/admin+/verifications', 'admin/verifications', adminVerifications],
      ['routes/admin+/verifications_.$id', 'admin/verifications/:id', adminVerification],
      ['routes/account+/verification', 'account/verification', accountVerification],
      ['routes/account+/phone', 'account/phone', phone],
      ['routes/account+/payments', 'account/payments', payments],
      ['routes/checkout.$id', 'checkout/:id', checkout],
      ['routes/account+/fees', 'account/fees', fees],
      ['routes/activities+/$id_.attendance', 'activities/:id/attendance', attendance],
      ['routes/admin+/payments', 'admin/payments', teamPayments],
      ['routes/account+/subscription', 'account/subscription', subscription],
      ['routes/pricing', 'pricing', pricing],
      ['routes/referrals', 'referrals', referrals],
      ['routes/privacy-choices', 'privacy-choices', privacyChoices],
      ['routes/get-started+/subscription', 'get-started/subscription', subscriptionStep],
      ['routes/admin+/partners', 'admin/partners', adminPartners],
      ['routes/account+/medicare', 'account/medicare', medicare],
      ['routes/get-started+/medicare', 'get-started/medicare', medicareStep],
      ['routes/admin+/medicare', 'admin/medicare', adminMedicare],
      ['routes/admin+/staff', 'admin/staff', adminStaff],
      ['routes/admin+/members', 'admin/members', adminMembers],
      ['routes/admin+/flags', 'admin/flags', adminFlags],
      ['routes/admin+/analytics', 'admin/analytics', adminAnalytics],
      ['routes/admin+/banners', 'admin/banners', adminBanners],
      ['routes/admin+/audit', 'admin/audit', adminAudit],
      ['routes/admin+/members_.$id', 'admin/members/:id', adminMember],
      ['routes/account+/notification-settings', 'account/notification-settings', notificationSettings],
      ['routes/get-started+/_index', 'get-started', getStarted],
      ['routes/get-started+/location', 'get-started/location', location],
      ['routes/get-started+/profile-photo', 'get-started/profile-photo', profilePhotoStep],
      ['routes/get-started+/verification', 'get-started/verification', verificationStep],
      ['routes/get-started+/notifications', 'get-started/notifications', notificationsStep],
      ['routes/get-started+/success', 'get-started/success', onboarded],
      ['routes/_auth+/welcome-back', 'welcome-back', welcomeBack],
      ['routes/_auth+/logout', 'logout', logout],
      ['routes/_auth+/identity.$uid._index', 'identity/:uid', identityPassword],
      ['routes/_auth+/identity.$uid.code', 'identity/:uid/code', identityCode],
      ['routes/_auth+/identity.$uid.reset', 'identity/:uid/reset', identityReset],
      ['routes/_auth+/identity.$uid.signup', 'identity/:uid/signup', identitySignUp],
      ['routes/_content+/company.$page', 'company/:page', company],
      ['routes/_content+/legal.$page', 'legal/:page', legal],
      ['routes/dev+/outbox', 'dev/outbox', outbox],
      ['routes/$', '*', notFound],
    ] as const
  ).map(([id, path, module]) => ({ id, path, module: module as never })),
)

let database: TestDatabase
let web: WebHarness
let member: string
let host: string
let invited: string
let activityId: string
let hostSlug: string
/** An activity that ended two hours ago, attended by the member: its survey. */
let pastId: string
/** A stranger's message request to the member, and the host's request for money in a conversation with the member. */
let request: { channel: string; message: string }
let moneyAsked: { channel: string; message: string }
/** The member's report of the money request, and an admin to read it. */
let reportId: string
/** The member's conversation with Circle 55 support. */
let supportChannel: string
/** A member whose identity check waits for the team, and that request. */
let verifying: string
let verificationId: string
let admin: string
let memberId: string
/** A member the catalogue's member has blocked: the block page offers to unblock. */
let blockedSlug: string
/** An activity in three hours that the member holds a seat at: cancelling now is late. */
let soonId: string
/** The member's cards (a Visa, the default, and an expired Discover), the hosted card page of a setup, and one waiting for the bank's confirmation. */
let cardId: string
let checkoutId: string
let confirmingId: string
/** An activity with a $12 no-show fee the member may save a seat at (with their Visa). */
let feeActivityId: string
/** Premium (decision 074): a partner's offer for Portland's state, the hosted page of a paid plan, an admin with premium to cancel. */
let premiumCheckoutId: string
/** The sign-in pages' kept step: a code sent to margaret@example.com, for sign-in and for sign-up. */
let codeSentForSignIn: string
let codeSentForSignUp: string
/** The members above, whose saved language the pages are drawn in. */
let users: string[] = []

/** A sign-in prompt that exists, for the identity pages; nothing here signs anyone in. */
const notUsed = () => Promise.reject(new Error('not used by this test'))
const identity: IdentityBridge = {
  interaction: async (uid) => (uid === 'prompt-1' ? { uid, prompt: 'login', screenHint: null, loginHint: null, language: null, clientName: 'Circle 55' } : null),
  finish: notUsed,
  abort: notUsed,
  verifyPassword: async () => ({ error: 'invalid' }),
  sendCode: async () => ({ ok: true }),
  verifyCode: async () => ({ error: 'invalid' }),
  startSignUp: async () => ({ ok: true }),
  resendSignUp: async () => ({ ok: true }),
  confirmSignUp: async () => ({ error: 'invalid' }),
  resetPassword: async () => ({ error: 'invalid' }),
  endSession: async () => {},
}

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
  web.services.identity = identity
  web.services.config = { ...web.services.config, devOutbox: 'loopback' }
  web.services.outbox = async () => [{ id: '1', to: 'margaret@example.com', subject: 'Your code', text: 'Your code is 123456.', createdAt: new Date().toISOString(), delivery: { status: 'retrying', attempts: 2, error: '451 Try again later' } }]
  web.services.smsOutbox = async () => [{ id: '2', to: '+15035550142', text: 'Your walk is tomorrow. Reply C to cancel your seat.', kind: 'reminder', aboutActivity: true, createdAt: new Date().toISOString() }]
  const stepCookie = async (sent: 'sign_in' | 'sign_up') =>
    (await redirectWithStep(web.newContext(), '/', { uid: 'prompt-1', email: 'margaret@example.com', sent })).headers.get('set-cookie')?.split(';')[0] ?? ''
  codeSentForSignIn = await stepCookie('sign_in')
  codeSentForSignUp = await stepCookie('sign_up')
  // Neighbours in Portland, so that Members lists them; names with accents, as members have.
  const portland = { lat: 45.5152, long: -122.6784, city: 'Portland', region: 'OR' }
  const hostUser = await createUser(database.db, { first_name: 'Hélène', last_name: 'Dubois-Lefèvre', ...portland })
  const memberUser = await createUser(database.db, { first_name: 'Walter', last_name: 'Brooks', phone: '+15035550142', ...portland })
  hostSlug = hostUser.slug
  // A shared interest, so that each is among the other's "members near you".
  await database.db.insertInto('user_interests').values([hostUser.id, memberUser.id].map((user_id) => ({ user_id, interest: 'gardening' as const }))).execute()
  const blockedUser = await createUser(database.db, { first_name: 'Joost', last_name: 'de Vries', ...portland })
  blockedSlug = blockedUser.slug
  expect((await web.api.request('PUT', `v1/block/${blockedUser.id}`, { token: await web.api.signToken(memberUser.id) })).status).toBeLessThan(300)
  host = await web.signedInCookie(hostUser.id)
  member = await web.signedInCookie(memberUser.id)
  memberId = memberUser.id
  const created = await web.api.request('POST', 'v1/experiences', {
    token: await web.api.signToken(hostUser.id),
    body: {
      title: 'Watercolour morning',
      description: 'Bring a brush.',
      start_date: new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10),
      start_time: '10:00',
      venue_type: 'in_person',
      place_id: 'us-or-portland',
      formatted_address: '1000 SW Broadway, Portland, OR 97205',
      max_attendees: 8,
    },
  })
  expect(created.status).toBe(201)
  activityId = (created.json.data[0] as { id: string }).id
  const attended = await web.api.request('POST', `v1/experiences/${activityId}/attendees`, { token: await web.api.signToken(memberUser.id), body: { user_id: memberUser.id } })
  expect(attended.status).toBeLessThan(300)
  const invitedUser = await createUser(database.db)
  invited = await web.signedInCookie(invitedUser.id)
  const invitation = await web.api.request('POST', `v1/experiences/${activityId}/attendees/create-by-emails`, {
    token: await web.api.signToken(hostUser.id),
    body: { emails: [invitedUser.email] },
  })
  expect(invitation.json.data[0].invited_if_member).toEqual([invitedUser.email])
  const start = new Date(Math.ceil((Date.now() + 3 * 3_600_000) / 300_000) * 300_000)
  soonId = (await createExperience(database.db, hostUser.id, { title: 'Tea in the rose garden', no_show_fee_cents: 500, start_at: start, end_at: new Date(start.getTime() + 2 * 3_600_000) })).id
  // Seated by the team, so not bound by its fee (decision 075): the late-cancel warning says so.
  const team = await createUser(database.db, { staff_role: 'admin' })
  const seat = await web.api.request('POST', `v1/experiences/${soonId}/attendees`, { token: await web.api.signToken(team.id), body: { user_id: memberUser.id } })
  expect(seat.status).toBeLessThan(300)
  // An activity that ended two hours ago, which the member attended: the survey, and its banner on Home.
  const past = new Date(Date.now() - 4 * 3_600_000)
  pastId = (await createExperience(database.db, hostUser.id, { title: 'Morning walk by the river', start_at: past, end_at: new Date(past.getTime() + 2 * 3_600_000), attendees_count: 1 })).id
  await database.db.insertInto('experience_attendees').values({ experience_id: pastId, user_id: memberUser.id }).execute()
  /** A form the member's browser posts: its answer's status, and where it leads. */
  const posted = async (path: string, form: Record<string, string>) =>
    handle(new Request(`${TEST_PUBLIC_URL}${path}`, { method: 'POST', headers: { cookie: member }, body: new URLSearchParams(form) }), web.newContext())
  const send = async (path: string, form: Record<string, string>) => (await posted(path, form)).status
  // Codes on their way: the email change's and the phone's code steps.
  expect(await send('/account/email', { intent: 'send', email: 'walter.brooks@example.org' })).toBe(302)
  expect(await send('/account/phone', { intent: 'send' })).toBe(302)
  // Messages: a stranger's request to the member, and the host asking the member for money (the
  // scam shield's warning), which the member reports for the team's pages.
  const said = async (from: string, to: string, text: string) => {
    const token = await web.api.signToken(from)
    const opened = await web.api.request('POST', 'users/message-channels', { token, body: { user_id: to } })
    const channel = (opened.json as { data: [{ id: string }] }).data[0].id
    const sent = await web.api.request('POST', `v1/chat/message-channels/${channel}/messages`, { token, body: { text } })
    expect(sent.status, text).toBe(201)
    return { channel, message: (sent.json as { data: [{ id: string }] }).data[0].id }
  }
  request = await said(invitedUser.id, memberUser.id, 'Hello Walter, I saw you at the walk. Shall we have coffee one morning?')
  moneyAsked = await said(hostUser.id, memberUser.id, 'Could you send me $500 in gift cards? I’ll pay you back')
  expect(await send(`/messenger/report?channel=${moneyAsked.channel}&message=${moneyAsked.message}`, { reason: 'fake_or_scam', details: 'Asked for gift cards.' })).toBe(302)
  reportId = (await database.db.selectFrom('reports').select('id').where('reporter_id', '=', memberUser.id).executeTakeFirstOrThrow()).id
  // The member writes to Circle 55 support (the team's inbox).
  const opened = await posted('/messenger/new', { to: 'support' })
  supportChannel = new URL(opened.headers.get('location') ?? '', TEST_PUBLIC_URL).searchParams.get('channel') ?? ''
  // Cards: one saved through the built-in hosted page, an expired one, and two pages left open.
  const memberToken = await web.api.signToken(memberUser.id)
  const startSetup = async () => {
    const started = await web.api.request('POST', 'v1/payment-methods/setup', { token: memberToken })
    const setup = (started.json as { data: [{ id: string; redirect_url: string }] }).data[0]
    return { id: setup.id, checkout: new URL(setup.redirect_url).pathname.replace('/checkout/', '') }
  }
  const typed = (number: string) => ({ token: memberToken, body: { number, expiry: '08/40', cvc: '123', postal_code: '97201' } })
  const first = await startSetup()
  await web.api.request('POST', `v1/payments/checkout/${first.checkout}/card`, typed('4242424242424242'))
  cardId = (await web.api.request('GET', `v1/payment-methods/setup/${first.id}`, { token: memberToken })).json.data[0].payment_method.id
  await database.db.insertInto('payment_methods').values({ user_id: memberUser.id, provider: 'builtin', provider_ref: 'card_expired', brand: 'discover', last4: '1117', exp_month: 3, exp_year: 2024 }).execute()
  checkoutId = (await startSetup()).checkout
  confirmingId = (await startSetup()).checkout
  await web.api.request('POST', `v1/payments/checkout/${confirmingId}/card`, typed('4000002500003155'))
  // No-show fees: an activity with one, and a fee of the member's at the past activity, disputed.
  feeActivityId = (await createExperience(database.db, hostUser.id, { title: 'Atelier d’aquarelle', no_show_fee_cents: 1250 })).id
  const consent = await database.db
    .insertInto('fee_consents')
    .values({ user_id: memberUser.id, experience_id: pastId, amount_cents: 1200, policy_version: 'v', text_shown: 'I agree', language: 'en', payment_method_id: cardId })
    .returning('id')
    .executeTakeFirstOrThrow()
  await database.db
    .insertInto('no_show_fees')
    .values({ user_id: memberUser.id, experience_id: pastId, consent_id: consent.id, reason: 'no_show', amount_cents: 1200, status: 'disputed', dispute_text: 'I was there.', charge_on: new Date(Date.now() + 2 * 86_400_000) })
    .execute()
  expect(await send(`/messenger?index&channel=${supportChannel}`, { intent: 'send', channel: supportChannel, text: 'How do I change my email address?' })).toBe(302)
  // A member who sent the identity check's two photos: waiting for the team.
  const verifyingUser = await createUser(database.db, { first_name: 'Margaret', last_name: 'Hughes' })
  verifying = await web.signedInCookie(verifyingUser.id)
  const photos = new FormData()
  photos.set('intent', 'photos')
  for (const [name, colour] of [['document', '#2a5d8f'], ['selfie', '#c98a5b']] as const) {
    const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: colour } }).jpeg().toBuffer()
    photos.set(name, new File([new Uint8Array(jpeg)], `${name}.jpg`, { type: 'image/jpeg' }))
  }
  const sentPhotos = await handle(new Request(`${TEST_PUBLIC_URL}/account/verification`, { method: 'POST', headers: { cookie: verifying }, body: photos }), web.newContext())
  expect(sentPhotos.status).toBe(302)
  verificationId = (await database.db.selectFrom('verifications').select('id').where('user_id', '=', verifyingUser.id).executeTakeFirstOrThrow()).id
  const adminUser = await createUser(database.db, { first_name: 'Diane', last_name: 'Okafor', staff_role: 'admin' })
  admin = await web.signedInCookie(adminUser.id)
  await database.db.insertInto('partnerships').values({ name: 'Cascade Senior Care', regions: ['OR'], price_cents: 0, regular_price_cents: 2000 }).execute()
  await database.db
    .insertInto('subscriptions')
    .values({ user_id: adminUser.id, plan: 'premium', status: 'active', price_cents: 2000, provider: 'builtin', current_period_end: new Date(Date.now() + 200 * 86_400_000) })
    .execute()
  const paying = await web.api.request('POST', 'v1/subscriptions/initiate', {
    token: await web.api.signToken(verifyingUser.id),
    body: { consent_to_renewal: true, consent_text_version: PREMIUM_TERMS_VERSION, consent_text: 'Premium renews each year until you cancel.' },
  })
  premiumCheckoutId = new URL((paying.json as { data: [{ redirect_url: string }] }).data[0].redirect_url).pathname.replace('/checkout/', '')
  // Medicare calls (decision 086): an agency named by the team, and the member waiting for the team agreed to its call.
  const named = await web.api.request('PUT', 'v1/admin/medicare/partner', {
    token: await web.api.signToken(adminUser.id),
    body: { name: 'Evergreen Benefits Agency', license: 'Oregon license 1234567', phone: '5035550100', disclaimer: 'Evergreen is not affiliated with any plan.', organization_count: 3, plan_count: 14, callback_days: 2, active: true, notices_email: 'stops@evergreen-benefits.example' },
  })
  expect(named.status).toBe(200)
  const agreed = await web.api.request('POST', 'v1/users/me/medicare', {
    token: await web.api.signToken(verifyingUser.id),
    body: { phone: '503 555 0177', topics: ['hearing', 'vision'], agree: true, version: MEDICARE_CONSENT_VERSION, partner_revision: 1 },
  })
  expect(agreed.status).toBe(201)
  users = [hostUser.id, memberUser.id, invitedUser.id, blockedUser.id, verifyingUser.id, adminUser.id]
}, 60_000)

afterAll(async () => {
  await web?.close()
  await database?.drop()
})

interface Visit {
  path: string
  cookie?: () => string
  status?: number
  language?: string
  form?: Record<string, string>
  multipart?: boolean
  /** Markup the state is known by (its label's promise, in any language), when it is not the page's plain view. */
  shows?: string
}

async function draw(visit: Visit) {
  const headers = new Headers({ 'accept-language': visit.language ?? 'en' })
  if (visit.cookie) headers.set('cookie', visit.cookie())
  let body: BodyInit | undefined
  if (visit.form) {
    const form = new FormData()
    for (const [name, value] of Object.entries(visit.form)) form.set(name, value)
    if (visit.multipart) form.set('cover', new File([], ''))
    body = visit.multipart ? form : new URLSearchParams(visit.form)
  }
  const response = await handle(new Request(`${TEST_PUBLIC_URL}${visit.path}`, { method: visit.form ? 'POST' : 'GET', headers, body }), web.newContext())
  const html = await response.text()
  // Vitest does not bundle CSS, so root's `app.css?url` import is empty here; the build gives
  // it an /assets/ address. Exactly that one link is put back as the build writes it.
  const stylesheet = '<link rel="stylesheet" href=""/>'
  expect(html.split(stylesheet), `${visit.path}: the root stylesheet link, once`).toHaveLength(2)
  return { status: response.status, html: html.replace(stylesheet, '<link rel="stylesheet" href="/assets/app.css"/>') }
}

const asMember = () => member
const asHost = () => host

const visits = (): Record<string, Visit> => ({
  'home, signed out': { path: '/' },
  'home, signed in': { path: '/', cookie: asMember },
  'explore, signed out': { path: '/activities' },
  'explore in French, signed in, with a city search': { path: '/activities?q=Portland&date=this-week', cookie: asMember, language: 'fr' },
  'explore in Dutch, a city that does not exist': { path: '/activities?q=Nowhereville', language: 'nl' },
  'explore, nothing today near a city far from every activity': { path: '/activities?date=today&distance=2&q=Juneau%2C+AK', cookie: asMember },
  'activity, signed out': { path: `/activities/${activityId}` },
  'activity, as a guest who is going': { path: `/activities/${activityId}`, cookie: asMember },
  'activity, as its host': { path: `/activities/${activityId}`, cookie: asHost },
  'activity, as its host, after inviting by email': {
    path: `/activities/${activityId}`,
    cookie: asHost,
    form: { intent: 'invite-by-emails', emails: 'nobody@example.com, someone@example.com' },
  },
  'activity in French, as a member invited to it': { path: `/activities/${activityId}`, cookie: () => invited, language: 'fr' },
  'activity starting within 12 hours, as a guest who is going': { path: `/activities/${soonId}`, cookie: asMember, shows: 'name="intent" value="cancel"' },
  'activity, cancelling within 12 hours, confirmed on its own page': { path: `/activities/${soonId}?confirm=cancel`, cookie: asMember },
  'activity, as its host, confirming its cancellation': { path: `/activities/${activityId}?confirm=cancel-activity`, cookie: asHost },
  'edit activity': { path: `/activities/${activityId}/edit`, cookie: asHost },
  'edit activity, with every error showing': { path: `/activities/${activityId}/edit`, cookie: asHost, status: 400, form: { title: '', venueType: '' }, multipart: true },
  'report activity': { path: `/activities/${activityId}/report`, cookie: asMember },
  'report activity, with errors': { path: `/activities/${activityId}/report`, cookie: asMember, status: 400, form: { reason: '' } },
  'my activities': { path: '/attending', cookie: asMember },
  'my activities, past': { path: '/attending?type=past', cookie: asMember },
  'my activities, hosting': { path: '/attending?hosting=true', cookie: asHost, shows: 'id="hosting-numbers"' },
  'my activities in numbers': { path: '/attending/numbers', cookie: asHost, language: 'fr', shows: 'id="hosting-attendance"' },
  'create activity': { path: '/create-activity', cookie: asMember },
  'create activity, with every error showing': { path: '/create-activity', cookie: asMember, status: 400, form: { title: '', venueType: 'in_person', q: 'Portl' }, multipart: true },
  'duplicate activity': { path: `/duplicate-activity?from=${activityId}`, cookie: asHost },
  account: { path: '/account', cookie: asMember },
  'notification settings': { path: '/account/notification-settings', cookie: asMember },
  'how was it: the survey': { path: `/activities/${pastId}/survey`, cookie: asMember },
  'how was it: the survey, with errors': { path: `/activities/${pastId}/survey`, cookie: asMember, status: 400, form: { rating: '5', feedback: 'x'.repeat(1001) } },
  'edit profile': { path: '/account/edit', cookie: asMember },
  ...Object.fromEntries(['name', 'about', 'interests', 'prompts', 'city', 'phone', 'privacy', 'language'].map((section) => [`edit profile: ${section}`, { path: `/account/edit/${section}`, cookie: asMember }])),
  'edit profile: name, with errors': { path: '/account/edit/name', cookie: asMember, status: 400, form: { intent: 'name', firstName: '', lastName: '' } },
  members: { path: '/members', cookie: asMember },
  'members, a search that finds nobody': { path: '/members?name=zzz', cookie: asMember },
  'own profile': { path: '/p', cookie: asMember },
  'a profile': { path: `/p/${hostSlug}`, cookie: asMember },
  'a profile, signed out': { path: `/p/${hostSlug}` },
  'report a member': { path: `/p/${hostSlug}/report`, cookie: asMember },
  'report a member, with errors': { path: `/p/${hostSlug}/report`, cookie: asMember, status: 400, form: { reason: '' } },
  'block a member': { path: `/p/${hostSlug}/block`, cookie: asMember },
  'unblock a member': { path: `/p/${blockedSlug}/block`, cookie: asMember, shows: 'value="unblock"' },
  messages: { path: '/messenger', cookie: asMember },
  'messages, a request from a stranger': { path: `/messenger?channel=${request.channel}`, cookie: asMember, shows: 'name="intent" value="accept"' },
  'messages, waiting for an answer': { path: `/messenger?channel=${request.channel}`, cookie: () => invited },
  'messages, the sender’s list': { path: '/messenger', cookie: () => invited },
  'messages, an empty message refused': { path: `/messenger?index&channel=${request.channel}`, cookie: () => invited, status: 400, form: { intent: 'send', channel: request.channel, text: ' ' } },
  'messages, leaving confirmed first': { path: `/messenger?channel=${request.channel}&confirm=leave`, cookie: () => invited },
  'messages, warned about a request for money': { path: `/messenger?channel=${moneyAsked.channel}`, cookie: asMember, shows: 'class="scam-warning' },
  'messages, reminded before sharing a phone number': { path: `/messenger?index&channel=${moneyAsked.channel}`, cookie: asHost, status: 409, form: { intent: 'send', channel: moneyAsked.channel, text: 'Text me on 503 555 0142' }, shows: 'id="message-text-reminder"' },
  'report a message': { path: `/messenger/report?channel=${request.channel}&message=${request.message}`, cookie: asMember },
  'report a conversation, with errors': { path: `/messenger/report?channel=${request.channel}`, cookie: asMember, status: 400, form: { details: 'Asks to meet alone.' } },
  'messages, with Circle 55 support': { path: `/messenger?channel=${supportChannel}`, cookie: asMember },
  'the team: support inbox': { path: '/admin/support', cookie: () => admin },
  'the team: a support conversation': { path: `/admin/support/${supportChannel}`, cookie: () => admin, shows: 'How do I change my email address?' },
  'the team: a support answer left empty': { path: `/admin/support/${supportChannel}`, cookie: () => admin, status: 400, form: { intent: 'answer', text: '  ' } },
  'help chat, signed out': { path: '/help/chat', shows: 'mailto:' },
  'help chat, the member’s conversation with support': { path: '/help/chat', cookie: asMember, shows: 'How do I change my email address?' },
  'help chat, an empty message refused': { path: '/help/chat', cookie: asMember, status: 400, form: { text: '  ' }, shows: 'href="#help-text"' },
  // The help center (decision 088): its list, a search that finds (in every language), one that does not; an
  // article with numbered steps and one without (every article is drawn by the same parts), a missing one.
  'help center': { path: '/help', shows: 'role="search"' },
  'help center, articles found': { path: '/help?q=premium', shows: '<mark>' },
  'help center, no article matches': { path: '/help?q=xylophone', shows: 'data-testid="help-no-match"' },
  'help article with steps': { path: '/help/safety-and-scams', cookie: asMember, shows: 'id="verified-badge"' },
  'help article': { path: '/help/finding-other-members-at-activities', shows: 'id="still-need-help"' },
  'help article not found': { path: '/help/no-such-article', status: 404 },
  'identity check': { path: '/account/verification', cookie: asMember },
  'identity check, with a photo missing': { path: '/account/verification', cookie: asMember, status: 400, form: { intent: 'photos' }, multipart: true },
  'identity check, waiting for the team': { path: '/account/verification', cookie: () => verifying },
  'the team: identity checks': { path: '/admin/verifications', cookie: () => admin },
  'the team: an identity check': { path: `/admin/verifications/${verificationId}`, cookie: () => admin, shows: 'value="reject"' },
  'the team: an identity check refused without its reason': { path: `/admin/verifications/${verificationId}`, cookie: () => admin, status: 400, form: { intent: 'reject', reason: ' ' } },
  'the team: home': { path: '/admin', cookie: () => admin, shows: 'href="/admin/staff"' },
  'the team: numbers': { path: '/admin/analytics', cookie: () => admin, language: 'nl', shows: 'id="sign-ups"' },
  'the team: feature flags': { path: '/admin/flags', cookie: () => admin, language: 'nl', shows: 'id="flag-impersonation"' },
  'the team: banners': { path: '/admin/banners', cookie: () => admin, language: 'fr', shows: 'id="new-banner"' },
  'the team: the audit log': { path: '/admin/audit', cookie: () => admin, language: 'nl', shows: 'id="audit-caption"' },
  'the team: a banner with a wrong city': { path: '/admin/banners', cookie: () => admin, status: 400, form: { intent: 'create', title_en: 'Hi', title_fr: 'Salut', title_nl: 'Hoi', body_en: 'Hi', body_fr: 'Salut', body_nl: 'Hoi', ends_at: '2099-01-01T00:00', area: 'circle', city: 'Xqzvwkj', radius: '25', audience: 'everyone' } },
  'the team: a flag with a wrong key': { path: '/admin/flags', cookie: () => admin, status: 400, form: { key: 'Not a key', rollout: '50', variants: '', regions: '' } },
  'the team: members found': { path: '/admin/members?q=Walter', cookie: () => admin, shows: 'Walter Brooks' },
  'the team: a member': { path: `/admin/members/${memberId}`, cookie: () => admin, shows: 'name="reason"' },
  'the team: viewing as a member without a reason': { path: `/admin/members/${memberId}`, cookie: () => admin, status: 400, form: { reason: ' ' } },
  'the team: the roles': { path: '/admin/staff', cookie: () => admin, language: 'fr', shows: 'name="role"' },
  'the team: a role for an unknown email': { path: '/admin/staff', cookie: () => admin, status: 422, form: { intent: 'add', email: 'nobody@example.com', role: 'support' }, language: 'nl', shows: 'value="nobody@example.com"' },
  'the team: reports': { path: '/admin/reports', cookie: () => admin },
  'the team: a report': { path: `/admin/reports/${reportId}`, cookie: () => admin, shows: 'Could you send me $500 in gift cards?' },
  'the team: a report, an action without its reason': { path: `/admin/reports/${reportId}`, cookie: () => admin, status: 400, form: { intent: 'remove_message', reason: ' ' } },
  'new message': { path: '/messenger/new', cookie: asMember },
  'new message, a name that finds nobody': { path: '/messenger/new?name=zzz', cookie: asMember },
  'account, confirm deletion': { path: '/account?confirm=delete', cookie: asMember },
  'change email': { path: '/account/email', cookie: asMember, language: 'fr' },
  'change email, with errors': { path: '/account/email', cookie: asMember, status: 400, form: { intent: 'send', email: 'not an email' } },
  'change email, the code step': { path: '/account/email?step=code', cookie: asMember },
  'change email, a wrong code': { path: '/account/email', cookie: asMember, status: 400, form: { intent: 'verify', code: '12' }, language: 'nl' },
  'phone confirmation, no phone yet': { path: '/account/phone', cookie: () => invited },
  'phone confirmation': { path: '/account/phone', cookie: asMember, language: 'fr' },
  'phone confirmation, the code step': { path: '/account/phone?step=code', cookie: asMember },
  'phone confirmation, a wrong code': { path: '/account/phone', cookie: asMember, status: 400, form: { intent: 'verify', code: '12' }, language: 'nl' },
  'payment cards, none yet': { path: '/account/payments', cookie: () => invited, shows: 'data-testid="no-cards"' },
  'payment cards': { path: '/account/payments', cookie: asMember, language: 'fr', shows: 'Visa •••• 4242' },
  'payment cards, removing one asks first': { path: `/account/payments?remove=${cardId}`, cookie: asMember, shows: 'id="remove-question"' },
  'hosted card page': { path: `/checkout/${checkoutId}`, cookie: asMember, shows: 'name="number"' },
  'hosted card page, with every error showing': { path: `/checkout/${checkoutId}`, cookie: asMember, status: 400, form: { intent: 'card', number: '4242', expiry: '13/20', cvc: '1', postalCode: 'x' } },
  'hosted card page, a declined card': { path: `/checkout/${checkoutId}`, cookie: asMember, status: 400, form: { intent: 'card', number: '4000000000000002', expiry: '08/40', cvc: '123', postalCode: '97201' }, language: 'nl' },
  'activity with a no-show fee, the agreement next to the button': { path: `/activities/${feeActivityId}`, cookie: asMember, language: 'fr', shows: 'id="fee-consent"' },
  'activity with a no-show fee, without a card': { path: `/activities/${feeActivityId}`, cookie: () => invited, shows: 'value="add-card"' },
  'who came, as the host after the activity': { path: `/activities/${pastId}/attendance`, cookie: asHost, shows: 'type="radio"' },
  'my fees': { path: '/account/fees', cookie: asMember, language: 'nl' },
  'my fees, none': { path: '/account/fees', cookie: () => invited, shows: 'data-testid="no-fees"' },
  'the team: payments and fees': { path: '/admin/payments', cookie: () => admin, shows: 'I was there.' },
  'the team: waiving a fee without a reason': { path: '/admin/payments', cookie: () => admin, status: 400, form: { intent: 'waive', id: '00000000-0000-4000-8000-000000000000', reason: '' } },
  'hosted card page, the bank asks the member to confirm': { path: `/checkout/${confirmingId}`, cookie: asMember, language: 'fr', shows: 'value="confirm"' },
  'pricing, signed out': { path: '/pricing', shows: '$20' },
  'invite friends (decision 087)': { path: '/referrals', cookie: asMember, language: 'nl', shows: 'data-testid="referral-counts"' },
  'your privacy choices (decision 081)': { path: '/privacy-choices', shows: 'data-testid="consent-status"' },
  'your privacy choices, an answer that is neither': { path: '/privacy-choices', status: 400, form: { choice: 'maybe' }, language: 'fr' },
  'pricing, with a partner’s offer': { path: '/pricing', cookie: asMember, language: 'fr', shows: 'name="partnership_id"' },
  'subscription, the offer and the paid plan': { path: '/account/subscription', cookie: asMember, language: 'nl', shows: 'id="consent"' },
  'subscription, joining without the consent box ticked': { path: '/account/subscription', cookie: asMember, status: 400, form: { intent: 'join' }, language: 'fr', shows: 'id="consent-error"' },
  'subscription, premium': { path: '/account/subscription', cookie: () => admin, language: 'nl', shows: '<dd>' },
  'subscription, cancelling asks first': { path: '/account/subscription?cancel=1', cookie: () => admin, language: 'fr', shows: 'id="cancel-question"' },
  'hosted payment page, premium': { path: `/checkout/${premiumCheckoutId}`, cookie: () => verifying, language: 'nl', shows: 'name="number"' },
  'calls about Medicare plans (decision 086)': { path: '/account/medicare', cookie: asMember, language: 'fr', shows: 'name="agree"' },
  'calls about Medicare plans, with every error showing': { path: '/account/medicare', cookie: asMember, status: 400, form: { intent: 'give', phone: '' }, shows: 'id="medicare-agree-error"' },
  'calls about Medicare plans, agreed': { path: '/account/medicare', cookie: () => verifying, language: 'nl', shows: 'data-testid="medicare-given"' },
  'get started, calls about Medicare plans': { path: '/get-started/medicare', cookie: asMember, language: 'nl', shows: 'value="skip"' },
  'the team: Medicare calls': { path: '/admin/medicare', cookie: () => admin, shows: 'href="/admin/medicare/export"' },
  'the team: the Medicare agency with errors': { path: '/admin/medicare', cookie: () => admin, status: 400, form: { name: ' ', phone: '', callback_days: '0' }, language: 'fr' },
  'the team: partners': { path: '/admin/partners', cookie: () => admin, language: 'fr', shows: 'Cascade Senior Care' },
  'the team: a partner with errors': { path: '/admin/partners', cookie: () => admin, status: 400, form: { name: ' ', regions: 'Oregon' }, language: 'nl' },
  'get started, premium': { path: '/get-started/subscription', cookie: asMember, language: 'nl', shows: 'name="partnership_id"' },
  'get started': { path: '/get-started', cookie: asMember },
  'get started, with errors': { path: '/get-started', cookie: asMember, status: 400, form: { phone: 'not a phone' } },
  'get started, home city': { path: '/get-started/location', cookie: asMember },
  'get started, home city not found': { path: '/get-started/location', cookie: asMember, status: 400, form: { intent: 'save', q: 'Qwxzzy' } },
  'get started, profile photo': { path: '/get-started/profile-photo', cookie: asMember },
  'get started, profile photo with no photo chosen': { path: '/get-started/profile-photo', cookie: asMember, status: 400, form: { photo: '' }, multipart: true },
  'get started, identity check': { path: '/get-started/verification', cookie: asMember },
  'get started, notifications': { path: '/get-started/notifications', cookie: asMember, language: 'nl' },
  'get started, done': { path: '/get-started/success', cookie: asMember },
  'welcome back': { path: '/welcome-back', cookie: asMember },
  'sign out': { path: '/logout', cookie: asMember },
  'sign in': { path: '/identity/prompt-1' },
  'sign in, wrong password': { path: '/identity/prompt-1', status: 400, form: { email: 'margaret@example.com', password: 'not the password' } },
  'sign in with a code': { path: '/identity/prompt-1/code' },
  'sign in with a code, the code step': { path: '/identity/prompt-1/code?step=verify', cookie: () => codeSentForSignIn },
  'sign in with a code, a new code sent': { path: '/identity/prompt-1/code?step=verify&notice=resent', cookie: () => codeSentForSignIn },
  'reset the password': { path: '/identity/prompt-1/reset' },
  'sign up': { path: '/identity/prompt-1/signup' },
  'sign up, the code step': { path: '/identity/prompt-1/signup?step=code', cookie: () => codeSentForSignUp },
  'sign up, the code step with a wrong code': { path: '/identity/prompt-1/signup?step=code', cookie: () => codeSentForSignUp, status: 400, form: { intent: 'confirm', email: 'margaret@example.com', code: '000000' } },
  'sign up, with errors': { path: '/identity/prompt-1/signup', status: 400, form: { intent: 'details', firstName: '', email: 'not an email', birthMonth: '2', birthDay: '30', birthYear: '1950' } },
  'about': { path: '/company/about' },
  'community guidelines': { path: '/company/community-guidelines' },
  'attendance policy': { path: '/company/attendance-policy' },
  privacy: { path: '/legal/privacy' },
  terms: { path: '/legal/terms' },
  'development outbox': { path: '/dev/outbox' },
  'page not found': { path: '/no-such-page', status: 404 },
  'activity not found': { path: '/activities/00000000-0000-4000-8000-000000000000', cookie: asMember, status: 404 },
})

describe('every page is valid HTML (html-validate, .htmlvalidate.json)', () => {
  it('signed out and in, as host and guest, with and without form errors, in en, fr and nl', async () => {
    const problems: string[] = []
    for (const [label, visit] of Object.entries(visits())) {
      const { status, html } = await draw(visit)
      expect(status, label).toBe(visit.status ?? 200)
      expect(html, label).toMatch(/^<!DOCTYPE html>/i)
      if (visit.shows) expect(html, label).toContain(visit.shows)
      for (const problem of await htmlProblems(html)) problems.push(`${label} (${visit.path}): ${problem}`)
    }
    expect(problems).toEqual([])
  }, 120_000)
})

/** Runs `check` with the catalogue's members reading the site in `language` (their saved language wins over the browser's). */
async function readingIn(language: 'fr' | 'nl', check: () => Promise<void>) {
  await database.db.updateTable('users').set({ locale: language }).where('id', 'in', users).execute()
  try {
    await check()
  } finally {
    await database.db.updateTable('users').set({ locale: 'en' }).where('id', 'in', users).execute()
  }
}

describe('every page’s wording is accessible in French and Dutch (axe’s wording rules)', () => {
  it.each(['fr', 'nl'] as const)('%s: signed out and in, as host and guest, with and without form errors', async (language) => {
    await readingIn(language, async () => {
      const problems: string[] = []
      for (const [label, visit] of Object.entries(visits())) {
        const { status, html } = await draw({ ...visit, language })
        expect(status, label).toBe(visit.status ?? 200)
        if (visit.shows) expect(html, label).toContain(visit.shows)
        expect(html, `${label}: drawn in ${language}`).toMatch(new RegExp(`^<!DOCTYPE html><html lang="${language}"`, 'i'))
        for (const problem of await wordingProblems(html)) problems.push(`${label} (${visit.path}): ${problem}`)
      }
      expect(problems).toEqual([])
    })
  }, 120_000)

  it.each([
    ['fr', '14 h'],
    ['nl', '14 uur'],
  ] as const)('%s: the create form’s hours read the way the language tells time (%s)', async (language, two) => {
    await readingIn(language, async () => {
      const { html } = await draw({ path: '/create-activity', cookie: asMember, language })
      expect(html).toContain(`<option value="14">${two}</option>`)
    })
  })
})
