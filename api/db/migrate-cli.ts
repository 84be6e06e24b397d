import { getEnv } from '../env.ts'
import { createLogger } from '../logger.ts'
import { openDatabase } from './open.ts'

/** `npm run db:migrate`: applies pending migrations and exits. */
const env = getEnv()
const logger = createLogger({ ...env, LOG_LEVEL: 'info' })
const database = await openDatabase(env, logger)
logger.info('Database is up to date')
await database.close()
