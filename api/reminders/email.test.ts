import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEST_PUBLIC_URL, createExperience, createUser } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import type { Experience, User } from '../db/schema.ts'
import { composeNotificationEmail } from '../notifications/delivery.ts'

/**
 * Issue 15 §1–2: the reminder and the change emails, as members read them: when and where on the
 * activity's clock, directions, the link to cancel with the late-cancel warning inside the
 * window, the host's count, in en, fr and nl; a change's old → new and its calendar file.
 */
const HOUR = 3_600_000
let database: TestDatabase

beforeAll(async () => {
  database = await createTestDatabase()
})

afterAll(async () => {
  await database?.drop()
})

async function seat(experience: Experience, userId: string) {
  await database.db.insertInto('experience_attendees').values({ experience_id: experience.id, user_id: userId }).execute()
  await database.db.updateTable('experiences').set((eb) => ({ attendees_count: eb('attendees_count', '+', 1) })).where('id', '=', experience.id).execute()
}

async function setup(hours: number, overrides: Parameters<typeof createExperience>[2] = {}, locale: User['locale'] = 'en') {
  const host = await createUser(database.db, { first_name: 'Helen' })
  const ann = await createUser(database.db, { first_name: 'Ann', locale })
  const bob = await createUser(database.db)
  const start = new Date(Math.floor((Date.now() + hours * HOUR) / 60_000) * 60_000)
  const experience = await createExperience(database.db, host.id, { start_at: start, end_at: new Date(start.getTime() + 2 * HOUR), ...overrides })
  await seat(experience, ann.id)
  await seat(experience, bob.id)
  return { host, ann, experience }
}

const reminder = (experience: Experience, userId: string, slot: '24h' | '2h') =>
  composeNotificationEmail(database.db, { user_id: userId, type: 'experience.reminder', data: { experience_id: experience.id, slot, start_at: experience.start_at!.toISOString() } }, TEST_PUBLIC_URL)

describe('the reminder email', () => {
  it('tells an attendee when, where, how to get there and how to cancel; no late warning a day ahead', async () => {
    const { ann, experience } = await setup(24, { no_show_fee_cents: 500 })
    const email = await reminder(experience, ann.id, '24h')
    expect(email).toMatchObject({ to: ann.email, kind: 'experienceReminder', locale: 'en', subject: 'Reminder: “Riverside walk” is tomorrow' })
    expect(email!.text).toContain('Hello Ann,')
    expect(email!.text).toContain('Where: 1 SW Naito Pkwy, Portland, OR')
    expect(email!.text).toContain(`Directions: https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent('1 SW Naito Pkwy, Portland, OR')}`)
    expect(email!.text).toMatch(/When: .+ (PDT|PST)/)
    expect(email!.text).toContain(`please cancel your seat so that someone else can have it:\n${TEST_PUBLIC_URL}/activities/${experience.id}`)
    expect(email!.text).not.toContain('less than 12 hours before the start')
  })

  it('warns of a late cancellation and its fee 2 hours ahead', async () => {
    const { ann, experience } = await setup(2, { no_show_fee_cents: 500 })
    const email = await reminder(experience, ann.id, '2h')
    expect(email!.subject).toBe('Reminder: “Riverside walk” starts in 2 hours')
    // Issue 29 §4: what happens today, and that no fee is charged (payments do not exist yet).
    expect(email!.text).toContain('Please note: it is now less than 12 hours before the start. If you cancel, the host is told you cannot come. The host has set a no-show fee of $5. If you agreed to it when you saved your seat, it may be charged if you cancel less than 12 hours before the start or do not come; we always tell you first.')
    expect(email!.text).not.toMatch(/applies|will be charged/)
  })

  it('tells the host how many are coming', async () => {
    const { host, experience } = await setup(24)
    const email = await reminder(experience, host.id, '24h')
    expect(email!.text).toContain('2 people are coming.')
    expect(email!.text).not.toContain('cancel your seat')
  })

  it('gives the online link for an online activity', async () => {
    const { ann, experience } = await setup(24, { venue_type: 'online', url: 'https://meet.example.com/walk', formatted_address: null, place_id: null, latitude: null, longitude: null })
    const email = await reminder(experience, ann.id, '24h')
    expect(email!.text).toContain('Where: Online\nJoin here: https://meet.example.com/walk')
  })

  it('speaks French and Dutch', async () => {
    const fr = await setup(2, { no_show_fee_cents: 500 }, 'fr')
    const french = await reminder(fr.experience, fr.ann.id, '2h')
    expect(french!.subject).toBe('Rappel : « Riverside walk » commence dans 2 heures')
    expect(french!.text).toContain('Itinéraire : https://www.google.com/maps/dir/')
    expect(french!.text).toContain("Si vous annulez, l'organisateur est prévenu que vous ne pouvez pas venir.")
    expect(french!.text).toContain('Si vous les avez acceptés en réservant votre place, ils peuvent être débités')
    const nl = await setup(24, {}, 'nl')
    const dutch = await reminder(nl.experience, nl.ann.id, '24h')
    expect(dutch!.subject).toBe('Herinnering: ‘Riverside walk’ is morgen')
    expect(dutch!.text).toContain('Routebeschrijving: https://www.google.com/maps/dir/')
  })

  it('is not sent to a member who cancelled, nor for a start that moved', async () => {
    const { ann, experience } = await setup(24)
    await database.db.deleteFrom('experience_attendees').where('user_id', '=', ann.id).execute()
    expect(await reminder(experience, ann.id, '24h')).toBeNull()
    const other = await setup(24)
    const moved = { ...other.experience, start_at: new Date(other.experience.start_at!.getTime() - HOUR) }
    expect(await reminder(moved, other.ann.id, '24h')).toBeNull()
  })
})

describe('the change email', () => {
  it('says what changed, old → new, and carries the updated calendar file', async () => {
    const { ann, experience } = await setup(48)
    const before = experience.start_at!
    const start = new Date(before.getTime() + 24 * HOUR)
    await database.db
      .updateTable('experiences')
      .set({ start_at: start, end_at: new Date(start.getTime() + 2 * HOUR), formatted_address: '2 Main St, Portland, OR', updated_at: new Date(experience.created_at.getTime() + 90_000) })
      .where('id', '=', experience.id)
      .execute()
    const data = {
      experience_id: experience.id,
      changes: ['time', 'place'],
      before: { start_at: before.toISOString(), venue_type: 'in_person', formatted_address: '1 SW Naito Pkwy, Portland, OR', city: 'Portland', region: 'OR', url: null },
    }
    const email = await composeNotificationEmail(database.db, { user_id: ann.id, type: 'experience.changed', data }, TEST_PUBLIC_URL)
    expect(email!.subject).toBe('“Riverside walk” has changed')
    expect(email!.text).toMatch(/Time: .+ → now .+/)
    expect(email!.text).toContain('Place: 1 SW Naito Pkwy, Portland, OR → now 2 Main St, Portland, OR')
    expect(email!.text).toContain(`Directions: https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent('2 Main St, Portland, OR')}`)

    const [file] = email!.attachments!
    expect(file).toMatchObject({ filename: `${experience.slug}.ics`, contentType: 'text/calendar; method=REQUEST; charset=UTF-8' })
    const ics = String(file!.content)
    expect(ics.endsWith('\r\n')).toBe(true)
    const lines = ics.replace(/\r\n /g, '').split('\r\n').filter(Boolean)
    expect(lines[0]).toBe('BEGIN:VCALENDAR')
    expect(lines.at(-1)).toBe('END:VCALENDAR')
    const fields = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)]))
    expect(fields).toMatchObject({
      METHOD: 'REQUEST',
      UID: `${experience.id}@localhost`,
      SEQUENCE: '90',
      DTSTART: start.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, ''),
      LOCATION: '2 Main St\\, Portland\\, OR',
      STATUS: 'CONFIRMED',
    })
  })

  it('is not sent once the member has left', async () => {
    const { ann, experience } = await setup(48)
    await database.db.deleteFrom('experience_attendees').where('user_id', '=', ann.id).execute()
    const email = await composeNotificationEmail(database.db, { user_id: ann.id, type: 'experience.changed', data: { experience_id: experience.id, changes: ['time'] } }, TEST_PUBLIC_URL)
    expect(email).toBeNull()
  })
})
