import type { Browser, Page } from '@playwright/test'
import { freshMember, publishedActivity } from './factories.ts'
import { expect, newVisitor, password, profiled, signInOverHttp } from './helpers.ts'

/**
 * Members and activities for the end-to-end tests: demo accounts come from the seed (password
 * demo-password-55); activities are published in Portland, through the create form where that is
 * the point (`createActivity`), else made as the API makes them (`publishedActivity`).
 */

export const demoPassword = 'demo-password-55'
export const portland = { label: 'Portland, OR', timeZone: 'America/Los_Angeles' }

/**
 * A member signed in, in English, JavaScript off unless asked (options go to the context): a demo
 * member (the seed's password) or one made by `freshMember` (the test password).
 */
export const member = profiled('member', async function member(
  browser: Browser,
  email: string,
  options: { js?: boolean; viewport?: { width: number; height: number } } = {},
) {
  const context = await newVisitor(browser, {
    javaScriptEnabled: options.js ?? false,
    ...(options.viewport ? { viewport: options.viewport } : {}),
  })
  // Every demo member starts in English (scripts/e2e.ts seeds a fresh database for each run); a
  // test that switches a member's language has that member to itself.
  await signInOverHttp(context, email, email.endsWith('@demo.test') ? demoPassword : password)
  return context.newPage()
})

/** The date and time (YYYY-MM-DD, HH:MM in 5-minute steps) `fromNowMs` from now in `timeZone`. */
export function localStart(fromNowMs: number, timeZone = portland.timeZone) {
  const step = 5 * 60 * 1000
  const when = new Date(Math.ceil((Date.now() + fromNowMs) / step) * step)
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(when)
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return {
    date: `${part('year')}-${part('month')}-${part('day')}`,
    time: `${part('hour')}:${part('minute')}`,
  }
}

export const day = 24 * 60 * 60 * 1000

export interface NewActivity {
  title: string
  capacity?: string
  fee?: string
  start?: { date: string; time: string }
}

/** Publishes an in-person activity in Portland through the create form; returns its id. */
export const createActivity = profiled('createActivity', async function createActivity(page: Page, activity: NewActivity) {
  const start = activity.start ?? localStart(3 * day)
  await page.goto('/create-activity')
  await page.getByLabel('Title').fill(activity.title)
  await page
    .getByLabel('Description (optional)')
    .fill('We meet at the pavilion and walk for an hour.')
  await page.getByRole('radio', { name: 'In person' }).check()
  await page.getByLabel('City').fill(portland.label)
  await page.getByLabel('Date', { exact: true }).fill(start.date)
  await setStartTime(page, start.time)
  if (activity.capacity)
    await page.getByLabel('How many people can come? (optional)').fill(activity.capacity)
  if (activity.fee) await page.getByLabel('No-show fee in dollars (optional)').fill(activity.fee)
  await page.getByRole('button', { name: 'Publish the activity' }).click()
  await expect(flash(page)).toHaveText('Your activity is published.')
  await expect(page.getByRole('heading', { level: 1, name: activity.title })).toBeVisible()
  const id = /\/activities\/([^/?#]+)$/.exec(page.url())?.[1]
  if (!id) throw new Error(`Not on an activity page: ${page.url()}`)
  return id
})

/**
 * Two fresh members, a host and an attendee, like the demo members the conversation tests used:
 * unverified, their accounts a month old (the scam shield treats accounts younger than 14 days
 * apart), with a name of their own. Sign them in with `member(browser, email)`.
 */
export async function freshPair(host: { first_name: string; last_name: string }, attendee: { first_name: string; last_name: string }) {
  const monthAgo = new Date(Date.now() - 30 * 86_400_000)
  return {
    hostEmail: (await freshMember({ ...host, created_at: monthAgo })).email,
    attendeeEmail: (await freshMember({ ...attendee, created_at: monthAgo })).email,
  }
}

/** A host's new activity with `attendeeEmail` going (both signed in, without JavaScript): their pages and the activity's id. */
export const activityWithAttendee = profiled('activityWithAttendee', async function activityWithAttendee(browser: Browser, hostEmail: string, attendeeEmail: string, title: string) {
  const host = await member(browser, hostEmail)
  const id = await publishedActivity(host, { title })
  const attendee = await member(browser, attendeeEmail)
  await attendee.goto(`/activities/${id}`)
  await attendee.getByRole('button', { name: 'Save my seat' }).click()
  await expect(flash(attendee)).toHaveText('Your seat is saved.')
  return { host, attendee, id }
})

/** Chooses the start time (HH:MM) with the hour and minutes selects. */
export async function setStartTime(page: Page, time: string) {
  const group = page.getByRole('group', { name: 'Start time' })
  await group.getByLabel('Hour').selectOption(time.slice(0, 2))
  await group.getByLabel('Minutes').selectOption(time.slice(3, 5))
}

/**
 * The one-time message after a change ("Your seat is saved."), as the page keeps it near the top
 * of the main content (the floating toast says the same for a while; issue 12 §6).
 */
export function flash(page: Page) {
  return page.locator('main .flash')
}
