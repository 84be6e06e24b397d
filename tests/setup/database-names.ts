/** Shared by the global setup and tests/db.ts. */
export const TEMPLATE_DATABASE = 'circle55_template'

/** The same server and credentials as `adminUrl`, another database. */
export function databaseUrlFor(adminUrl: string, database: string) {
  const url = new URL(adminUrl)
  url.pathname = `/${database}`
  return url.toString()
}
