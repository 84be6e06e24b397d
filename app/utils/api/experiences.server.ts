import type { z } from 'zod'
import { pageOf, type Page } from '#contract/common.ts'
import {
  addByEmailsResultSchema,
  attendeeSchema,
  cancelAttendanceResponseSchema,
  experienceSchema,
  waitlistEntrySchema,
  type AddByEmailsResult,
  type Experience,
  type ExperienceInput,
} from '#contract/experiences.ts'
import type { ApiTransport } from '../api.server.ts'

export type Attendee = z.infer<typeof attendeeSchema>
export type InvitedByEmail = AddByEmailsResult
export type Waitlist = Page<z.infer<typeof waitlistEntrySchema>>

/** Explore's and Home's search (spec §7 `GET v1/experiences`). */
export interface ExperienceSearch {
  page: number
  perPage: number
  /** Starting at or after this time (ISO 8601). */
  from: string
  /** Starting at or before this time, if given. */
  until?: string
  /** Only activities that have a date ("Coming soon" ones left out). */
  datedOnly?: boolean
  near?: { latitude: number; longitude: number; miles: number }
}

const path = (id: string, ...rest: string[]) => ['v1/experiences', encodeURIComponent(id), ...rest].join('/')

/** Activities (spec §7 experiences): the only code that knows their paths. */
export function experiencesClient(api: ApiTransport) {
  return {
    list: (search: ExperienceSearch) =>
      api.json('GET', 'v1/experiences', pageOf(experienceSchema), {
        query: {
          page: search.page,
          per_page: search.perPage,
          'start_date[gte]': search.from,
          'start_date[lte]': search.until,
          'start_date[not]': search.datedOnly ? 'null' : undefined,
          ...(search.near
            ? { 'distance[lte]': search.near.miles, latitude: search.near.latitude, longitude: search.near.longitude }
            : {}),
        },
      }),
    get: (id: string): Promise<Experience> => api.one('GET', path(id), experienceSchema),
    /** The activity as an iCalendar file. */
    calendar: (id: string) => api.text(path(id), 'text/calendar', { format: 'ical' }),
    create: (input: ExperienceInput): Promise<Experience> => api.one('POST', 'v1/experiences', experienceSchema, { body: input }),
    update: (id: string, input: ExperienceInput): Promise<Experience> => api.one('PUT', path(id), experienceSchema, { body: input }),
    /** The host (or an admin) cancels the activity. */
    cancel: (id: string) => api.empty('DELETE', path(id)),
    attendees: (id: string, paging: { page: number; perPage: number }) =>
      api.json('GET', path(id, 'attendees'), pageOf(attendeeSchema), { query: { page: paging.page, per_page: paging.perPage } }),
    /** The host's attendee list as CSV. */
    attendeesCsv: (id: string) => api.text(path(id, 'attendees'), 'text/csv', { format: 'csv' }),
    /** Saves the seat; at an activity with a no-show fee, with the member's agreement (decision 075). */
    attend: (id: string, userId: string, consent: { fee_consent?: boolean; fee_consent_language?: string } = {}): Promise<Experience> =>
      api.one('POST', path(id, 'attendees'), experienceSchema, { body: { user_id: userId, ...consent } }),
    cancelAttendance: async (id: string, userId: string) => {
      const answer = await api.json('DELETE', path(id, 'attendees', encodeURIComponent(userId)), cancelAttendanceResponseSchema)
      return { experience: answer.data[0], lateCancellation: answer.metadata.late_cancellation }
    },
    /** The host invites members by email; they are seated only if they accept (decision 019). */
    inviteByEmail: (id: string, emails: string[]): Promise<InvitedByEmail> =>
      api.one('POST', path(id, 'attendees', 'create-by-emails'), addByEmailsResultSchema, { body: { emails } }),
    /** The invited member (the caller) accepts: a seat, as attending takes one. */
    acceptInvitation: (id: string): Promise<Experience> => api.one('POST', path(id, 'invitations', 'accept'), experienceSchema),
    declineInvitation: (id: string) => api.empty('POST', path(id, 'invitations', 'decline')),
    waitlist: (id: string): Promise<Waitlist> => api.json('GET', path(id, 'waitlist'), pageOf(waitlistEntrySchema)),
    joinWaitlist: (id: string): Promise<Experience> => api.one('POST', path(id, 'waitlist'), experienceSchema),
    leaveWaitlist: (id: string) => api.empty('DELETE', path(id, 'waitlist')),
  }
}
