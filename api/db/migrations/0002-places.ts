import { sql, type Kysely } from 'kysely'

/**
 * The US gazetteer: cities (GeoNames, population ≥ 1000) and ZIP code centroids, loaded from
 * npm data packages by `api/places/gazetteer.ts` when the table is empty.
 * `search` is the name folded to lower-case ASCII ("La Cañada Flintridge" → "la canada
 * flintridge"), so the trigram index serves accent- and case-insensitive search.
 */
export async function up(db: Kysely<unknown>) {
  await sql`
    CREATE TABLE places (
      id text PRIMARY KEY,
      kind text NOT NULL CHECK (kind IN ('city', 'zip')),
      name text NOT NULL,
      state char(2) NOT NULL,
      state_name text,
      latitude double precision NOT NULL,
      longitude double precision NOT NULL,
      population int,
      time_zone text NOT NULL,
      search text NOT NULL
    );
    -- Search and nearest-city look at cities only: partial indexes keep the load fast (the
    -- GiST on ll_to_earth costs most of it). The trigram index is on the folded name, not
    -- name, so that "Espanola" finds "Española".
    CREATE INDEX places_search_trgm ON places USING gin (search gin_trgm_ops) WHERE kind = 'city';
    CREATE INDEX places_location ON places USING gist (ll_to_earth(latitude, longitude)) WHERE kind = 'city';
  `.execute(db)
}

export async function down(db: Kysely<unknown>) {
  await sql`DROP TABLE IF EXISTS places`.execute(db)
}
