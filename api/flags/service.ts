import type { EvaluatedFlags, FeatureFlag, FeatureFlagBody, FlagProviderInfo } from '#contract/flags.ts'
import { flagKeyPattern } from '#contract/flags.ts'
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { requirePermission, roleOf, type Caller } from '../policy/permissions.ts'
import { createFlags, type FlagProvider, type Flags } from './provider.ts'

/**
 * Feature flags (issue 32 §3, decision 079): asked through OpenFeature's client, evaluated on the
 * server for the caller (their id, role, region and language), never sent to a browser unless a
 * page needs one. Admins edit them at `/admin/flags`, each change audited.
 */
const clients = new WeakMap<DB, Flags>()
/** The OpenFeature client of this database's flags (one per runtime, and one per test database). */
export function flagsFor(db: DB): Flags {
  let flags = clients.get(db)
  if (!flags) {
    flags = createFlags(db)
    clients.set(db, flags)
  }
  return flags
}

/**
 * Answers this database's flags from `provider` (a vendor's, decision 080) instead of the built-in
 * one: the runtime calls it at boot, before any flag is asked; a test, for its own database.
 */
export function setFlagProvider(db: DB, provider: FlagProvider): Flags {
  const flags = createFlags(db, provider)
  clients.set(db, flags)
  return flags
}

/** Flags edited at a vendor are not edited here: a change or list of them is refused (decision 080). */
function requireEditableHere(db: DB) {
  const { source } = flagsFor(db).provider
  if (source !== 'builtin') {
    throw problems.conflict('flags_managed_by_vendor', `Feature flags are managed in ${vendorNames[source]} (FLAGS_PROVIDER=${source}): change them there.`)
  }
}
const vendorNames = { growthbook: 'GrowthBook' } as const

type FlagCaller = (Caller & Partial<Pick<User, 'region' | 'locale'>>) | null

/** What a flag's rules read of the caller: a visitor has no id and the role `visitor`. */
function contextFor(caller: FlagCaller) {
  const role = roleOf(caller)
  return {
    targetingKey: caller?.id ?? '',
    role: role === 'anonymous' ? 'visitor' : role,
    region: caller?.region ?? '',
    language: caller?.locale ?? '',
  }
}

/** Whether `key` is on for the caller; `fallback` when the flag does not exist or cannot be read. */
export async function isOn(db: DB, caller: FlagCaller, key: string, fallback: boolean) {
  return flagsFor(db).client.getBooleanValue(key, fallback, contextFor(caller))
}

/** `GET v1/flags`: every flag's value for the caller (a page reads them once), from wherever the flags live. */
export async function evaluatedFlags(db: DB, caller: FlagCaller): Promise<EvaluatedFlags> {
  const { client, provider } = flagsFor(db)
  const context = contextFor(caller)
  const answer: EvaluatedFlags = {}
  for (const key of await provider.keys()) {
    const details = await client.getBooleanDetails(key, false, context)
    answer[key] = { on: details.value, variant: details.variant ?? null }
  }
  return answer
}

function flagJson(row: { key: string; description: string; enabled: boolean; rollout_percent: number; variants: Array<{ name: string; weight: number }>; roles: string[]; regions: string[]; languages: string[]; updated_at: Date }): FeatureFlag {
  return {
    key: row.key,
    description: row.description,
    enabled: row.enabled,
    rollout_percent: row.rollout_percent,
    variants: row.variants,
    roles: row.roles as FeatureFlag['roles'],
    regions: row.regions,
    languages: row.languages as FeatureFlag['languages'],
    updated_at: row.updated_at.toISOString(),
  }
}

/** `GET v1/admin/flag-provider`: where the flags are edited, and which the provider defines (decision 080). */
export async function flagProviderInfo(db: DB, caller: Caller): Promise<FlagProviderInfo> {
  requirePermission(caller, 'manage:flags')
  const { provider } = flagsFor(db)
  return { provider: provider.source, editable: provider.source === 'builtin', reachable: await provider.reachable(), keys: await provider.keys() }
}

/** `GET v1/admin/flags`: every flag as admins edit it (refused when a vendor holds them). */
export async function listFlags(db: DB, caller: Caller): Promise<FeatureFlag[]> {
  requirePermission(caller, 'manage:flags')
  requireEditableHere(db)
  const rows = await db.selectFrom('feature_flags').selectAll().orderBy('key').execute()
  return rows.map(flagJson)
}

/** `PUT v1/admin/flags/{key}`: creates or changes a flag, audited with what it was and what it is; read again at once here. */
export async function saveFlag(db: DB, caller: User, key: string, body: FeatureFlagBody, requestId: string | null): Promise<FeatureFlag> {
  requirePermission(caller, 'manage:flags')
  requireEditableHere(db)
  if (!flagKeyPattern.test(key)) throw problems.invalid({ key: ['key_invalid'] })
  const names = body.variants.map((variant) => variant.name)
  if (new Set(names).size !== names.length) throw problems.invalid({ variants: ['variant_invalid'] })
  const values = {
    description: body.description,
    enabled: body.enabled,
    rollout_percent: body.rollout_percent,
    variants: JSON.stringify(body.variants),
    roles: [...new Set(body.roles)],
    regions: [...new Set(body.regions)],
    languages: [...new Set(body.languages)],
    updated_by: caller.id,
    updated_at: new Date(),
  }
  const saved = await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('feature_flags').selectAll().where('key', '=', key).forUpdate().executeTakeFirst()
    const row = await trx
      .insertInto('feature_flags')
      .values({ key, ...values })
      .onConflict((conflict) => conflict.column('key').doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow()
    await trx
      .insertInto('audit_log')
      .values({ actor_id: caller.id, action: 'flag.save', target_type: 'feature_flag', target_id: key, data: JSON.stringify({ before: before ? flagJson(before) : null, after: flagJson(row) }), request_id: requestId })
      .execute()
    return row
  })
  flagsFor(db).provider.invalidate()
  return flagJson(saved)
}
