import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewUser } from '#api/db/schema.ts'
import { parseEnv } from '#api/env.ts'
import { createFlagProvider } from '#api/providers.ts'
import { createApiHarness, TEST_PUBLIC_URL, type ApiHarness, signedInMember } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { growthbookHandlers } from '#tests/msw/growthbook.ts'
import { PostgresFlagProvider } from './provider.ts'
import { setFlagProvider } from './service.ts'

/**
 * The API with GrowthBook as its flag provider (FLAGS_PROVIDER=growthbook, decision 080): members
 * read GrowthBook's flags through the same `GET v1/flags` and the same callers (the impersonation
 * kill switch), admins are told the flags live there and cannot change them here, and GrowthBook
 * out of reach never turns into an error.
 */
const apiHost = 'https://growthbook.test'
const growthbook = growthbookHandlers({
  apiHost,
  clientKey: 'sdk-circle55',
  features: {
    impersonation: { defaultValue: false },
    'calm-colours': { defaultValue: false, rules: [{ condition: { language: 'fr', region: 'OR' }, force: true }] },
    palette: { defaultValue: 'classic', rules: [{ condition: { role: 'support' }, force: 'bright' }] },
  },
})
const server = setupServer(...growthbook.handlers)
const env = parseEnv({ NODE_ENV: 'test', PUBLIC_URL: TEST_PUBLIC_URL, FLAGS_PROVIDER: 'growthbook', GROWTHBOOK_API_HOST: apiHost, GROWTHBOOK_CLIENT_KEY: 'sdk-circle55' })

let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' })
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  setFlagProvider(database.db, createFlagProvider(env, database.db))
})

afterAll(async () => {
  server.close()
  await database?.drop()
})

/** A member signed in to the API (`call` with their token). */
const person = (overrides: Partial<NewUser> = {}) => signedInMember(api, { last_sign_in_at: new Date(), ...overrides })

const change = { description: 'Calmer colours', enabled: true, rollout_percent: 100, variants: [], roles: [], regions: [], languages: [] }

describe('flags from GrowthBook', () => {
  it('answers each caller GrowthBook’s flags, evaluated on the server, and never for a cache', async () => {
    const frenchOregonian = await person({ region: 'OR', locale: 'fr' })
    const support = await person({ staff_role: 'support', region: 'WA', locale: 'en' })
    const mine = await frenchOregonian.call('GET', 'v1/flags')
    expect(mine.headers.get('cache-control')).toBe('no-store')
    // GrowthBook's keys, not the built-in table's (which holds `impersonation` only, and others).
    expect(mine.json.data[0]).toEqual({ 'calm-colours': { on: true, variant: null }, impersonation: { on: false, variant: null }, palette: { on: true, variant: 'classic' } })
    expect((await support.call('GET', 'v1/flags')).json.data[0]).toMatchObject({ 'calm-colours': { on: false, variant: null }, palette: { on: true, variant: 'bright' } })
    expect((await api.request('GET', 'v1/flags')).json.data[0]['calm-colours']).toEqual({ on: false, variant: null })
  })

  it('turns viewing as members off from GrowthBook, through the same kill switch', async () => {
    const support = await person({ staff_role: 'support' })
    const ann = await person()
    const refused = await support.call('POST', `v1/admin/users/${ann.user.id}/impersonation`, { reason: 'Help' })
    expect(refused.status).toBe(409)
    expect(refused.json.error.code).toBe('impersonation_off')
  })

  it('tells admins the flags live in GrowthBook, and refuses to list or change them here', async () => {
    const admin = await person({ staff_role: 'admin' })
    const member = await person()
    const where = await admin.call('GET', 'v1/admin/flag-provider')
    expect(where.json.data[0]).toEqual({ provider: 'growthbook', editable: false, reachable: true, keys: ['calm-colours', 'impersonation', 'palette'] })
    expect((await member.call('GET', 'v1/admin/flag-provider')).status).toBe(403)

    const saved = await admin.call('PUT', 'v1/admin/flags/calm-colours', change)
    expect(saved.status).toBe(409)
    expect(saved.json.error.code).toBe('flags_managed_by_vendor')
    expect(saved.json.error.message).toContain('GrowthBook')
    expect((await admin.call('GET', 'v1/admin/flags')).json.error.code).toBe('flags_managed_by_vendor')
    expect(await database.db.selectFrom('feature_flags').select('key').where('key', '=', 'calm-colours').execute()).toEqual([])
    expect(await database.db.selectFrom('audit_log').select('id').where('action', '=', 'flag.save').execute()).toEqual([])
  })

  it('GrowthBook out of reach: pages get no flag, callers their defaults, and nothing fails', async () => {
    growthbook.down.value = 'network'
    const provider = createFlagProvider(env, database.db)
    setFlagProvider(database.db, provider)
    try {
      const admin = await person({ staff_role: 'admin' })
      const support = await person({ staff_role: 'support' })
      const bob = await person()
      const flags = await support.call('GET', 'v1/flags')
      expect(flags.status).toBe(200)
      expect(flags.json.data[0]).toEqual({})
      // The kill switch's default is on: the team can still help while GrowthBook is away.
      expect((await support.call('POST', `v1/admin/users/${bob.user.id}/impersonation`, { reason: 'Help' })).status).toBe(200)
      expect((await admin.call('GET', 'v1/admin/flag-provider')).json.data[0]).toEqual({ provider: 'growthbook', editable: false, reachable: false, keys: [] })
    } finally {
      growthbook.down.value = false
    }
  })

  it('with the built-in provider, admins are told they edit the flags here', async () => {
    setFlagProvider(database.db, new PostgresFlagProvider(database.db))
    const admin = await person({ staff_role: 'admin' })
    expect((await admin.call('GET', 'v1/admin/flag-provider')).json.data[0]).toMatchObject({ provider: 'builtin', editable: true, reachable: true })
    expect((await admin.call('PUT', 'v1/admin/flags/calm-colours', change)).status).toBe(200)
  })
})
