import { randomUUID } from 'node:crypto'
import type { FeatureDefinitions } from '@growthbook/growthbook'
import { OpenFeature } from '@openfeature/server-sdk'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { growthbookHandlers } from '#tests/msw/growthbook.ts'
import { GrowthBookFlagProvider, type GrowthBookFlagOptions } from './growthbook.ts'

/**
 * GrowthBook as the flag provider (decision 080), against its SDK endpoint as documented: one
 * fetch of the definitions, each member evaluated here on the built-in provider's context (id,
 * role, region, language), variants, and the caller's default whenever GrowthBook cannot help.
 */
const apiHost = 'https://growthbook.test'
const clientKey = 'sdk-circle55'
const decryptionKey = Buffer.alloc(16, 7).toString('base64')
const features: FeatureDefinitions = {
  impersonation: { defaultValue: true },
  'help-panel': {
    defaultValue: false,
    rules: [{ condition: { role: { $in: ['support', 'admin'] } }, force: true }, { force: true, coverage: 0.5, hashAttribute: 'id' }],
  },
  'oregon-only': { defaultValue: false, rules: [{ condition: { region: 'OR' }, force: true }] },
  'calm-colours': {
    defaultValue: 'classic',
    rules: [
      { condition: { language: 'fr' }, force: 'calm' },
      { key: 'calm-colours', variations: ['calm', 'bright'], weights: [0.5, 0.5], coverage: 1, hashAttribute: 'id', meta: [{ key: 'calm' }, { key: 'bright' }] },
    ],
  },
}
const growthbook = growthbookHandlers({ apiHost, clientKey, features })
const encrypted = growthbookHandlers({ apiHost: 'https://encrypted.growthbook.test', clientKey, features, decryptionKey })
const server = setupServer(...growthbook.handlers, ...encrypted.handlers)

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  growthbook.down.value = false
  growthbook.latency.value = 0
  growthbook.features.value = features
  growthbook.requests.length = 0
})
afterAll(() => server.close())

function logs() {
  const lines: { level: 'warn' | 'info'; message: string }[] = []
  return { lines, warn: (_: object, message: string) => lines.push({ level: 'warn', message }), info: (_: object, message: string) => lines.push({ level: 'info', message }) }
}

/** A provider on a clock of the test's own, behind an OpenFeature client as the API uses it. */
function connect(options: Partial<GrowthBookFlagOptions> = {}) {
  const clock = { now: 1_000_000 }
  const logger = logs()
  const provider = new GrowthBookFlagProvider({ apiHost, clientKey, refreshMs: 30_000, retryMs: 5_000, logger, now: () => clock.now, ...options })
  const domain = `growthbook-${randomUUID()}`
  OpenFeature.setProvider(domain, provider)
  return { provider, client: OpenFeature.getClient(domain), clock, logger }
}

const member = (id: string, overrides: Record<string, string> = {}) => ({ targetingKey: id, role: 'member', region: 'WA', language: 'en', ...overrides })
const visitor = { targetingKey: '', role: 'visitor', region: '', language: 'en' }

describe('GrowthBook as the flag provider', () => {
  it('fetches the definitions once and evaluates every member here, by id, role, region and language', async () => {
    const { client } = connect()
    expect(await client.getBooleanValue('oregon-only', false, member(randomUUID(), { region: 'OR' }))).toBe(true)
    expect(await client.getBooleanValue('oregon-only', false, member(randomUUID()))).toBe(false)
    expect(await client.getBooleanValue('help-panel', false, member(randomUUID(), { role: 'support' }))).toBe(true)
    expect(await client.getStringValue('calm-colours', 'none', member(randomUUID(), { language: 'fr' }))).toBe('calm')

    // Half the members by a stable hash of their id; the same member always gets the same answer.
    const ids = Array.from({ length: 2_000 }, () => randomUUID())
    const on = new Set<string>()
    for (const id of ids) if (await client.getBooleanValue('help-panel', false, member(id))) on.add(id)
    expect(on.size).toBeGreaterThan(800)
    expect(on.size).toBeLessThan(1_200)
    for (const id of ids.slice(0, 200)) expect(await client.getBooleanValue('help-panel', false, member(id))).toBe(on.has(id))

    // A string feature is a flag with variants: on, and its value is the member's variant.
    const details = await client.getBooleanDetails('calm-colours', false, member(ids[0]!))
    expect(details.value).toBe(true)
    expect(['calm', 'bright']).toContain(details.variant)
    expect(await client.getStringValue('calm-colours', 'none', member(ids[0]!))).toBe(details.variant)

    // A visitor has no id: left out of rollouts and experiments, as with the built-in provider.
    expect(await client.getBooleanValue('help-panel', false, visitor)).toBe(false)
    expect(await client.getStringValue('calm-colours', 'none', visitor)).toBe('classic')

    // One request for all of that, and nothing about a member in it.
    expect(growthbook.requests).toHaveLength(1)
    expect(growthbook.requests[0]).toMatchObject({ method: 'GET', body: '' })
    expect(growthbook.requests[0]!.url.href).toBe(`${apiHost}/api/features/${clientKey}`)
  })

  it('answers the caller’s default for a flag GrowthBook does not define, and lists the keys it does', async () => {
    const { client, provider } = connect()
    const details = await client.getBooleanDetails('not-in-growthbook', true, member(randomUUID()))
    expect(details).toMatchObject({ value: true, errorCode: 'FLAG_NOT_FOUND' })
    expect(await provider.keys()).toEqual(['calm-colours', 'help-panel', 'impersonation', 'oregon-only'])
    expect(await provider.reachable()).toBe(true)
  })

  it('waits for its first fetch instead of answering “off until synchronised”', async () => {
    growthbook.latency.value = 150
    const { client, provider } = connect()
    void provider.refresh()
    const [oregon, support] = await Promise.all([
      client.getBooleanValue('oregon-only', false, member(randomUUID(), { region: 'OR' })),
      client.getBooleanValue('help-panel', false, member(randomUUID(), { role: 'support' })),
    ])
    expect([oregon, support]).toEqual([true, true])
    expect(growthbook.requests).toHaveLength(1)
  })

  it('GrowthBook unreachable from the start: every flag answers its default, nothing throws, logged once, and it recovers', async () => {
    growthbook.down.value = 'network'
    const { client, clock, logger, provider } = connect()
    const details = await client.getBooleanDetails('oregon-only', false, member(randomUUID(), { region: 'OR' }))
    expect(details).toMatchObject({ value: false, errorCode: 'PROVIDER_NOT_READY' })
    expect(await client.getBooleanValue('impersonation', true, member(randomUUID()))).toBe(true)
    expect(await client.getStringValue('calm-colours', 'classic', member(randomUUID(), { language: 'fr' }))).toBe('classic')
    expect(await provider.keys()).toEqual([])
    expect(await provider.reachable()).toBe(false)
    // Within the retry pause nobody waits on GrowthBook again.
    expect(growthbook.requests).toHaveLength(1)
    expect(logger.lines).toEqual([{ level: 'warn', message: 'GrowthBook cannot be reached: every feature flag answers its default' }])

    growthbook.down.value = 503
    clock.now += 5_000
    expect(await client.getBooleanValue('oregon-only', false, member(randomUUID(), { region: 'OR' }))).toBe(false)
    expect(logger.lines).toHaveLength(1)

    growthbook.down.value = false
    clock.now += 5_000
    expect(await client.getBooleanValue('oregon-only', false, member(randomUUID(), { region: 'OR' }))).toBe(true)
    expect(logger.lines.at(-1)).toEqual({ level: 'info', message: 'GrowthBook answers again: feature flags are up to date' })
  })

  it('keeps its last definitions while GrowthBook cannot be reached, and reads a change once they are old', async () => {
    const { client, clock, logger } = connect()
    const oregonian = member(randomUUID(), { region: 'OR' })
    expect(await client.getBooleanValue('oregon-only', false, oregonian)).toBe(true)
    growthbook.features.value = { ...features, 'oregon-only': { defaultValue: false } }

    // Fresh for 30 seconds: no request, the same answer.
    clock.now += 29_000
    expect(await client.getBooleanValue('oregon-only', false, oregonian)).toBe(true)
    expect(growthbook.requests).toHaveLength(1)

    // Older: the last answer once more while the change is fetched, then the change.
    clock.now += 2_000
    expect(await client.getBooleanValue('oregon-only', false, oregonian)).toBe(true)
    await expect.poll(() => client.getBooleanValue('oregon-only', false, oregonian)).toBe(false)
    expect(growthbook.requests).toHaveLength(2)

    // GrowthBook down with definitions in hand: they stay, and the outage is logged once.
    growthbook.down.value = 'network'
    growthbook.features.value = features
    clock.now += 31_000
    await client.getBooleanValue('oregon-only', false, oregonian)
    await expect.poll(() => logger.lines.length).toBe(1)
    expect(logger.lines[0]).toEqual({ level: 'warn', message: 'GrowthBook cannot be reached: feature flags keep their last definitions' })
    expect(await client.getBooleanValue('oregon-only', false, oregonian)).toBe(false)
  })

  it('gives up on a fetch that takes too long, and on a client key GrowthBook does not know', async () => {
    growthbook.latency.value = 500
    const slow = connect({ timeoutMs: 50 })
    const started = performance.now()
    expect(await slow.client.getBooleanValue('impersonation', false, member(randomUUID()))).toBe(false)
    expect(performance.now() - started).toBeLessThan(400)
    expect(slow.logger.lines).toHaveLength(1)

    growthbook.latency.value = 0
    const wrongKey = connect({ clientKey: 'sdk-wrong' })
    expect(await wrongKey.client.getBooleanDetails('impersonation', false, member(randomUUID()))).toMatchObject({ value: false, errorCode: 'PROVIDER_NOT_READY' })
    expect(wrongKey.logger.lines).toHaveLength(1)
  })

  it('reads an encrypted payload with the SDK connection’s decryption key', async () => {
    const { client } = connect({ apiHost: 'https://encrypted.growthbook.test', decryptionKey })
    expect(await client.getBooleanValue('oregon-only', false, member(randomUUID(), { region: 'OR' }))).toBe(true)
    expect(encrypted.requests).toHaveLength(1)
    const missingKey = connect({ apiHost: 'https://encrypted.growthbook.test' })
    expect(await missingKey.client.getBooleanValue('oregon-only', false, member(randomUUID(), { region: 'OR' }))).toBe(false)
    expect(missingKey.logger.lines).toHaveLength(1)
  })
})
