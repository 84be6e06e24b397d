/**
 * Spec §9 "time ago": under a minute "Just now" (the caller's translation), then minutes, hours,
 * days, weeks, months, years, in the page's language through `Intl.RelativeTimeFormat`. `now`
 * comes from the loader, so the server's HTML and the browser's hydration say the same thing.
 */
const steps: [Intl.RelativeTimeFormatUnit, number][] = [
  ['minute', 60],
  ['hour', 60],
  ['day', 24],
  ['week', 7],
  ['month', 30 / 7],
  ['year', 12],
]

/** One formatter per language: making one costs more than formatting a whole page of dates. */
const formatters = new Map<string, Intl.RelativeTimeFormat>()

function formatter(language: string) {
  let made = formatters.get(language)
  if (!made) {
    made = new Intl.RelativeTimeFormat(language, { numeric: 'always' })
    formatters.set(language, made)
  }
  return made
}

export function timeAgo(date: string | Date, now: number, language: string, justNow: string) {
  let amount = Math.max(0, (now - new Date(date).getTime()) / 1000)
  if (amount < 60) return justNow
  amount /= 60
  let unit: Intl.RelativeTimeFormatUnit = 'minute'
  for (let index = 1; index < steps.length; index++) {
    const [next, size] = steps[index] as [Intl.RelativeTimeFormatUnit, number]
    if (amount < size) break
    amount /= size
    unit = next
  }
  return formatter(language).format(-Math.floor(amount), unit)
}
