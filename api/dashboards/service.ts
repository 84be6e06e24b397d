import { sql, type RawBuilder } from 'kysely'
import {
  dashboardWeeks,
  hostNumbersFlag,
  onboardingStages,
  smallCountBelow,
  type AdminDashboard,
  type AdminDashboardWeek,
  type HostDashboard,
  type HostDashboardWeek,
} from '#contract/dashboards.ts'
import { onboardingSteps } from '#contract/enums.ts'
import type { DB } from '../db/database.ts'
import { isOn } from '../flags/service.ts'
import { problems } from '../http/errors.ts'
import { requirePermission, type Caller } from '../policy/permissions.ts'

/**
 * Dashboards (issue 32 §5, decision 082), computed from the tables the product already keeps:
 * sign-ups and onboarding from `users` (decision 023), active members from `analytics_events`
 * (decision 081), activities, seats and the hosts' "did not come" (decisions 021, 075), seats
 * given from notify lists (the `waitlist.*` notifications), reports and the team's actions on
 * them (decision 037), and the survey's ratings (decision 046). No rollup table: each answer is a
 * handful of grouped queries over indexed dates, bounded by the weeks asked for.
 */

const DAY = 86_400_000
const WEEK = 7 * DAY

/** Mondays (UTC, `YYYY-MM-DD`), oldest first, the current week's last. */
export function weekStarts(now: Date, weeks: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY
  return Array.from({ length: weeks }, (_, index) => new Date(monday - (weeks - 1 - index) * WEEK).toISOString().slice(0, 10))
}

type Counts<K extends string> = Map<string, Record<K, number>>

/** Runs a grouped query whose first column is `week` (a date) and indexes its rows by week. */
async function byWeek<K extends string>(db: DB, query: RawBuilder<{ week: string } & Record<K, number | string | null>>): Promise<Counts<K>> {
  const { rows } = await query.execute(db)
  return new Map(rows.map(({ week, ...rest }) => [week, Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, value === null ? Number.NaN : Number(value)])) as Record<K, number>]))
}

/** A week bucket of a UTC timestamp column. */
const utcWeek = (column: RawBuilder<unknown>) => sql<string>`date_trunc('week', ${column} AT TIME ZONE 'UTC')::date`

const oneDecimal = (value: number) => Math.round(value * 10) / 10
const numberOr = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? 0 : value)

/** `GET v1/admin/dashboard`: the team's weekly numbers (`read:analytics`), weeks in UTC. */
export async function adminDashboard(db: DB, caller: Caller, weeks: number = dashboardWeeks.default, now = new Date()): Promise<AdminDashboard> {
  requirePermission(caller, 'read:analytics')
  const starts = weekStarts(now, weeks)
  const from = new Date(`${starts[0]}T00:00:00Z`)

  const signUps = byWeek<'count'>(db, sql`
    SELECT ${utcWeek(sql.ref('created_at'))} AS week, count(*) AS count
    FROM users WHERE created_at >= ${from} AND created_at <= ${now} GROUP BY 1`)

  // Members who used Circle 55: never a staff member viewing as them, never a bot (decision 081).
  const active = byWeek<'count'>(db, sql`
    SELECT ${utcWeek(sql.ref('occurred_at'))} AS week, count(DISTINCT user_id) AS count
    FROM analytics_events
    WHERE occurred_at >= ${from} AND occurred_at <= ${now} AND user_id IS NOT NULL AND NOT impersonated AND NOT is_bot
    GROUP BY 1`)

  const created = byWeek<'count'>(db, sql`
    SELECT ${utcWeek(sql.ref('created_at'))} AS week, count(*) AS count
    FROM experiences WHERE created_at >= ${from} AND created_at <= ${now} GROUP BY 1`)

  // Held: started in the week and not cancelled. A seat counts as came unless its host marked
  // "did not come" (as for fees, decision 075); the rate is over activities whose host said.
  const held = byWeek<'activities' | 'seats' | 'did_not_come' | 'confirmed_seats'>(db, sql`
    SELECT ${utcWeek(sql.ref('e.start_at'))} AS week,
      count(DISTINCT e.id) AS activities,
      count(a.user_id) AS seats,
      count(a.user_id) FILTER (WHERE m.present = false) AS did_not_come,
      count(a.user_id) FILTER (WHERE e.attendance_confirmed_at IS NOT NULL) AS confirmed_seats
    FROM experiences e
    LEFT JOIN experience_attendees a ON a.experience_id = e.id
    LEFT JOIN attendance_marks m ON m.experience_id = a.experience_id AND m.user_id = a.user_id
    WHERE e.canceled_at IS NULL AND e.start_at >= ${from} AND e.start_at <= ${now}
    GROUP BY 1`)

  // Seats from a notify list: seated at once (`waitlist.selected`), or taken by a member who had
  // been told a seat was free (`waitlist.seat_available`) and still holds it.
  const fills = byWeek<'count'>(db, sql`
    SELECT ${utcWeek(sql.ref('at'))} AS week, count(*) AS count FROM (
      SELECT n.created_at AS at FROM notifications n
      WHERE n.type = 'waitlist.selected' AND n.created_at >= ${from} AND n.created_at <= ${now}
      UNION ALL
      SELECT a.created_at FROM experience_attendees a
      WHERE a.created_at >= ${from} AND a.created_at <= ${now}
        AND EXISTS (SELECT 1 FROM notifications n WHERE n.user_id = a.user_id AND n.experience_id = a.experience_id
          AND n.type = 'waitlist.seat_available' AND n.created_at <= a.created_at)
        AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.user_id = a.user_id AND n.experience_id = a.experience_id
          AND n.type = 'waitlist.selected')
    ) fills GROUP BY 1`)

  const reports = byWeek<'received' | 'resolved' | 'median_hours'>(db, sql`
    SELECT ${utcWeek(sql.ref('created_at'))} AS week,
      count(*) AS received,
      count(*) FILTER (WHERE resolved_at IS NOT NULL) AS resolved,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM resolved_at - created_at) / 3600)
        FILTER (WHERE resolved_at IS NOT NULL) AS median_hours
    FROM reports WHERE created_at >= ${from} AND created_at <= ${now} GROUP BY 1`)

  // How far the members who signed up in these weeks got: `onboarding_step` is the page they go
  // on to (decision 023), so a member reached every page up to it; finishing "about you" alone
  // (`onboarded_at`, members from before the steps were stored) reaches the first.
  const steps = sql.lit(`{${onboardingSteps.join(',')}}`)
  const onboarding = sql<Record<string, number>>`
    SELECT count(*) AS signed_up,
      ${sql.join(
        onboardingSteps.map((step, index) =>
          index === 0
            ? sql`count(*) FILTER (WHERE onboarding_step IS NOT NULL OR onboarded_at IS NOT NULL) AS ${sql.ref(step)}`
            : sql`count(*) FILTER (WHERE array_position(${steps}::text[], onboarding_step::text) >= ${index + 1}) AS ${sql.ref(step)}`,
        ),
      )}
    FROM users WHERE created_at >= ${from} AND created_at <= ${now}`.execute(db)

  const open = db.selectFrom('reports').select((eb) => eb.fn.countAll<number>().as('count')).where('resolved_at', 'is', null).executeTakeFirstOrThrow()

  const [signUpRows, activeRows, createdRows, heldRows, fillRows, reportRows, onboardingRows, openRow] = await Promise.all([signUps, active, created, held, fills, reports, onboarding, open])
  const funnel = onboardingRows.rows[0] ?? {}
  return {
    time_zone: 'UTC',
    weeks: starts.map((start, index): AdminDashboardWeek => {
      const seats = heldRows.get(start)
      const report = reportRows.get(start)
      const didNotCome = numberOr(seats?.did_not_come)
      const confirmed = numberOr(seats?.confirmed_seats)
      const median = report?.median_hours
      return {
        week_start: start,
        complete: index < starts.length - 1,
        sign_ups: numberOr(signUpRows.get(start)?.count),
        active_members: numberOr(activeRows.get(start)?.count),
        activities_created: numberOr(createdRows.get(start)?.count),
        activities_held: numberOr(seats?.activities),
        seats_booked: numberOr(seats?.seats),
        came: numberOr(seats?.seats) - didNotCome,
        did_not_come: didNotCome,
        no_show_rate: confirmed > 0 ? oneDecimal((didNotCome / confirmed) * 100) : null,
        notify_list_fills: numberOr(fillRows.get(start)?.count),
        reports: numberOr(report?.received),
        reports_resolved: numberOr(report?.resolved),
        median_response_hours: median === undefined || Number.isNaN(median) ? null : oneDecimal(median),
      }
    }),
    onboarding: onboardingStages.map((stage) => ({ stage, members: Number(funnel[stage] ?? 0) })),
    open_reports: Number(openRow.count),
  }
}

/** 1 to 4 → null: a small count is not shown on a host's dashboard (research §6). */
export function hideSmall(value: number): number | null {
  return value > 0 && value < smallCountBelow ? null : value
}

/**
 * A total over weeks, hidden when it is small, or when what it adds to the weeks shown is (the
 * hidden weeks could otherwise be worked out by subtraction).
 */
export function hiddenTotal(total: number, weeks: Array<number | null>): number | null {
  const shown = weeks.reduce<number>((sum, value) => sum + (value ?? 0), 0)
  return hideSmall(total) === null || hideSmall(total - shown) === null ? null : total
}

/**
 * `GET v1/users/me/hosting/dashboard`: the caller's own activities, by week (each in the week of
 * its start where it takes place). Small counts of "did not come" and of ratings are hidden, and
 * an average needs 5 ratings: a host must not tell who gave which rating (decision 046).
 */
export async function hostDashboard(db: DB, caller: Caller, weeks: number = dashboardWeeks.default, now = new Date()): Promise<HostDashboard> {
  requirePermission(caller, 'read:host:dashboard')
  if (!(await isOn(db, caller, hostNumbersFlag, true))) throw problems.notFound()
  const hostId = caller!.id
  const starts = weekStarts(now, weeks)
  // A day earlier than the first Monday in UTC: the local week of an activity west of UTC.
  const from = new Date(Date.parse(`${starts[0]}T00:00:00Z`) - DAY)
  const localWeek = sql<string>`date_trunc('week', e.start_at AT TIME ZONE e.timezone)::date`

  const seats = byWeek<'activities' | 'booked' | 'did_not_come'>(db, sql`
    SELECT ${localWeek} AS week,
      count(DISTINCT e.id) AS activities,
      count(a.user_id) AS booked,
      count(a.user_id) FILTER (WHERE m.present = false) AS did_not_come
    FROM experiences e
    LEFT JOIN experience_attendees a ON a.experience_id = e.id
    LEFT JOIN attendance_marks m ON m.experience_id = a.experience_id AND m.user_id = a.user_id
    WHERE e.host_id = ${hostId} AND e.canceled_at IS NULL AND e.start_at >= ${from} AND e.start_at <= ${now}
    GROUP BY 1`)

  // Each rating as given (a member who said later they did not go has none, decision 046).
  const ratings = db
    .selectFrom('surveys as s')
    .innerJoin('experiences as e', 'e.id', 's.experience_id')
    .select([localWeek.as('week'), 's.rating'])
    .where('e.host_id', '=', hostId)
    .where('e.canceled_at', 'is', null)
    .where('e.start_at', '>=', from)
    .where('e.start_at', '<=', now)
    .where('s.type', '=', 'POST_EXPERIENCE_SURVEY')
    .where('s.rating', 'is not', null)
    .execute()

  const [seatRows, ratingRows] = await Promise.all([seats, ratings])
  const inRange = new Set(starts)
  const ratingsByWeek = new Map<string, number[]>()
  for (const row of ratingRows) {
    if (!inRange.has(row.week)) continue
    ratingsByWeek.set(row.week, [...(ratingsByWeek.get(row.week) ?? []), row.rating!])
  }
  const average = (values: number[]) => (values.length >= smallCountBelow ? oneDecimal(values.reduce((sum, value) => sum + value, 0) / values.length) : null)

  const rows = starts.map((start, index): HostDashboardWeek => {
    const week = seatRows.get(start)
    const given = ratingsByWeek.get(start) ?? []
    const booked = numberOr(week?.booked)
    const didNotCome = numberOr(week?.did_not_come)
    return {
      week_start: start,
      complete: index < starts.length - 1,
      activities: numberOr(week?.activities),
      booked,
      came: booked - didNotCome,
      did_not_come: hideSmall(didNotCome),
      ratings: hideSmall(given.length),
      average_rating: average(given),
    }
  })

  const sum = (pick: (week: HostDashboardWeek) => number) => rows.reduce((total, week) => total + pick(week), 0)
  const allRatings = starts.flatMap((start) => ratingsByWeek.get(start) ?? [])
  const didNotCome = starts.reduce((total, start) => total + numberOr(seatRows.get(start)?.did_not_come), 0)
  const ratingsTotal = hiddenTotal(allRatings.length, rows.map((week) => week.ratings))
  return {
    weeks: rows,
    totals: {
      activities: sum((week) => week.activities),
      booked: sum((week) => week.booked),
      came: sum((week) => week.came),
      did_not_come: hiddenTotal(didNotCome, rows.map((week) => week.did_not_come)),
      ratings: ratingsTotal,
      average_rating: ratingsTotal === null ? null : average(allRatings),
    },
  }
}
