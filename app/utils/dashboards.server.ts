import type { AppLoadContext } from '@remix-run/node'
import { detectLanguage, getT } from './i18next.server.ts'

/**
 * The words of a dashboard's weeks (decision 082), written on the server so the page the browser
 * hydrates says exactly what the server sent: "week of 12 May" for each row of a table, "12 May"
 * under a chart's axis, and "this week, so far" for the week still under way.
 */
export async function weekWords(request: Request, context: AppLoadContext, weeks: ReadonlyArray<{ week_start: string; complete: boolean }>) {
  const language = await detectLanguage(request, context)
  const t = await getT(request, context, 'dashboards')
  const day = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', timeZone: 'UTC' })
  const short = weeks.map((week) => day.format(new Date(`${week.week_start}T00:00:00Z`)))
  const categories = weeks.map((week, index) => (week.complete ? t('week', { date: short[index] }) : t('thisWeek')))
  return { categories, axis: [short[0] ?? '', short.at(-1) ?? ''] as [string, string] }
}
