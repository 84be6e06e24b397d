import { spawn } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { setupServer } from 'msw/node'
import { createDatabase, migrateToLatest, type DB } from '../api/db/database.ts'
import { startEmbeddedPostgres } from '../api/db/embedded.ts'
import { chargeDueFees } from '../api/fees/service.ts'
import { createLogger } from '../api/logger.ts'
import { createNotifier } from '../api/notifications/service.ts'
import { applyPaymentEvent } from '../api/payments/webhook.ts'
import { createBuiltinPayments } from '../api/providers/payments/builtin.ts'
import type { PaymentsProvider } from '../api/providers/payments/provider.ts'
import { createStripePayments } from '../api/providers/payments/stripe.ts'
import { stripePaymentsHandlers, type TestCard } from '../tests/msw/stripe-payments.ts'
import { loadLine, numberOption, root } from './bench-helpers.ts'

/**
 * `npm run bench:payments` (issue 31 §5): payments at scale, printed as figures (a benchmark, not a
 * timed test), on an embedded PostgreSQL of its own (.data/bench-payments-pg).
 *
 * 1. Webhooks: Stripe (msw handlers written from its API reference, in this process) holds N card
 *    setups finished on Checkout, some of whose cards were detached afterwards. Their 10,000
 *    signed deliveries (`checkout.session.completed`, `payment_method.detached`; 20% of them sent
 *    twice) are applied, signature checked, by `applyPaymentEvent`, eight at a time: once in the
 *    order they happened into one database, once shuffled into another. The two databases must end
 *    with the same cards (member, card, removed or not, default or not); the time of each.
 * 2. Fees: 2,000 due no-show fees on the built-in bank are charged by a separate process
 *    (`chargeDueFees`), killed (SIGKILL) once about a third are recorded, possibly between the
 *    bank's charge and our record; a second run charges the rest. Every fee must end charged
 *    exactly once (one bank charge per fee, its reference on the fee); the time of both runs.
 *
 * Options (flag or environment variable, defaults in brackets):
 *   --events=N   BENCH_PAYMENTS_EVENTS   webhook deliveries in all, duplicates included [10000]
 *   --fees=N     BENCH_PAYMENTS_FEES     due fees to charge [2000]
 */
const { values: flags } = parseArgs({
  options: { events: { type: 'string' }, fees: { type: 'string' }, 'charge-worker': { type: 'string' } },
  allowPositionals: false,
})
const here = fileURLToPath(import.meta.url)

// The killed process of part 2: charges the due fees of the database it is given, then exits.
if (flags['charge-worker']) {
  const { db } = createDatabase(flags['charge-worker'], { statementTimeoutMs: 0, max: 4 })
  const logger = createLogger({ LOG_LEVEL: 'warn', NODE_ENV: 'production' })
  const notify = createNotifier({ db, queue: { send: async () => {} } })
  await chargeDueFees({ db, notify, logger, payments: createBuiltinPayments({ db, publicUrl: 'http://localhost' }) })
  await db.destroy()
  process.exit(0)
}

const eventCount = numberOption(flags.events, 'BENCH_PAYMENTS_EVENTS', 10_000)
const feeCount = numberOption(flags.fees, 'BENCH_PAYMENTS_FEES', 2_000)
const dataDir = '.data/bench-payments-pg'
const logger = createLogger({ LOG_LEVEL: 'warn', NODE_ENV: 'production' })
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

console.log(`Starting (${loadLine()})`)
rmSync(path.join(root, dataDir), { recursive: true, force: true })
const pg = await startEmbeddedPostgres({ dataDir })
const admin = createDatabase(pg.url, { statementTimeoutMs: 0 })
const databases: Array<ReturnType<typeof createDatabase>> = []
async function freshDatabase(name: string) {
  await sql.raw(`CREATE DATABASE ${name}`).execute(admin.db)
  const url = new URL(pg.url)
  url.pathname = `/${name}`
  const made = createDatabase(url.toString(), { statementTimeoutMs: 0 })
  databases.push(made)
  await migrateToLatest(made.db)
  return { db: made.db, url: url.toString() }
}

const summary: string[] = []
try {
  // 1. Webhooks ---------------------------------------------------------------------------------
  const secretKey = 'sk_test_bench'
  const webhookSecret = 'whsec_bench'
  const stripe = stripePaymentsHandlers({ secretKey, webhookSecret })
  const mockServer = setupServer(...stripe.handlers)
  mockServer.listen({ onUnhandledRequest: 'error' })
  const payments = createStripePayments({ secretKey, webhookSecret })
  const unique = Math.round(eventCount / 1.25)
  const duplicates = eventCount - unique
  // Each member: a setup completed (one event); three in five of them: the card detached later (a second event).
  const members = Math.round(unique / 1.6)
  const detachedMembers = unique - members
  const cards: TestCard[] = ['pm_card_visa', 'pm_card_mastercard', 'pm_card_amex']
  const ordered = await freshDatabase('bench_in_order')
  const shuffled = await freshDatabase('bench_shuffled')

  const seedStarted = performance.now()
  const history: Array<{ payload: string; signature: string }> = []
  const people = Array.from({ length: members }, (_, index) => ({ id: randomUUID(), index }))
  for (const { db } of [ordered, shuffled]) {
    for (let start = 0; start < people.length; start += 1000) {
      await db
        .insertInto('users')
        .values(people.slice(start, start + 1000).map(({ id, index }) => ({ id, auth_subject: id, email: `bench-${index}@example.test`, slug: `bench-${index}`, first_name: 'Bench', last_name: `Member ${index}`, state: 'active' as const })))
        .execute()
    }
  }
  const setups: Array<{ userId: string; customer: string; sessionId: string }> = []
  for (const person of people) {
    const customer = await payments.ensureCustomer({ id: person.id, email: `bench-${person.index}@example.test`, name: 'Bench' }, null)
    const started = await payments.startCardSetup({ customer, userId: person.id, successUrl: 'http://localhost/account/payments', cancelUrl: 'http://localhost/account/payments', locale: 'en' })
    setups.push({ userId: person.id, customer, sessionId: started.ref })
  }
  for (const { db } of [ordered, shuffled]) {
    for (let start = 0; start < setups.length; start += 1000) {
      const batch = setups.slice(start, start + 1000)
      await db.insertInto('payment_customers').values(batch.map((setup) => ({ user_id: setup.userId, provider: 'stripe', customer_ref: setup.customer }))).execute()
      await db.insertInto('card_setups').values(batch.map((setup) => ({ user_id: setup.userId, provider: 'stripe', provider_ref: setup.sessionId, return_path: '/account/payments' }))).execute()
    }
  }
  // What happened at Stripe, in order: every setup finished, then some cards detached.
  const completed = setups.map((setup, index) => stripe.completeSetup(setup.sessionId, cards[index % cards.length]!))
  for (const done of completed) history.push(stripe.event('checkout.session.completed', done.session))
  for (const done of completed.slice(0, detachedMembers)) {
    await payments.detachCard(done.paymentMethod.id)
    history.push(stripe.event('payment_method.detached', { ...done.paymentMethod, customer: null } as typeof done.paymentMethod))
  }
  // Stripe sends some twice: right after the first, in the ordered run; anywhere, shuffled.
  const again = shuffle([...history]).slice(0, duplicates)
  const inOrder = history.flatMap((delivery) => (again.includes(delivery) ? [delivery, delivery] : [delivery]))
  const mixed = shuffle([...inOrder])
  console.log(`Seeded ${members} card setups at Stripe (${detachedMembers} cards detached since) in ${seconds(performance.now() - seedStarted)}`)

  const apply = async (db: DB, deliveries: typeof history) => {
    const started = performance.now()
    const deps = { db, payments, logger, publicUrl: 'http://localhost', notify: createNotifier({ db, queue: { send: async () => {} } }) }
    let next = 0
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < deliveries.length) {
          const delivery = deliveries[next++]!
          await applyPaymentEvent(deps, (payments as Required<PaymentsProvider>).parseWebhook(delivery.payload, delivery.signature))
        }
      }),
    )
    return performance.now() - started
  }
  const orderedMs = await apply(ordered.db, inOrder)
  const shuffledMs = await apply(shuffled.db, mixed)
  const state = (db: DB) =>
    db
      .selectFrom('payment_methods')
      .select(['user_id', 'provider_ref', 'last4', 'is_default', sql<boolean>`removed_at IS NULL`.as('active')])
      .orderBy('user_id')
      .orderBy('provider_ref')
      .execute()
  const [a, b] = [await state(ordered.db), await state(shuffled.db)]
  const same = JSON.stringify(a) === JSON.stringify(b)
  const active = a.filter((card) => card.active).length
  summary.push(
    `Webhooks: ${inOrder.length} deliveries (${unique} events, ${duplicates} sent twice): in order ${seconds(orderedMs)} (${Math.round(inOrder.length / (orderedMs / 1000))}/s), shuffled ${seconds(shuffledMs)} (${Math.round(mixed.length / (shuffledMs / 1000))}/s)`,
    `  final state: ${a.length} cards (${active} active, ${a.length - active} removed) — ${same ? 'the same in both orders' : 'DIFFERENT between the orders'}`,
  )
  mockServer.close()

  // 2. Fees, with the charging process killed once -------------------------------------------------
  const fees = await freshDatabase('bench_fees')
  const feeSeedStarted = performance.now()
  const hostId = randomUUID()
  await fees.db.insertInto('users').values({ id: hostId, auth_subject: hostId, email: 'bench-host@example.test', slug: 'bench-host', first_name: 'Host', last_name: 'Bench', state: 'active' }).execute()
  const experience = await fees.db
    .insertInto('experiences')
    .values({ slug: 'bench-walk', title: 'Bench walk', venue_type: 'in_person', host_id: hostId, start_at: new Date(Date.now() - 4 * 86_400_000), no_show_fee_cents: 1500 })
    .returning('id')
    .executeTakeFirstOrThrow()
  for (let start = 0; start < feeCount; start += 500) {
    const batch = Array.from({ length: Math.min(500, feeCount - start) }, (_, offset) => ({ id: randomUUID(), index: start + offset, token: `card_${randomBytes(12).toString('hex')}` }))
    await fees.db
      .insertInto('users')
      .values(batch.map(({ id, index }) => ({ id, auth_subject: id, email: `fee-${index}@example.test`, slug: `fee-${index}`, first_name: 'Fee', last_name: `Member ${index}`, state: 'active' as const })))
      .execute()
    await fees.db.insertInto('payment_customers').values(batch.map(({ id }) => ({ user_id: id, provider: 'builtin', customer_ref: `cus_builtin_${id}` }))).execute()
    await fees.db
      .insertInto('builtin_vault_cards')
      .values(batch.map(({ id, token }) => ({ token, customer: `cus_builtin_${id}`, brand: 'visa' as const, last4: '4242', exp_month: 12, exp_year: 2040 })))
      .execute()
    const cardsMade = await fees.db
      .insertInto('payment_methods')
      .values(batch.map(({ id, token }) => ({ user_id: id, provider: 'builtin', provider_ref: token, brand: 'visa' as const, last4: '4242', exp_month: 12, exp_year: 2040, is_default: true })))
      .returning(['id', 'user_id'])
      .execute()
    const consents = await fees.db
      .insertInto('fee_consents')
      .values(cardsMade.map((card) => ({ user_id: card.user_id, experience_id: experience.id, amount_cents: 1500, policy_version: 'bench', text_shown: 'I agree', language: 'en', payment_method_id: card.id })))
      .returning(['id', 'user_id'])
      .execute()
    await fees.db
      .insertInto('no_show_fees')
      .values(consents.map((consent) => ({ user_id: consent.user_id, experience_id: experience.id, consent_id: consent.id, reason: 'no_show' as const, amount_cents: 1500, status: 'noticed' as const, charge_on: new Date(Date.now() - 60_000) })))
      .execute()
  }
  console.log(`Seeded ${feeCount} due fees in ${seconds(performance.now() - feeSeedStarted)}`)

  const charged = async () => Number((await fees.db.selectFrom('no_show_fees').select((eb) => eb.fn.countAll<string>().as('n')).where('status', '=', 'charged').executeTakeFirstOrThrow()).n)
  const chargeStarted = performance.now()
  const worker = spawn(process.execPath, [here, `--charge-worker=${fees.url}`], { stdio: 'inherit' })
  const exited = new Promise<number | null>((resolve) => worker.on('exit', (code) => resolve(code)))
  const bankCharges = async () => Number((await fees.db.selectFrom('builtin_charges').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n)
  let atKill = -1
  let third: number | null = null
  while (worker.exitCode === null) {
    const now = await charged()
    if (now >= feeCount / 3) {
      third ??= performance.now()
      // Past a third: killed the moment the bank has charged a fee we have not recorded yet (the
      // crash between the two), or after two seconds of trying.
      if ((await bankCharges()) > now || performance.now() - third > 2000) {
        worker.kill('SIGKILL')
        atKill = now
        break
      }
      continue
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  await exited
  const firstRunMs = performance.now() - chargeStarted
  const bankBefore = await bankCharges()
  const recordedBefore = await charged()
  const secondStarted = performance.now()
  await chargeDueFees({ db: fees.db, notify: createNotifier({ db: fees.db, queue: { send: async () => {} } }), logger, payments: createBuiltinPayments({ db: fees.db, publicUrl: 'http://localhost' }) })
  const secondRunMs = performance.now() - secondStarted
  const check = await sql<{ fees: string; charged: string; bank: string; matched: string; keys: string }>`
    SELECT (SELECT count(*) FROM no_show_fees) AS fees,
      (SELECT count(*) FROM no_show_fees WHERE status = 'charged') AS charged,
      (SELECT count(*) FROM builtin_charges) AS bank,
      (SELECT count(*) FROM no_show_fees f JOIN builtin_charges c ON c.ref = f.provider_ref AND c.idempotency_key = 'noshow:' || f.id) AS matched,
      (SELECT count(DISTINCT idempotency_key) FROM builtin_charges) AS keys
  `.execute(fees.db)
  const row = check.rows[0]!
  const exactlyOnce = Number(row.charged) === feeCount && Number(row.bank) === feeCount && Number(row.matched) === feeCount && Number(row.keys) === feeCount
  summary.push(
    `Fees: ${feeCount} due fees; the charging process was killed ${atKill >= 0 ? `with ${atKill} recorded (${bankBefore} charged at the bank, so ${bankBefore - recordedBefore} charged but not yet recorded)` : 'too late: it had finished'} after ${seconds(firstRunMs)}; the second run took ${seconds(secondRunMs)}`,
    `  ${row.charged} charged, ${row.bank} bank charges, ${row.matched} fees with their own charge — ${exactlyOnce ? 'every fee charged exactly once' : 'NOT charged exactly once'}`,
  )
} finally {
  for (const made of databases) await made.db.destroy()
  await admin.db.destroy()
  await pg.stop()
}
console.log('')
for (const line of summary) console.log(line)

function shuffle<T>(items: T[]) {
  for (let index = items.length - 1; index > 0; index--) {
    const other = Math.floor(Math.random() * (index + 1))
    ;[items[index], items[other]] = [items[other]!, items[index]!]
  }
  return items
}
