import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createDatabase, preparedStatementNames, type DB } from './database.ts'

/**
 * Decision 054: statements run often become named prepared statements, planned once per
 * connection, and a table changed under them by a migration does not break a request.
 */
let database: TestDatabase
const opened: DB[] = []

/** A pool of one connection, so that what it prepared can be read back on that connection. */
function onePool(options: { preparedStatements?: boolean } = {}) {
  const { db } = createDatabase(database.url, { max: 1, ...options })
  opened.push(db)
  return db
}

async function prepared(db: DB) {
  const { rows } = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(db)
  return rows.map((row) => row.statement)
}

beforeAll(async () => {
  database = await createTestDatabase()
})

afterAll(async () => {
  await Promise.all(opened.map((db) => db.destroy()))
  await database?.drop()
})

describe('prepared statements', () => {
  it('prepares a statement the third time it runs, and it answers as before', async () => {
    const db = onePool()
    const sum = (n: number) => sql<{ n: number }>`SELECT ${n}::int + 1 AS n`.execute(db)
    expect((await sum(1)).rows).toEqual([{ n: 2 }])
    expect((await sum(2)).rows).toEqual([{ n: 3 }])
    expect(await prepared(db)).toEqual([])
    expect((await sum(3)).rows).toEqual([{ n: 4 }])
    expect(await prepared(db)).toEqual(['SELECT $1::int + 1 AS n'])
    expect((await sum(41)).rows).toEqual([{ n: 42 }])
  })

  it('prepares nothing when turned off (a pooler that cannot keep them)', async () => {
    const db = onePool({ preparedStatements: false })
    for (const n of [1, 2, 3, 4]) expect((await sql<{ n: number }>`SELECT ${n}::int * 2 AS n`.execute(db)).rows).toEqual([{ n: n * 2 }])
    expect(await prepared(db)).toEqual([])
  })

  it('answers with the new columns when a migration changed the table under a prepared statement', async () => {
    await sql`CREATE TABLE probe_changed (id int PRIMARY KEY, a text)`.execute(database.db)
    await sql`INSERT INTO probe_changed VALUES (1, 'first')`.execute(database.db)
    const db = onePool()
    const read = () => sql<Record<string, unknown>>`SELECT * FROM probe_changed WHERE id = ${1}`.execute(db)
    for (let i = 0; i < 3; i++) await read()
    expect(await prepared(db)).toHaveLength(1)

    // Another instance migrates while this one keeps serving.
    await sql`ALTER TABLE probe_changed ADD COLUMN b text NOT NULL DEFAULT 'added'`.execute(database.db)
    expect((await read()).rows).toEqual([{ id: 1, a: 'first', b: 'added' }])
    // The connection that held the stale plan was closed; the next one prepares afresh.
    expect((await read()).rows).toEqual([{ id: 1, a: 'first', b: 'added' }])
  })

  it('inside a transaction the refusal reaches the caller, and the next request is served', async () => {
    await sql`CREATE TABLE probe_in_transaction (id int PRIMARY KEY, a text)`.execute(database.db)
    await sql`INSERT INTO probe_in_transaction VALUES (1, 'first')`.execute(database.db)
    const db = onePool()
    const read = (on: DB) => sql<Record<string, unknown>>`SELECT * FROM probe_in_transaction WHERE id = ${1}`.execute(on)
    for (let i = 0; i < 3; i++) await read(db)

    await sql`ALTER TABLE probe_in_transaction ADD COLUMN b text NOT NULL DEFAULT 'added'`.execute(database.db)
    // The transaction is aborted by then: running the statement again inside it cannot succeed.
    await expect(db.transaction().execute((trx) => read(trx))).rejects.toThrow(/cached plan must not change result type/)
    expect((await read(db)).rows).toEqual([{ id: 1, a: 'first', b: 'added' }])
  })

  it('runs a text of several commands without parameters as before (migrations)', async () => {
    const db = onePool()
    for (let i = 0; i < 4; i++) await sql.raw('CREATE TEMP TABLE IF NOT EXISTS probe_many (n int); INSERT INTO probe_many VALUES (1)').execute(db)
    const { rows } = await sql<{ total: number }>`SELECT count(*)::int AS total FROM probe_many`.execute(db)
    expect(rows).toEqual([{ total: 4 }])
  })
})

describe('preparedStatementNames', () => {
  it('names a text from its third use, always with the same name', () => {
    const nameOf = preparedStatementNames()
    expect(nameOf('SELECT $1')).toBeUndefined()
    expect(nameOf('SELECT $1')).toBeUndefined()
    const name = nameOf('SELECT $1')
    expect(name).toMatch(/^circle55_\d+$/)
    expect(nameOf('SELECT $1')).toBe(name)
    expect(nameOf('SELECT $2')).toBeUndefined()
  })

  it('names at most `max` texts; the ones named stay named', () => {
    const nameOf = preparedStatementNames({ minUses: 1, max: 2 })
    const first = nameOf('a')
    const second = nameOf('b')
    expect(new Set([first, second]).size).toBe(2)
    expect(nameOf('c')).toBeUndefined()
    expect(nameOf('a')).toBe(first)
  })
})
