import { sql } from 'kysely'
import { z } from 'zod'
import type { DB } from '../db/database.ts'
import { defineJob } from '../jobs/job.ts'
import type { Logger } from '../logger.ts'
import { utcDay } from './service.ts'

/**
 * Analytics retention (decision 081, CNIL's guidance for audience measurement): raw events are
 * kept 13 months, the daily aggregates 25. Every night the finished days are rolled up into
 * `analytics_daily` (the last day rolled is rolled again, for events recorded late), then the raw
 * events older than 13 months, the aggregates older than 25 and the salts of past days deleted.
 * Staff viewing as members and bots are left out of the aggregates.
 */
export const rawEventMonths = 13
export const aggregateMonths = 25

export async function rollUpAndExpire(db: DB, now = new Date()) {
  const today = utcDay(now)
  const last = await db.selectFrom('analytics_daily').select(sql<string | null>`max(day)::text`.as('day')).executeTakeFirst()
  const first = last?.day ?? (await db.selectFrom('analytics_events').select(sql<string | null>`min(occurred_at AT TIME ZONE 'UTC')::date::text`.as('day')).executeTakeFirst())?.day ?? null
  let rolled = 0
  if (first !== null && first < today) {
    const result = await sql`
      INSERT INTO analytics_daily (day, name, path, locale, events, visitors, members)
      SELECT (occurred_at AT TIME ZONE 'UTC')::date, name, coalesce(path, ''), coalesce(locale, ''),
             count(*), count(DISTINCT visitor_hash), count(DISTINCT user_id)
      FROM analytics_events
      WHERE occurred_at >= (${first}::date AT TIME ZONE 'UTC') AND occurred_at < (${today}::date AT TIME ZONE 'UTC')
        AND NOT impersonated AND NOT is_bot
      GROUP BY 1, 2, 3, 4
      ON CONFLICT (day, name, path, locale) DO UPDATE
        SET events = excluded.events, visitors = excluded.visitors, members = excluded.members`.execute(db)
    rolled = Number(result.numAffectedRows ?? 0)
  }
  const events = await db
    .deleteFrom('analytics_events')
    .where('occurred_at', '<', sql<Date>`(${today}::date - make_interval(months => ${rawEventMonths})) AT TIME ZONE 'UTC'`)
    .executeTakeFirst()
  const aggregates = await db
    .deleteFrom('analytics_daily')
    .where('day', '<', sql<string>`${today}::date - make_interval(months => ${aggregateMonths})`)
    .executeTakeFirst()
  await db.deleteFrom('analytics_salts').where('day', '<', today).execute()
  return { rolled, deletedEvents: Number(events.numDeletedRows), deletedAggregates: Number(aggregates.numDeletedRows) }
}

export const analyticsRetentionJob = defineJob({
  name: 'analytics.retention',
  payload: z.object({}),
  schedule: { cron: '20 3 * * *' },
  retryLimit: 3,
  async handler(_, services: { db: DB; logger: Logger }) {
    const done = await rollUpAndExpire(services.db)
    services.logger.info({ job: 'analytics.retention', ...done }, 'Analytics rolled up and expired')
  },
})
