import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Experience, User } from '#api/db/schema.ts'
import { popupListSchema } from '#contract/popups.ts'
import { surveyAnswerSchema, surveyResultsSchema } from '#contract/surveys.ts'
import {
  createApiHarness,
  createExperience,
  createUser,
  testNotifier,
  type ApiHarness,
} from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { askAttendance } from './service.ts'

/** The post-activity survey (issue 15 §6, decision 046), as an API client sees it. */

let database: TestDatabase
let api: ApiHarness

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
})

afterAll(async () => {
  await database?.drop()
})

const hour = 3_600_000
const day = 24 * hour

async function as(user: User) {
  const token = await api.signToken(user.id)
  return (method: string, path: string, body?: unknown) =>
    api.request(method, path, { token, body })
}

/** An activity of a new host that started `startsAgo` ms ago (2 hours long), with `attendees` seated. */
async function activity(startsAgo: number, attendees: User[], overrides: Partial<Experience> = {}) {
  const host = await createUser(database.db)
  const experience = await createExperience(database.db, host.id, {
    start_at: new Date(Date.now() - startsAgo),
    ...overrides,
  })
  for (const attendee of attendees) {
    await database.db
      .insertInto('experience_attendees')
      .values({ experience_id: experience.id, user_id: attendee.id })
      .execute()
  }
  return { host, experience }
}

async function popupsOf(user: User) {
  const response = await (await as(user))('GET', 'v1/users/me/popups')
  expect(response.status).toBe(200)
  return popupListSchema.parse(response.json).data
}

describe('GET /api/v1/users/me/popups', () => {
  it('asks attendees whether they went once the activity has ended, and nobody else', async () => {
    const [attendee, stranger] = [await createUser(database.db), await createUser(database.db)]
    const { host, experience } = await activity(3 * hour, [attendee])
    const underway = await activity(1 * hour, [attendee])
    await activity(3 * hour, [attendee], { canceled_at: new Date() })
    await activity(20 * day, [attendee])

    const popups = await popupsOf(attendee)
    expect(popups).toEqual([
      {
        type: 'EXPERIENCE_ATTENDANCE',
        experience_id: experience.id,
        experience: {
          title: experience.title,
          start_date: experience.start_at?.toISOString(),
          timezone: experience.timezone,
        },
      },
    ])
    expect(popups.map((popup) => popup.type === 'EXPERIENCE_ATTENDANCE' && popup.experience_id)).not.toContain(underway.experience.id)
    expect(await popupsOf(stranger)).toEqual([])
    expect(await popupsOf(host)).toEqual([])
  })

  it('stops once dismissed, and dismissing again is not an error', async () => {
    const attendee = await createUser(database.db)
    const { experience } = await activity(3 * hour, [attendee])
    const call = await as(attendee)
    expect(await popupsOf(attendee)).toHaveLength(1)
    const body = { type: 'EXPERIENCE_ATTENDANCE', experience_id: experience.id }
    expect((await call('PUT', 'v1/users/me/popups', body)).status).toBe(204)
    expect((await call('PUT', 'v1/users/me/popups', body)).status).toBe(204)
    expect(await popupsOf(attendee)).toEqual([])
  })

  it('refuses to dismiss what is not the caller’s to dismiss', async () => {
    const [attendee, stranger] = [await createUser(database.db), await createUser(database.db)]
    const ended = await activity(3 * hour, [attendee])
    const upcoming = await activity(-day, [attendee])
    const body = (id: string) => ({ type: 'EXPERIENCE_ATTENDANCE', experience_id: id })
    expect(
      (await (await as(stranger))('PUT', 'v1/users/me/popups', body(ended.experience.id))).status,
    ).toBe(403)
    const call = await as(attendee)
    expect(
      (await call('PUT', 'v1/users/me/popups', body(upcoming.experience.id))).json.error.code,
    ).toBe('experience_not_ended')
    expect(
      (
        await call('PUT', 'v1/users/me/popups', {
          type: 'OTHER',
          experience_id: ended.experience.id,
        })
      ).status,
    ).toBe(422)
    expect(
      (await call('PUT', 'v1/users/me/popups', body('00000000-0000-4000-8000-000000000000')))
        .status,
    ).toBe(404)
  })
})

describe('POST /api/v1/users/me/surveys', () => {
  it('records "I went", then a rating with words for the host; the popup closes', async () => {
    const attendee = await createUser(database.db)
    const { experience } = await activity(3 * hour, [attendee])
    const call = await as(attendee)
    const went = await call('POST', 'v1/users/me/surveys', {
      type: 'EXPERIENCE_ATTENDANCE_SURVEY',
      experience_id: experience.id,
      attended: true,
    })
    expect(went.status).toBe(200)
    expect(surveyAnswerSchema.parse(went.json)).toEqual({
      experience_id: experience.id,
      attended: true,
      rating: null,
      feedback: null,
    })
    expect(await popupsOf(attendee)).toEqual([])

    const rated = await call('POST', 'v1/users/me/surveys', {
      type: 'POST_EXPERIENCE_SURVEY',
      experience_id: experience.id,
      rating: 4,
      feedback: '  Lovely walk, thank you!  ',
    })
    expect(rated.json).toEqual({
      experience_id: experience.id,
      attended: true,
      rating: 4,
      feedback: 'Lovely walk, thank you!',
    })
  })

  it('rates 5 stars when no rating is given, and a second answer replaces the first', async () => {
    const attendee = await createUser(database.db)
    const { experience } = await activity(3 * hour, [attendee])
    const call = await as(attendee)
    const first = await call('POST', 'v1/users/me/surveys', {
      type: 'POST_EXPERIENCE_SURVEY',
      experience_id: experience.id,
    })
    expect(first.json).toMatchObject({ attended: true, rating: 5, feedback: null })
    const second = await call('POST', 'v1/users/me/surveys', {
      type: 'POST_EXPERIENCE_SURVEY',
      experience_id: experience.id,
      rating: 3,
    })
    expect(second.json).toMatchObject({ rating: 3 })
    const rows = await database.db
      .selectFrom('surveys')
      .selectAll()
      .where('user_id', '=', attendee.id)
      .execute()
    expect(rows).toHaveLength(2)
    // "No, I did not go" takes the rating back.
    const no = await call('POST', 'v1/users/me/surveys', {
      type: 'EXPERIENCE_ATTENDANCE_SURVEY',
      experience_id: experience.id,
      attended: false,
    })
    expect(no.json).toEqual({
      experience_id: experience.id,
      attended: false,
      rating: null,
      feedback: null,
    })
  })

  it('refuses ratings out of range, words too long, non-attendees and activities not yet over', async () => {
    const [attendee, stranger] = [await createUser(database.db), await createUser(database.db)]
    const { experience } = await activity(3 * hour, [attendee])
    const upcoming = await activity(-day, [attendee])
    const call = await as(attendee)
    const post = (body: Record<string, unknown>) =>
      call('POST', 'v1/users/me/surveys', {
        type: 'POST_EXPERIENCE_SURVEY',
        experience_id: experience.id,
        ...body,
      })
    expect((await post({ rating: 6 })).json.error.fields).toEqual({ rating: ['rating_invalid'] })
    expect((await post({ rating: 0 })).json.error.fields).toEqual({ rating: ['rating_invalid'] })
    expect((await post({ feedback: 'x'.repeat(1001) })).json.error.fields).toEqual({
      feedback: ['feedback_too_long'],
    })
    expect(
      (
        await call('POST', 'v1/users/me/surveys', {
          type: 'EXPERIENCE_ATTENDANCE_SURVEY',
          experience_id: experience.id,
        })
      ).json.error.fields,
    ).toEqual({
      attended: ['attended_required'],
    })
    const strangerCall = await as(stranger)
    expect(
      (
        await strangerCall('POST', 'v1/users/me/surveys', {
          type: 'POST_EXPERIENCE_SURVEY',
          experience_id: experience.id,
        })
      ).status,
    ).toBe(403)
    const early = await call('POST', 'v1/users/me/surveys', {
      type: 'POST_EXPERIENCE_SURVEY',
      experience_id: upcoming.experience.id,
    })
    expect(early.status).toBe(409)
    expect(
      await database.db
        .selectFrom('surveys')
        .selectAll()
        .where('experience_id', 'in', [experience.id, upcoming.experience.id])
        .execute(),
    ).toEqual([])
  })
})

describe('GET /api/v1/users/me/surveys/{experience_id}', () => {
  it('gives the caller their own answer for the activity: nothing before they answer, then what was recorded', async () => {
    const [attendee, other] = [await createUser(database.db), await createUser(database.db)]
    const { experience } = await activity(3 * hour, [attendee, other])
    const call = await as(attendee)
    const before = await call('GET', `v1/users/me/surveys/${experience.id}`)
    expect(before.status).toBe(200)
    expect(surveyAnswerSchema.parse(before.json)).toEqual({
      experience_id: experience.id,
      attended: null,
      rating: null,
      feedback: null,
    })
    await call('POST', 'v1/users/me/surveys', {
      type: 'POST_EXPERIENCE_SURVEY',
      experience_id: experience.id,
      rating: 2,
      feedback: 'Too far to walk for me.',
    })
    // Another attendee's answer is theirs alone.
    await (await as(other))('POST', 'v1/users/me/surveys', {
      type: 'POST_EXPERIENCE_SURVEY',
      experience_id: experience.id,
      rating: 5,
    })
    const after = await call('GET', `v1/users/me/surveys/${experience.id}`)
    expect(after.json).toEqual({
      experience_id: experience.id,
      attended: true,
      rating: 2,
      feedback: 'Too far to walk for me.',
    })
    // Before the activity has ended there is simply nothing yet.
    const upcoming = await activity(-day, [attendee])
    expect((await call('GET', `v1/users/me/surveys/${upcoming.experience.id}`)).json).toMatchObject({
      rating: null,
      attended: null,
    })
  })

  it('answers 403 to someone who did not attend and 404 for an unknown or cancelled activity', async () => {
    const [attendee, stranger] = [await createUser(database.db), await createUser(database.db)]
    const { experience } = await activity(3 * hour, [attendee])
    const cancelled = await activity(3 * hour, [attendee], { canceled_at: new Date() })
    expect((await (await as(stranger))('GET', `v1/users/me/surveys/${experience.id}`)).status).toBe(403)
    const call = await as(attendee)
    expect((await call('GET', `v1/users/me/surveys/${crypto.randomUUID()}`)).status).toBe(404)
    expect((await call('GET', 'v1/users/me/surveys/not-an-id')).status).toBe(404)
    expect((await call('GET', `v1/users/me/surveys/${cancelled.experience.id}`)).status).toBe(404)
    expect((await api.request('GET', `v1/users/me/surveys/${experience.id}`)).status).toBe(401)
  })
})

describe('GET /api/v1/experiences/{id}/survey-results', () => {
  it('shows the host the average, the count and the comments without names', async () => {
    const attendees = [
      await createUser(database.db),
      await createUser(database.db),
      await createUser(database.db),
    ]
    const { host, experience } = await activity(3 * hour, attendees)
    const answers = [
      { rating: 4, feedback: 'Lovely walk' },
      { rating: 5 },
      { rating: 4, feedback: 'A bit fast for me' },
    ]
    for (const [index, answer] of answers.entries()) {
      const call = await as(attendees[index] as User)
      expect(
        (
          await call('POST', 'v1/users/me/surveys', {
            type: 'POST_EXPERIENCE_SURVEY',
            experience_id: experience.id,
            ...answer,
          })
        ).status,
      ).toBe(200)
    }
    const results = await (await as(host))('GET', `v1/experiences/${experience.id}/survey-results`)
    expect(results.status).toBe(200)
    const parsed = surveyResultsSchema.parse(results.json)
    expect(parsed.average_rating).toBe(4.3)
    expect(parsed.rating_count).toBe(3)
    expect(parsed.comments.map((comment) => comment.feedback).sort()).toEqual([
      'A bit fast for me',
      'Lovely walk',
    ])
    expect(JSON.stringify(results.json)).not.toContain(attendees[0]?.first_name ?? 'none')

    expect(
      (
        await (
          await as(attendees[0] as User)
        )('GET', `v1/experiences/${experience.id}/survey-results`)
      ).status,
    ).toBe(403)
    const empty = await activity(3 * hour, [])
    expect(
      (await (await as(empty.host))('GET', `v1/experiences/${empty.experience.id}/survey-results`))
        .json,
    ).toEqual({
      average_rating: null,
      rating_count: 0,
      comments: [],
    })
  })
})

describe('the "Did you go?" notification', () => {
  it('tells each attendee of an ended activity once, whatever reruns happen', async () => {
    const [attendee, answered] = [await createUser(database.db), await createUser(database.db)]
    const { experience } = await activity(3 * hour, [attendee, answered])
    await (
      await as(answered)
    )('POST', 'v1/users/me/surveys', {
      type: 'EXPERIENCE_ATTENDANCE_SURVEY',
      experience_id: experience.id,
      attended: true,
    })
    const { notify } = testNotifier(database.db)
    await askAttendance(database.db, notify)
    await askAttendance(database.db, notify)
    const sent = await database.db
      .selectFrom('notifications')
      .select(['user_id', 'data'])
      .where('type', '=', 'experience.attendance_survey')
      .where('user_id', 'in', [attendee.id, answered.id])
      .execute()
    expect(sent).toEqual([{ user_id: attendee.id, data: { experience_id: experience.id } }])
    // In the member's list: the question, leading to the survey.
    const listed = await (await as(attendee))('GET', 'users/notifications')
    expect(listed.json.data[0]).toMatchObject({ title: `Did you go to “${experience.title}”?`, link: `/activities/${experience.id}/survey` })
    // Told is not dismissed: the popup still shows until answered.
    expect(await popupsOf(attendee)).toHaveLength(1)
  })

  it('asks about a day-long activity that ended within the window though it started before it', async () => {
    const [attendee, late] = [await createUser(database.db), await createUser(database.db)]
    const within = await activity(14.5 * day, [attendee], { end_at: new Date(Date.now() - 13.5 * day) })
    await activity(15.5 * day, [late], { end_at: new Date(Date.now() - 14.5 * day) })
    const { notify } = testNotifier(database.db)
    await askAttendance(database.db, notify)
    expect(await askAttendance(database.db, notify)).toBe(0)
    const sent = await database.db
      .selectFrom('notifications')
      .select(['user_id', 'data'])
      .where('type', '=', 'experience.attendance_survey')
      .where('user_id', 'in', [attendee.id, late.id])
      .execute()
    expect(sent).toEqual([{ user_id: attendee.id, data: { experience_id: within.experience.id } }])
  })
})
