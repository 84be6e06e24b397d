import type { DB } from './db/database.ts'
import type { Env } from './env.ts'
import { createMediaStorage, type MediaStorage } from './media/storage.ts'
import { createPlacesProvider, type PlacesProvider } from './places/provider.ts'

export interface Providers {
  places: PlacesProvider
  media: MediaStorage
}

/**
 * The providers this deployment uses (ARCHITECTURE §4): Google Maps when GOOGLE_MAPS_API_KEY is
 * set, else the built-in gazetteer; S3-compatible storage when S3_* are set, else local disk.
 */
export function createProviders(env: Env, db: DB): Providers {
  return {
    places: createPlacesProvider({ db, googleMapsApiKey: env.GOOGLE_MAPS_API_KEY }),
    media: createMediaStorage(env),
  }
}
