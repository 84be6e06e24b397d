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
