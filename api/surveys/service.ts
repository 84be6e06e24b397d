import { sql } from 'kysely'
import type { AttendancePopup } from '#contract/popups.ts'
import type { SurveyAnswer, SurveyInput, SurveyResults } from '#contract/surveys.ts'
import { defaultRating } from '#contract/surveys.ts'
import type { DB } from '../db/database.ts'
import type { User } from '../db/schema.ts'
import { problems } from '../http/errors.ts'
import { isUuid } from '../http/params.ts'
import type { Notify } from '../notifications/service.ts'
import { requirePermission } from '../policy/permissions.ts'
import { experienceEnd, recentlyEndedSeats } from './queries.ts'

/**
 * The post-activity survey (issue 15 §6, decision 046). The `EXPERIENCE_ATTENDANCE` popup is
 * computed, not stored ahead: an attendee of an activity that ended in the last 14 days sees it
 * until they answer "Did you go?" or dismiss it. A `popups` row records that they were told
 * (the notification, once) and, with `dismissed_at`, that they said "not now" for good.
 */

/** The caller's open `EXPERIENCE_ATTENDANCE` popups (`GET v1/users/me/popups`), the most recently ended activity first. */
export async function attendancePopups(db: DB, caller: User, now = new Date()): Promise<AttendancePopup[]> {
  const rows = await recentlyEndedSeats(db, now)
    .select(['experiences.id', 'experiences.title', 'experiences.start_at', 'experiences.timezone'])
    .where('experience_attendees.user_id', '=', caller.id)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('popups')
            .select(sql`1`.as('one'))
            .whereRef('popups.experience_id', '=', 'experiences.id')
            .where('popups.user_id', '=', caller.id)
            .where('popups.type', '=', 'EXPERIENCE_ATTENDANCE')
            .where('popups.dismissed_at', 'is not', null),
        ),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('surveys')
            .select(sql`1`.as('one'))
            .whereRef('surveys.experience_id', '=', 'experiences.id')
            .where('surveys.user_id', '=', caller.id)
            .where('surveys.type', '=', 'EXPERIENCE_ATTENDANCE_SURVEY'),
        ),
      ),
    )
    .orderBy(experienceEnd, 'desc')
    .orderBy('experiences.id')
    .execute()
  return rows.map((row) => ({
    type: 'EXPERIENCE_ATTENDANCE',
    experience_id: row.id,
    experience: {
      title: row.title,
      start_date: row.start_at?.toISOString() ?? null,
      timezone: row.timezone,
    },
  }))
}

/**
 * The activity a survey answer or a dismissal is about, with whether the caller held a seat
 * there: 404 when it does not exist or was cancelled, 403 when the caller did not attend, 409
 * `experience_not_ended` before it ends.
 */
async function endedActivityOf(db: DB, caller: User, experienceId: string, now: Date, mustHaveEnded = true) {
  if (!isUuid(experienceId)) throw problems.notFound('Experience not found')
  const experience = await db
    .selectFrom('experiences')
    .select([
      'experiences.id',
      'experiences.host_id',
      sql<boolean>`${experienceEnd} <= ${now}`.as('ended'),
    ])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('experience_attendees')
            .select(sql`1`.as('one'))
            .whereRef('experience_attendees.experience_id', '=', 'experiences.id')
            .where('experience_attendees.user_id', '=', caller.id),
        )
        .as('holds_seat'),
    )
    .where('experiences.id', '=', experienceId)
    .where('experiences.canceled_at', 'is', null)
    .executeTakeFirst()
  if (!experience) throw problems.notFound('Experience not found')
  requirePermission(caller, 'answer:survey', {
    host_id: experience.host_id,
    holds_seat: Boolean(experience.holds_seat),
  })
  if (mustHaveEnded && !experience.ended)
    throw problems.conflict('experience_not_ended', 'The activity has not ended yet.')
  return experience
}

/** "Did you go?" put away (`PUT v1/users/me/popups`): "not now", for good. Idempotent: the first dismissal's time is kept. */
export async function dismissAttendancePopup(db: DB, caller: User, experienceId: string, now = new Date()) {
  const experience = await endedActivityOf(db, caller, experienceId, now)
  await db
    .insertInto('popups')
    .values({
      user_id: caller.id,
      type: 'EXPERIENCE_ATTENDANCE',
      experience_id: experience.id,
      dismissed_at: now,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['user_id', 'type', 'experience_id'])
        .doUpdateSet({ dismissed_at: sql`coalesce(popups.dismissed_at, excluded.dismissed_at)` }),
    )
    .execute()
}

/**
 * `POST v1/users/me/surveys`. Answering again replaces the earlier answer (a member may correct
 * a slip of the finger; decision 046). A rating says the member went, so it records "yes" too.
 */
export async function answerSurvey(
  db: DB,
  caller: User,
  input: SurveyInput,
  now = new Date(),
): Promise<SurveyAnswer> {
  const experience = await endedActivityOf(db, caller, input.experience_id, now)
  await db.transaction().execute(async (trx) => {
    const attended = input.type === 'EXPERIENCE_ATTENDANCE_SURVEY' ? input.attended : true
    await trx
      .insertInto('surveys')
      .values({
        user_id: caller.id,
        type: 'EXPERIENCE_ATTENDANCE_SURVEY',
        experience_id: experience.id,
        attended,
      })
      .onConflict((conflict) =>
        conflict.columns(['user_id', 'type', 'experience_id']).doUpdateSet({ attended }),
      )
      .execute()
    if (input.type === 'POST_EXPERIENCE_SURVEY') {
      const answer = { rating: input.rating ?? defaultRating, feedback: input.feedback || null }
      await trx
        .insertInto('surveys')
        .values({
          user_id: caller.id,
          type: 'POST_EXPERIENCE_SURVEY',
          experience_id: experience.id,
          ...answer,
        })
        .onConflict((conflict) =>
          conflict.columns(['user_id', 'type', 'experience_id']).doUpdateSet(answer),
        )
        .execute()
    } else if (!input.attended) {
      // "No, I did not go": a rating given before no longer counts.
      await trx
        .deleteFrom('surveys')
        .where('user_id', '=', caller.id)
        .where('experience_id', '=', experience.id)
        .where('type', '=', 'POST_EXPERIENCE_SURVEY')
        .execute()
    }
  })
  return surveyAnswer(db, caller.id, experience.id)
}

/**
 * `GET v1/users/me/surveys/{experience_id}`: the caller's own answers for one activity, so that
 * the survey page reopens on what the member gave rather than on the default 5 (issue 29 §4).
 * Whoever may answer may read (404 unknown or cancelled, 403 not an attendee); before the
 * activity ends, or before any answer, every field is null.
 */
export async function ownSurveyAnswer(db: DB, caller: User, experienceId: string, now = new Date()): Promise<SurveyAnswer> {
  const experience = await endedActivityOf(db, caller, experienceId, now, false)
  return surveyAnswer(db, caller.id, experience.id)
}

async function surveyAnswer(db: DB, userId: string, experienceId: string): Promise<SurveyAnswer> {
  const rows = await db
    .selectFrom('surveys')
    .select(['type', 'attended', 'rating', 'feedback'])
    .where('user_id', '=', userId)
    .where('experience_id', '=', experienceId)
    .execute()
  const attendance = rows.find((row) => row.type === 'EXPERIENCE_ATTENDANCE_SURVEY')
  const rating = rows.find((row) => row.type === 'POST_EXPERIENCE_SURVEY')
  return {
    experience_id: experienceId,
    attended: attendance?.attended ?? null,
    rating: rating?.rating ?? null,
    feedback: rating?.feedback ?? null,
  }
}

/**
 * `GET v1/experiences/{id}/survey-results`: the average, the count and the comments, for the
 * host and admins. Comments carry no name (decision 046): a frank word stays comfortable to give.
 */
export async function surveyResults(
  db: DB,
  caller: User,
  idOrSlug: string,
): Promise<SurveyResults> {
  const experience = await db
    .selectFrom('experiences')
    .select(['id', 'host_id'])
    .where(isUuid(idOrSlug) ? 'id' : 'slug', '=', idOrSlug)
    .executeTakeFirst()
  if (!experience) throw problems.notFound('Experience not found')
  requirePermission(caller, 'read:survey:results', { host_id: experience.host_id })
  const ratings = db
    .selectFrom('surveys')
    .where('experience_id', '=', experience.id)
    .where('type', '=', 'POST_EXPERIENCE_SURVEY')
  const [summary, comments] = await Promise.all([
    ratings
      .select([
        sql<string | null>`round(avg(rating), 1)`.as('average'),
        sql<string>`count(*)`.as('count'),
      ])
      .executeTakeFirstOrThrow(),
    ratings
      .select(['rating', 'feedback', 'created_at'])
      .where('feedback', 'is not', null)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute(),
  ])
  return {
    average_rating: summary.average === null ? null : Number(summary.average),
    rating_count: Number(summary.count),
    comments: comments.map((row) => ({
      rating: row.rating ?? defaultRating,
      feedback: row.feedback ?? '',
      created_at: row.created_at.toISOString(),
    })),
  }
}

/**
 * The notification "Did you go to …?" (`experience.attendance_survey`), once per attendee per
 * activity: the `popups` row inserted here is the record that they were told, so a rerun or a
 * retry finds it and tells nobody twice. Row and notification commit together.
 */
export async function askAttendance(db: DB, notify: Notify, now = new Date()) {
  return db.transaction().execute(async (trx) => {
    const asked = await trx
      .insertInto('popups')
      .columns(['user_id', 'type', 'experience_id'])
      .expression(
        recentlyEndedSeats(trx, now)
          .select([
            'experience_attendees.user_id',
            sql<'EXPERIENCE_ATTENDANCE'>`'EXPERIENCE_ATTENDANCE'::popup_type`.as('type'),
            'experiences.id',
          ])
          // A deleted member's past seat stays (decision 028); they are asked nothing (decision 068).
          .where((eb) =>
            eb.exists(eb.selectFrom('users').select(sql`1`.as('one')).whereRef('users.id', '=', 'experience_attendees.user_id').where('users.state', '!=', 'deleted')),
          )
          // Who already answered (before this run found the activity ended) is not asked again.
          .where((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom('surveys')
                  .select(sql`1`.as('one'))
                  .whereRef('surveys.experience_id', '=', 'experiences.id')
                  .whereRef('surveys.user_id', '=', 'experience_attendees.user_id'),
              ),
            ),
          )
          // Who was asked by an earlier run is skipped here rather than by the conflict below
          // (which still settles two runs at once): every run no longer re-inserts every seat.
          .where((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom('popups')
                  .select(sql`1`.as('one'))
                  .whereRef('popups.user_id', '=', 'experience_attendees.user_id')
                  .where('popups.type', '=', 'EXPERIENCE_ATTENDANCE')
                  .whereRef('popups.experience_id', '=', 'experiences.id'),
              ),
            ),
          ),
      )
      .onConflict((conflict) => conflict.columns(['user_id', 'type', 'experience_id']).doNothing())
      .returning(['user_id', 'experience_id'])
      .execute()
    const byExperience = new Map<string, string[]>()
    for (const row of asked) {
      if (!row.experience_id) continue
      byExperience.set(row.experience_id, [
        ...(byExperience.get(row.experience_id) ?? []),
        row.user_id,
      ])
    }
    for (const [experienceId, to] of byExperience) {
      await notify(
        { type: 'experience.attendance_survey', to, data: { experience_id: experienceId } },
        trx,
      )
    }
    return asked.length
  })
}
