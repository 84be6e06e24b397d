import { readFileSync } from 'node:fs'
import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { activityFormSchema, withStartTime } from './activity-schema.ts'

function form(entries: Record<string, string>) {
  const data = new FormData()
  for (const [key, value] of Object.entries(entries)) data.set(key, value)
  return data
}

const errorsOf = (entries: Record<string, string>) => {
  const result = parseWithZod(withStartTime(form(entries)), { schema: activityFormSchema })
  return result.status === 'success' ? {} : (result.error ?? {})
}

describe('activity form schema (spec §5)', () => {
  it('reports every problem at once, the location included', () => {
    const errors = errorsOf({ title: 'Walk', venueType: 'in_person', startDate: '2030-01-01', startHour: '10' })
    expect(errors.startTime).toEqual(['activities:form.errors.start_time_required'])
    expect(errors.place).toEqual(['activities:form.errors.location_required'])
  })

  it('an online activity needs its link', () => {
    const errors = errorsOf({ title: 'Quiz', venueType: 'online', startDate: '2030-01-01', startHour: '19', startMinute: '30' })
    expect(errors).toEqual({ url: ['activities:form.errors.url_invalid'] })
  })

  it('builds the start time from the hour and minutes selects', () => {
    const result = parseWithZod(withStartTime(form({ title: 'Walk', venueType: 'in_person', place: 'us-or-portland', startDate: '2030-01-01', startHour: '09', startMinute: '05' })), {
      schema: activityFormSchema,
    })
    expect(result.status).toBe('success')
    expect(result.status === 'success' && result.value.startTime).toBe('09:05')
  })

  it('still refuses a start time off the 5-minute steps (a hand-made request)', () => {
    const errors = errorsOf({ title: 'Walk', venueType: 'in_person', place: 'us-or-portland', startDate: '2030-01-01', startTime: '10:03' })
    expect(errors.startTime).toEqual(['activities:form.errors.start_time_step'])
  })
})

describe('hostile input (issue 10)', () => {
  const valid = { title: 'Walk', venueType: 'in_person', place: 'us-or-portland', startDate: '2030-01-01', startHour: '10', startMinute: '00' }
  const english = {
    common: JSON.parse(readFileSync('public/locales/en/common.json', 'utf8')) as Record<string, Record<string, string>>,
    activities: JSON.parse(readFileSync('public/locales/en/activities.json', 'utf8')) as { form: { errors: Record<string, string> } },
  }
  /** The English text a message key shows, so that a key without a translation fails here. */
  function englishText(key: string) {
    const activityKey = /^activities:form\.errors\.(\w+)$/.exec(key)?.[1]
    if (activityKey) return english.activities.form.errors[activityKey]
    const [group, name] = key.split('.') as [string, string]
    return english.common[group]?.[name]
  }

  it.each([
    ['title', 'Walk\u0000', 'validation.invalid_characters'],
    ['title', 'Walk\u0085', 'validation.invalid_characters'],
    ['title', 'Walk \u202egnp.exe', 'validation.direction_characters'],
    ['title', '\u2066Walk\u2069', 'validation.direction_characters'],
    ['title', '\u200b\u200c\u200d', 'activities:form.errors.title_required'],
    ['title', '\u2060\ufeff\u00ad', 'activities:form.errors.title_required'],
    ['description', 'A gentle\u0000 walk', 'validation.invalid_characters'],
    ['description', 'Bring \u202eshoes', 'validation.direction_characters'],
    ['address', '1 Main St\u0000', 'validation.invalid_characters'],
    ['place', 'us-or-portland\u0000', 'activities:form.errors.location_required'],
    ['ticketUrl', 'https://example.com/\u0000', 'activities:form.errors.url_invalid'],
    ['startDate', '2027-02-30', 'activities:form.errors.start_date_invalid'],
    ['startDate', '2027-04-31', 'activities:form.errors.start_date_invalid'],
    ['startDate', '2026-02-29', 'activities:form.errors.start_date_invalid'],
  ])('shows a message next to %s for %j: %s', (field, value, message) => {
    expect(errorsOf({ ...valid, [field]: value })).toEqual({ [field]: [message] })
    expect(englishText(message)).toEqual(expect.any(String))
  })

  it('keeps line breaks and tabs in the description, 29 February of a leap year, emoji and right-to-left text', () => {
    expect(errorsOf({ ...valid, description: 'Line one\r\n\tLine two 👨‍👩‍👧 \u05e9\u05dc\u05d5\u05dd\u200f', startDate: '2028-02-29', title: 'Caf\u00e9 \u0627\u0644\u0639\u0631\u0628\u064a\u0629' })).toEqual({})
  })
})
