import { z } from 'zod'
import { queryInteger } from './input-validation.ts'
import { dashboardWeeks, onboardingStages } from './dashboard-rules.ts'

/**
 * Dashboards (issue 32 §5, decision 082): weekly series for the team (`GET v1/admin/dashboard`)
 * and for a host about their own activities (`GET v1/users/me/hosting/dashboard`). A week starts
 * on Monday; each answer lists its weeks oldest first, the current week (not over yet) last.
 * The rules without zod are in `dashboard-rules.ts`.
 */
export { dashboardWeeks, hostNumbersFlag, onboardingStages, smallCountBelow, type OnboardingStage } from './dashboard-rules.ts'

/** `?weeks=`: how many weeks, the current one included. */
export const dashboardQuerySchema = z.object({
  weeks: queryInteger('weeks_invalid', (weeks) => weeks.min(dashboardWeeks.min, 'weeks_invalid').max(dashboardWeeks.max, 'weeks_invalid'))
    .optional()
    .meta({ description: `How many weeks, the current one included (${dashboardWeeks.min}–${dashboardWeeks.max}; ${dashboardWeeks.default} by default).` }),
})

const week = {
  week_start: z.iso.date().meta({ description: 'The Monday the week starts on (`YYYY-MM-DD`).' }),
  complete: z.boolean().meta({ description: 'False for the current week, still under way.' }),
}
const count = z.number().int().min(0)

/** One week of the team's dashboard (weeks in UTC). */
export const adminDashboardWeekSchema = z.object({
  ...week,
  sign_ups: count.meta({ description: 'Accounts created that week.' }),
  active_members: count.meta({ description: 'Members who used Circle 55 that week (first-party analytics; never staff viewing as a member, never bots).' }),
  activities_created: count,
  activities_held: count.meta({ description: 'Activities that took place that week (started, not cancelled).' }),
  seats_booked: count.meta({ description: 'Seats held at the activities held that week.' }),
  came: count.meta({ description: 'Those seats, less the ones their host marked “did not come”.' }),
  did_not_come: count.meta({ description: 'Seats their host marked “did not come”.' }),
  no_show_rate: z.number().min(0).max(100).nullable().meta({ description: 'Did not come, in percent of the seats at activities whose host said who came (one decimal); null when no host did.' }),
  notify_list_fills: count.meta({ description: 'Seats given that week to members from a notify list: seated at once, or taken after being told a seat was free.' }),
  reports: count.meta({ description: 'Reports received that week.' }),
  reports_resolved: count.meta({ description: 'Of those, the ones the team has acted on since.' }),
  median_response_hours: z.number().min(0).nullable().meta({ description: 'The median time from report to the team’s action, in hours (one decimal), for that week’s reports acted on; null when none was.' }),
})
export type AdminDashboardWeek = z.infer<typeof adminDashboardWeekSchema>

export const adminDashboardSchema = z
  .object({
    time_zone: z.literal('UTC'),
    weeks: z.array(adminDashboardWeekSchema),
    onboarding: z
      .array(z.object({ stage: z.enum(onboardingStages), members: count }))
      .meta({ description: 'Of the members who signed up in these weeks, how many reached each page of onboarding (in its order), `done` being the end.' }),
    open_reports: count.meta({ description: 'Reports waiting for the team now.' }),
  })
  .meta({ id: 'AdminDashboard' })
export type AdminDashboard = z.infer<typeof adminDashboardSchema>

/** A count the host sees, or null for 1 to 4 (small counts are not shown on a host’s dashboard). */
const shownCount = count.nullable()

const hostNumbers = {
  activities: count.meta({ description: 'The caller’s activities held (started, not cancelled).' }),
  booked: count.meta({ description: 'Seats held at them.' }),
  came: count.meta({ description: 'Those seats, less the ones marked “did not come”.' }),
  did_not_come: shownCount.meta({ description: 'Seats the caller marked “did not come”; null when 1 to 4.' }),
  ratings: shownCount.meta({ description: 'Ratings given in the survey after them; null when 1 to 4.' }),
  average_rating: z.number().min(1).max(5).nullable().meta({ description: 'Their average (one decimal); null under 5 ratings.' }),
}

export const hostDashboardWeekSchema = z.object({ ...week, ...hostNumbers })
export type HostDashboardWeek = z.infer<typeof hostDashboardWeekSchema>

export const hostDashboardSchema = z
  .object({
    weeks: z.array(hostDashboardWeekSchema).meta({ description: 'Each activity counts in the week of its start where it takes place (its own time zone).' }),
    totals: z.object(hostNumbers).meta({
      description: 'The same over all these weeks. A hidden number stays hidden: a total of ratings or of “did not come” (and the average) is null too when it is 1 to 4, or when it adds 1 to 4 to the weeks shown.',
    }),
  })
  .meta({ id: 'HostDashboard' })
export type HostDashboard = z.infer<typeof hostDashboardSchema>
