import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errors } from 'oidc-provider'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { pgAdapterFactory } from './adapter.ts'

let database: TestDatabase

beforeAll(async () => {
  database = await createTestDatabase()
})

afterAll(async () => {
  await database?.drop()
})

describe('the identity provider storage', () => {
  it('lets only one of two parallel token requests consume an authorization code', async () => {
    const Codes = pgAdapterFactory(database.db)
    const codes = new Codes('AuthorizationCode')
    await codes.upsert('code-1', { grantId: 'grant-1' }, 60)
    const results = await Promise.allSettled([codes.consume('code-1'), codes.consume('code-1')])
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    const refused = results.find((result) => result.status === 'rejected')
    expect(refused?.reason).toBeInstanceOf(errors.InvalidGrant)
    expect(await codes.find('code-1')).toHaveProperty('consumed')
  })
})
