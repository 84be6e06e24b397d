import { expect } from 'vitest'
import type { FeatureFlagBody } from '#contract/flags.ts'
import { createUser, type ApiHarness } from './api-harness.ts'

/**
 * Changes a feature flag as an admin does at `/admin/flags` (`PUT v1/admin/flags/{key}`, which
 * the API reads again at once, decision 079), and answers how to put it back as it was. A test
 * calls the answer in a `finally` (or `afterEach`), so the next test sees the flag as seeded.
 */
export async function changeFlag(api: ApiHarness, key: string, change: Partial<FeatureFlagBody>): Promise<() => Promise<void>> {
  const admin = await createUser(api.db, { staff_role: 'admin' })
  const token = await api.signToken(admin.id)
  const flag = ((await api.request('GET', 'v1/admin/flags', { token })).json.data as Array<FeatureFlagBody & { key: string; updated_at: string }>).find((item) => item.key === key)
  if (!flag) throw new Error(`No feature flag ${key}`)
  const { key: _key, updated_at: _updated, ...before } = flag
  const save = async (body: FeatureFlagBody) => expect((await api.request('PUT', `v1/admin/flags/${key}`, { token, body })).status).toBe(200)
  await save({ ...before, ...change })
  return () => save(before)
}
