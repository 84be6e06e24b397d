import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { photoChecker } from '#api/media/photo-check.ts'
import { interests } from '#contract/profile.ts'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { htmlProblems } from '#tests/html-validate.ts'
import { createDocumentHandler, readableHtml } from '#tests/web-document.ts'
import { createWebHarness, type WebHarness } from '#tests/web-harness.ts'
import { languageCookie } from '#app/utils/i18next.server.ts'
import * as editPage from './edit.tsx'

/** `/account/edit` as a browser without JavaScript uses it (issue 13 §1): one form per section. */
let database: TestDatabase
let web: WebHarness

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
}, 60_000)

afterAll(async () => {
  await photoChecker.stop()
  await web?.close()
  await database?.drop()
})

const handle = createDocumentHandler([{ id: 'routes/account+/edit', path: 'account/edit', module: editPage as never }])

async function member(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(database.db, { first_name: 'Margaret', last_name: 'Hughes', ...overrides })
  return { user, cookie: await web.signedInCookie(user.id) }
}

async function page(cookie: string, language = 'en') {
  const response = await handle(new Request(`${TEST_PUBLIC_URL}/account/edit`, { headers: { cookie, 'accept-language': language } }), web.newContext())
  return { status: response.status, html: readableHtml(await response.text()) }
}

async function post(cookie: string, fields: [string, string][]) {
  const body = new URLSearchParams(fields)
  const response = await handle(new Request(`${TEST_PUBLIC_URL}/account/edit`, { method: 'POST', headers: { cookie }, body }), web.newContext())
  return { response, html: readableHtml(await response.text()) }
}

function stored(id: string) {
  return database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

/** The error summary's items (its text with tags dropped). */
function summaryText(html: string) {
  const start = html.indexOf('class="error-summary"')
  if (start < 0) return ''
  return html.slice(start, html.indexOf('</div>', start)).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')
}

describe('the page', () => {
  it('asks a visitor to sign in', async () => {
    const response = await handle(new Request(`${TEST_PUBLIC_URL}/account/edit`), web.newContext())
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(`/login?returnTo=${encodeURIComponent('/account/edit')}`)
  })

  it('shows every section with what is saved, the email with its change link, and a translated title', async () => {
    const { user, cookie } = await member({ phone: '+15035550142', city: 'Portland, OR', region: 'OR' })
    await web.api.request('PUT', 'v1/users/me', { token: await web.api.signToken(user.id), body: { interests: ['chess'], prompts: [{ prompt: 'first_job', answer: 'Paper round.' }], relationship: 'widowed' } })
    const { status, html } = await page(cookie)
    expect(status).toBe(200)
    expect(html).toContain('<title>Edit my profile – Circle 55</title>')
    for (const section of ['name', 'about', 'interests', 'prompts', 'city', 'phone', 'privacy', 'language']) {
      expect(html).toContain(`<input type="hidden" name="intent" value="${section}"/>`)
    }
    expect(html).toContain('value="Margaret"')
    expect(html).toContain('value="(503) 555-0142"')
    expect(html).toMatch(/id="interest-chess"[^>]*checked/)
    expect(html).toMatch(/<option value="first_job" selected="">My first job was…<\/option>/)
    expect(html).toContain('>Paper round.</textarea>')
    expect(html).toMatch(/<option value="widowed" selected="">Widowed<\/option>/)
    expect(html).toContain('value="Portland, OR"')
    expect(html).toContain(`Your email address is ${user.email}.`)
    expect(html).toContain('href="/account/email"')
    // The defaults: age hidden, seen by everyone near by.
    expect(html).toMatch(/<input id="showAge-1" type="radio" name="showAge" checked="" value="no"/)
    expect(html).toMatch(/<input id="nearbyVisibility-0" type="radio" name="nearbyVisibility" checked="" value="everyone"/)
  })

  it('is in French and Dutch', async () => {
    const { cookie } = await member({ locale: 'fr' })
    expect((await page(cookie, 'fr')).html).toContain('<title>Modifier mon profil – Circle 55</title>')
    const dutch = await member({ locale: 'nl' })
    const { html } = await page(dutch.cookie, 'nl')
    expect(html).toContain('<title>Mijn profiel bewerken – Circle 55</title>')
    expect(html).toContain('Een perfecte zondag is voor mij…')
  })
})

describe('saving a section', () => {
  it('saves the name and goes back to its section with a toast', async () => {
    const { user, cookie } = await member()
    const { response } = await post(cookie, [['intent', 'name'], ['firstName', 'Maggie'], ['lastName', 'Hughes']])
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/account/edit#name-section')
    expect(response.headers.get('set-cookie')).toContain('toast')
    expect((await stored(user.id)).first_name).toBe('Maggie')
  })

  it('saves about you, interests, prompts, the city, the phone and privacy', async () => {
    const { user, cookie } = await member()
    const sections: [string, string][][] = [
      [['intent', 'about'], ['gender', 'woman'], ['relationship', 'married'], ['employment', 'retired'], ['family', 'grandchildren'], ['family', 'pets'], ['reasons', 'new_people']],
      [['intent', 'interests'], ['interests', 'walking'], ['interests', 'bridge']],
      [['intent', 'prompts'], ['prompts[0].prompt', 'dream_trip'], ['prompts[0].answer', 'Lisbon by train.'], ['prompts[1].prompt', ''], ['prompts[1].answer', ''], ['prompts[2].prompt', 'first_job'], ['prompts[2].answer', 'Paper round.']],
      [['intent', 'city'], ['q', 'boise'], ['place', '']],
      [['intent', 'phone'], ['phone', '503 555 0199']],
      [['intent', 'privacy'], ['showAge', 'yes'], ['nearbyVisibility', 'attended']],
    ]
    for (const fields of sections) expect((await post(cookie, fields)).response.status).toBe(302)
    const me = (await web.api.request('GET', 'v1/users/me', { token: await web.api.signToken(user.id) })).json.data[0]
    expect(me).toMatchObject({
      gender: 'woman',
      relationship: 'married',
      employment: 'retired',
      family: ['grandchildren', 'pets'],
      join_reasons: ['new_people'],
      interests: ['walking', 'bridge'],
      prompts: [
        { prompt: 'dream_trip', answer: 'Lisbon by train.' },
        { prompt: 'first_job', answer: 'Paper round.' },
      ],
      city: 'Boise, ID',
      region: 'ID',
      phone: '+15035550199',
      show_age: true,
      nearby_visibility: 'attended',
    })
  })

  it('switches the language of the page with the member’s language', async () => {
    const { user, cookie } = await member()
    const { response } = await post(cookie, [['intent', 'language'], ['language', 'nl']])
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/account/edit#language-section')
    expect(await languageCookie.parse(response.headers.get('set-cookie'))).toBe('nl')
    expect((await stored(user.id)).locale).toBe('nl')
  })

  it('answers 400 to an unknown intent', async () => {
    const { cookie } = await member()
    expect((await post(cookie, [['intent', 'admin']])).response.status).toBe(400)
  })
})

describe('mistakes, shown next to the field and in the summary, with what was typed kept', () => {
  it.each([
    ['an empty first name', [['intent', 'name'], ['firstName', ''], ['lastName', 'Hughes-Smythe']], 'Enter your first name.', 'Hughes-Smythe'],
    ['a name too long', [['intent', 'name'], ['firstName', 'M'.repeat(61)], ['lastName', 'Hughes']], 'This is too long.', 'M'.repeat(61)],
    ['an invalid phone', [['intent', 'phone'], ['phone', '555 01']], 'Enter a valid US phone number, like (503) 555-0142.', '555 01'],
    ['11 interests', [['intent', 'interests'], ...interests.slice(0, 11).map((key) => ['interests', key])], 'Choose 10 interests or fewer. Untick some to save.', 'id="interest-trivia"'],
    ['an answer over 300 characters', [['intent', 'prompts'], ['prompts[0].prompt', 'first_job'], ['prompts[0].answer', 'a'.repeat(301)]], 'Your answer must be 300 characters or fewer.', 'a'.repeat(301)],
    ['a question asked twice', [['intent', 'prompts'], ['prompts[0].prompt', 'first_job'], ['prompts[0].answer', 'One.'], ['prompts[1].prompt', 'first_job'], ['prompts[1].answer', 'Two, kept.']], 'Choose a different question for each answer.', 'Two, kept.'],
    ['an unknown city', [['intent', 'city'], ['q', 'Qqzzxv Wwyy'], ['place', '']], 'Unable to find your location. Please try again.', 'value="Qqzzxv Wwyy"'],
  ] as [string, [string, string][], string, string][])('%s', async (_, fields, message, kept) => {
    const { cookie } = await member()
    const { response, html } = await post(cookie, fields)
    expect(response.status).toBe(400)
    expect(html).toContain('<title>Error: Edit my profile – Circle 55</title>')
    expect(summaryText(html)).toContain(message)
    expect(html).toMatch(new RegExp(`class="field-error"><span class="visually-hidden">Error: </span>${message.replace(/[.()?]/g, '\\$&')}`))
    expect(html).toContain(kept)
  })

  it('links each summary item to its field', async () => {
    const { cookie } = await member()
    const { html } = await post(cookie, [['intent', 'prompts'], ['prompts[0].prompt', 'first_job'], ['prompts[0].answer', ''], ['prompts[1].prompt', ''], ['prompts[1].answer', 'No question.']])
    expect(html).toContain('<a href="#prompts-0-answer">Write an answer to this question, or choose “No question”.</a>')
    expect(html).toContain('<a href="#prompts-1-prompt">Choose a question for this answer, or clear the answer.</a>')
    expect(html).toContain('id="prompts-0-answer"')
    expect(html).toContain('id="prompts-1-prompt"')
  })

  it('keeps the other sections as saved and saves nothing', async () => {
    const { user, cookie } = await member({ phone: '+15035550142' })
    const { html } = await post(cookie, [['intent', 'name'], ['firstName', ''], ['lastName', 'Other']])
    expect(html).toContain('value="(503) 555-0142"')
    expect((await stored(user.id)).last_name).toBe('Hughes')
  })
})

/** html-validate's findings; Vitest bundles no CSS, so root's stylesheet link is given the address a build gives it. */
async function validationOf(html: string) {
  return htmlProblems(html.replace('<link rel="stylesheet" href=""/>', '<link rel="stylesheet" href="/assets/app.css"/>'))
}

describe('the photo (issue 13 §2), through the real face check', () => {
  const fixture = async (name: string) =>
    new File([await readFile(path.join(import.meta.dirname, '../../../tests/fixtures/photos', name))], name, { type: 'image/jpeg' })

  async function sendPhoto(cookie: string, photo: File | null) {
    const form = new FormData()
    form.set('photo', photo ?? new File([], '', { type: 'application/octet-stream' }))
    const response = await handle(new Request(`${TEST_PUBLIC_URL}/account/edit`, { method: 'POST', headers: { cookie }, body: form }), web.newContext())
    return { response, html: readableHtml(await response.text()) }
  }

  it('saves a photo of one face, shows it, and removes it on request', async () => {
    const { user, cookie } = await member()
    expect((await page(cookie)).html).not.toContain('Remove my photo')
    const { response } = await sendPhoto(cookie, await fixture('one-face.jpg'))
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/account/edit#photo-section')
    expect(response.headers.get('set-cookie')).toContain('toast')
    const avatar = (await stored(user.id)).avatar_media_id
    expect(avatar).not.toBeNull()
    const { html } = await page(cookie)
    expect(html).toMatch(/<img src="[^"]+" alt="Your profile photo now"/)

    const removed = await post(cookie, [['intent', 'removePhoto']])
    expect(removed.response.status).toBe(302)
    expect(removed.response.headers.get('location')).toBe('/account/edit#photo-section')
    expect((await stored(user.id)).avatar_media_id).toBeNull()
    const after = (await page(cookie)).html
    expect(after).not.toContain('Your profile photo now')
  }, 60_000)

  it.each([
    ['no-face.jpg', 422, 'We could not find a face in this photo.'],
    ['two-faces.jpg', 422, 'This photo shows more than one face.'],
    [null, 400, 'Choose a photo of yourself first.'],
  ])('refuses %s next to the field and in the summary, keeping the photo as it was', async (name, status, message) => {
    const { user, cookie } = await member()
    const { response, html } = await sendPhoto(cookie, name ? await fixture(name) : null)
    expect(response.status).toBe(status)
    expect(html).toMatch(new RegExp(`id="photo-error"[^>]*>[\\s\\S]{0,200}${message.replace('.', '\\.')}`))
    expect(summaryText(html)).toContain(message)
    expect(summaryText(html)).not.toContain('Skip')
    expect(await validationOf(html)).toEqual([])
    expect((await stored(user.id)).avatar_media_id).toBeNull()
  }, 60_000)
})

describe('valid HTML', () => {
  it('passes html-validate, as saved and with errors in every section that can have them', async () => {
    const { user, cookie } = await member()
    await web.api.request('PUT', 'v1/users/me', { token: await web.api.signToken(user.id), body: { interests: ['chess'], prompts: [{ prompt: 'first_job', answer: 'Paper round.' }], city: 'us-or-portland' } })
    expect(await validationOf((await page(cookie)).html)).toEqual([])
    const mistakes: [string, string][][] = [
      [['intent', 'name'], ['firstName', ''], ['lastName', '']],
      [['intent', 'interests'], ...interests.slice(0, 11).map((key): [string, string] => ['interests', key])],
      [['intent', 'prompts'], ['prompts[0].prompt', 'first_job'], ['prompts[0].answer', ''], ['prompts[1].prompt', 'first_job'], ['prompts[1].answer', 'Two.']],
      [['intent', 'city'], ['q', 'Qqzzxv Wwyy']],
      [['intent', 'phone'], ['phone', '12']],
      [['intent', 'privacy']],
    ]
    for (const fields of mistakes) expect(await validationOf((await post(cookie, fields)).html)).toEqual([])
  })
})

describe('during a database outage', () => {
  it('shows the section again with what was typed and says nothing was saved', async () => {
    const { cookie } = await member()
    web.takeDown()
    try {
      const { response, html } = await post(cookie, [['intent', 'prompts'], ['prompts[0].prompt', 'dream_trip'], ['prompts[0].answer', 'Lisbon, kept.']])
      expect(response.status).toBe(503)
      expect(summaryText(html)).toContain('Nothing was saved')
      expect(html).toContain('>Lisbon, kept.</textarea>')
    } finally {
      web.bringUp()
    }
  })
})
