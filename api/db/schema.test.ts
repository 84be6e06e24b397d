import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { checkedColumns, databaseColumns } from './columns.ts'
import { pgEnums } from './schema.ts'

/**
 * The database types against the migrations. `columns.ts` is checked against the `Database`
 * interface by the compiler; these tests check it against a database that the migrations built
 * (the template every test database is cloned from). See docs/decisions/017-database-types.md.
 */
let database: TestDatabase

beforeAll(async () => {
  database = await createTestDatabase()
})

afterAll(async () => {
  await database?.drop()
})

/** Kysely's own bookkeeping, not created by a migration. */
const migratorTables = ['kysely_migration', 'kysely_migration_lock']

describe('database types (issue 11 §1)', () => {
  it('type every table and column the migrations create, with its type, nullability and default', async () => {
    const { rows } = await sql<{ table: string; column: string; type: string; nullable: 'YES' | 'NO'; default: string | null }>`
      SELECT table_name AS table, column_name AS column, udt_name AS type, is_nullable AS nullable, column_default AS default
      FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name::text <> ALL (${migratorTables}::text[])
      ORDER BY table_name, ordinal_position
    `.execute(database.db)
    const migrated: Record<string, Record<string, string>> = {}
    for (const row of rows) {
      const spec = `${row.type}${row.nullable === 'YES' ? ' null' : ''}${row.default === null ? '' : ' default'}`
      ;(migrated[row.table] ??= {})[row.column] = spec
    }
    expect(differences(migrated, databaseColumns)).toEqual([])
  })

  it('give every enum type its labels, in order', async () => {
    const { rows } = await sql<{ name: string; labels: string[] }>`
      SELECT t.typname AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
      WHERE t.typnamespace = 'public'::regnamespace
      GROUP BY t.typname
    `.execute(database.db)
    expect(Object.fromEntries(rows.map((row) => [row.name, row.labels]))).toEqual(pgEnums)
  })

  it('list the values of every text column limited by a CHECK constraint', async () => {
    const { rows } = await sql<{ table: string; column: string; definition: string }>`
      SELECT c.conrelid::regclass::text AS table, a.attname AS column, pg_get_constraintdef(c.oid) AS definition
      FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
      WHERE c.contype = 'c' AND c.connamespace = 'public'::regnamespace AND cardinality(c.conkey) = 1
    `.execute(database.db)
    const lists: Record<string, Record<string, string[]>> = {}
    for (const row of rows) {
      // `(locale = ANY (ARRAY['en'::text, …]))` or `(join_reasons <@ ARRAY['close_friends'::text, …])`
      if (!/ARRAY\['/.test(row.definition)) continue
      const values = [...row.definition.matchAll(/'([^']*)'::text/g)].map((match) => match[1])
      ;(lists[row.table] ??= {})[row.column] = values.filter((value) => value !== undefined)
    }
    expect(lists).toEqual(checkedColumns)
  })
})

/** What the migrated database and the types disagree on, one line each. */
function differences(migrated: Record<string, Record<string, string>>, typed: Record<string, Record<string, string>>) {
  const found: string[] = []
  for (const table of new Set([...Object.keys(migrated), ...Object.keys(typed)])) {
    const inDatabase = migrated[table]
    const inTypes = typed[table]
    if (!inTypes) found.push(`${table}: created by a migration, missing from the types`)
    else if (!inDatabase) found.push(`${table}: in the types, not created by any migration`)
    else {
      for (const column of new Set([...Object.keys(inDatabase), ...Object.keys(inTypes)])) {
        const actual = inDatabase[column] ?? 'no such column'
        const declared = inTypes[column] ?? 'no such column'
        if (actual !== declared) found.push(`${table}.${column}: migrations '${actual}', types '${declared}'`)
      }
    }
  }
  return found.sort()
}
