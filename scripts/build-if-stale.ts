/**
 * Builds the web app when the build is missing or older than its sources (`build-freshness.ts`):
 * `npm test` makes the end-to-end run's build while lint still runs.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildIfStale } from './build-freshness.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
process.exit(buildIfStale(root, 'Building the web app for the end-to-end run…'))
