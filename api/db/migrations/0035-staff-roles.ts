import { sql, type Kysely } from 'kysely'

/**
 * Staff roles (issue 32 §1, decision 077): `users.is_admin` becomes `users.staff_role`, one of
 * admin, moderator, support or finance (null for members). Every admin keeps being an admin.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE users ADD COLUMN staff_role text CHECK (staff_role IN ('admin', 'moderator', 'support', 'finance'));
    UPDATE users SET staff_role = 'admin' WHERE is_admin;
    ALTER TABLE users DROP COLUMN is_admin;
    CREATE INDEX users_staff ON users (staff_role) WHERE staff_role IS NOT NULL`.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`
    ALTER TABLE users ADD COLUMN is_admin boolean NOT NULL DEFAULT false;
    UPDATE users SET is_admin = true WHERE staff_role = 'admin';
    DROP INDEX users_staff;
    ALTER TABLE users DROP COLUMN staff_role`.execute(db)
}
