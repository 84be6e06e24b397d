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
import { withSetCookies } from '#tests/route-pages.ts'
import { languageCookie } from '#app/utils/i18next.server.ts'
import * as editPage from './edit.tsx'
import * as sectionPage from './edit_.$section.tsx'

/**
 * The profile editor as a browser without JavaScript uses it (issue 13 §1, issue 29 §4):
 * `/account/edit` lists what the profile says with "Change" to each section's own page,
 * `/account/edit/{section}`, whose one form saves that section and comes back to its row.
 */
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

const handle = createDocumentHandler([
  { id: 'routes/account+/edit', path: 'account/edit', module: editPage as never },
  { id: 'routes/account+/edit_.$section', path: 'account/edit/:section', module: sectionPage as never },
])

async function member(overrides: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(database.db, { first_name: 'Margaret', last_name: 'Hughes', ...overrides })
  return { user, cookie: await web.signedInCookie(user.id) }
}

async function page(cookie: string, language = 'en', path = '/account/edit') {
  const response = await handle(new Request(`${TEST_PUBLIC_URL}${path}`, { headers: { cookie, 'accept-language': language } }), web.newContext())
  return { status: response.status, html: readableHtml(await response.text()) }
}

/** A section's form sent from its own page (its `intent` first, as the form sends it). */
async function post(cookie: string, fields: [string, string][], path = `/account/edit/${fields[0]?.[1] ?? ''}`) {
  const body = new URLSearchParams(fields)
  const response = await handle(new Request(`${TEST_PUBLIC_URL}${path}`, { method: 'POST', headers: { cookie }, body }), web.newContext())
  return { response, html: readableHtml(await response.text()) }
}

/** The page's own part of a document (the header and footer have forms of their own). */
const mainOf = (html: string) => html.slice(html.indexOf('<main'), html.indexOf('</main>'))
/** The `<form>`s and the submit buttons of the page. */
const forms = (html: string) => mainOf(html).match(/<form\b/g)?.length ?? 0
const saveButtons = (html: string) => mainOf(html).match(/<button type="submit"/g)?.length ?? 0

/** The text of a summary row (`#{section}-section`), tags dropped. */
function rowText(html: string, section: string) {
  const start = html.indexOf(`id="${section}-section"`)
  if (start < 0) return ''
  const next = html.indexOf('class="summary-list__row', html.indexOf('>', start))
  const end = next < 0 ? html.indexOf('</section>', start) : next
  return html.slice(start, end).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')
}

/** The values of the ticked boxes or the chosen radio named `name`, in the page's order. */
function checked(html: string, name: string) {
  return [...html.matchAll(/<input\b[^>]*>/g)]
    .map(([tag]) => tag)
    .filter((tag) => tag.includes(`name="${name}"`) && / checked=""/.test(tag))
    .map((tag) => /value="([^"]*)"/.exec(tag)?.[1])
}

/** The chosen option of the select named `name`. */
function selected(html: string, name: string) {
  const start = html.indexOf(`name="${name}"`)
  const select = html.slice(start, html.indexOf('</select>', start))
  return /<option[^>]*value="([^"]*)"[^>]*selected=""/.exec(select)?.[1]
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
  it('asks a visitor to sign in, on the list and on a section’s page', async () => {
    for (const path of ['/account/edit', '/account/edit/name']) {
      const response = await handle(new Request(`${TEST_PUBLIC_URL}${path}`), web.newContext())
      expect(response.status).toBe(302)
      expect(response.headers.get('location')).toBe(`/login?returnTo=${encodeURIComponent(path)}`)
    }
  })

  it('lists what is saved, section by section, each with “Change” to its own page; the photo is its one form', async () => {
    const { user, cookie } = await member({ phone: '+15035550142', city: 'Portland, OR', region: 'OR' })
    await web.api.request('PUT', 'v1/users/me', { token: await web.api.signToken(user.id), body: { interests: ['chess', 'walking'], prompts: [{ prompt: 'first_job', answer: 'Paper round.' }], relationship: 'widowed', family: ['grandchildren', 'pets'] } })
    const { status, html } = await page(cookie)
    expect(status).toBe(200)
    expect(html).toContain('<title>Edit my profile – Circle 55</title>')
    // One form, one Save button: the photo's (issue 29 §4: the page had ten).
    expect(forms(html)).toBe(1)
    expect(saveButtons(html)).toBe(1)
    expect(html).toContain('>Save my photo</button>')
    expect(mainOf(html)).not.toContain('name="intent"')
    for (const [section, heading] of [['name', 'Your name'], ['about', 'About you'], ['interests', 'Your interests'], ['prompts', 'Get to know me'], ['city', 'Your home city'], ['phone', 'Your phone number'], ['privacy', 'Privacy'], ['language', 'Language']]) {
      expect(html).toContain(`<a data-discover="true" href="/account/edit/${section}">Change<span class="visually-hidden"> ${heading}</span></a>`)
    }
    expect(html).toContain('<a data-discover="true" href="/account/email">Change<span class="visually-hidden"> Email address</span></a>')
    expect(rowText(html, 'name')).toContain('Margaret Hughes')
    expect(rowText(html, 'about')).toContain('Relationship: Widowed')
    expect(rowText(html, 'about')).toContain('Family: Pets, Grandchildren')
    expect(rowText(html, 'interests')).toContain('Chess, Walking')
    expect(rowText(html, 'prompts')).toContain('My first job was… Paper round.')
    expect(rowText(html, 'city')).toContain('Portland, OR')
    expect(rowText(html, 'phone')).toContain('(503) 555-0142')
    // The defaults: age hidden, seen by everyone near by.
    expect(rowText(html, 'privacy')).toContain('Your age: Do not show my age')
    expect(rowText(html, 'privacy')).toContain('Who sees you in “Members near you”: Everyone nearby')
    expect(rowText(html, 'language')).toContain('English')
    expect(rowText(html, 'email')).toContain(user.email)
  })

  it('says plainly what is not given yet', async () => {
    const { cookie } = await member({ phone: null })
    const { html } = await page(cookie)
    expect(rowText(html, 'interests')).toContain('Not given yet')
    expect(rowText(html, 'phone')).toContain('Not given yet')
  })

  it('gives each section a short page of its own: one form, its fields, one Save, a way back', async () => {
    const { user, cookie } = await member({ phone: '+15035550142', city: 'Portland, OR', region: 'OR' })
    await web.api.request('PUT', 'v1/users/me', { token: await web.api.signToken(user.id), body: { interests: ['chess'], prompts: [{ prompt: 'first_job', answer: 'Paper round.' }], relationship: 'widowed' } })
    const expected: Record<string, [string, string[]]> = {
      name: ['Your name', ['value="Margaret"']],
      about: ['About you', ['<option value="widowed" selected="">Widowed</option>']],
      interests: ['Your interests', ['id="interest-chess" type="checkbox" name="interests" checked=""']],
      prompts: ['Get to know me', ['<option value="first_job" selected="">My first job was…</option>', '>Paper round.</textarea>']],
      city: ['Your home city', ['value="Portland, OR"']],
      phone: ['Your phone number', ['value="(503) 555-0142"']],
      privacy: ['Privacy', ['<input id="showAge-1" type="radio" name="showAge" checked="" value="no"', '<input id="nearbyVisibility-0" type="radio" name="nearbyVisibility" checked="" value="everyone"']],
      language: ['Language', ['<input id="language-0" type="radio" name="language" checked="" value="en"']],
    }
    for (const [section, [heading, shows]] of Object.entries(expected)) {
      const { status, html } = await page(cookie, 'en', `/account/edit/${section}`)
      expect(status, section).toBe(200)
      expect(html).toContain(`<title>${heading} – Circle 55</title>`)
      expect(html).toContain(`<h1 id="${section}-heading">${heading}</h1>`)
      expect(forms(html), section).toBe(1)
      expect(saveButtons(html), section).toBe(1)
      expect(mainOf(html).match(/name="intent"/g)).toEqual(['name="intent"'])
      expect(html).toContain(`<input type="hidden" name="intent" value="${section}"/>`)
      for (const text of shows) expect(html, section).toContain(text)
      expect(html).toContain(`<a class="button button--secondary" data-discover="true" href="/account/edit#${section}-section">Go back without saving</a>`)
    }
  })

  it('answers 404 for a section that does not exist', async () => {
    const { cookie } = await member()
    expect((await page(cookie, 'en', '/account/edit/admin')).status).toBe(404)
    expect((await post(cookie, [['intent', 'admin']], '/account/edit/admin')).response.status).toBe(404)
  })

  it('is in French and Dutch', async () => {
    const { cookie } = await member({ locale: 'fr' })
    const french = (await page(cookie, 'fr')).html
    expect(french).toContain('<title>Modifier mon profil – Circle 55</title>')
    expect(french).toContain('Modifier<span class="visually-hidden"> Votre nom</span>')
    const dutch = await member({ locale: 'nl' })
    const { html } = await page(dutch.cookie, 'nl', '/account/edit/prompts')
    expect(html).toContain('<title>Leer me kennen – Circle 55</title>')
    expect(html).toContain('Een perfecte zondag is voor mij…')
  })
})

describe('saving a section', () => {
  it('saves the name and goes back to its row, which says it is saved', async () => {
    const { user, cookie } = await member()
    const { response } = await post(cookie, [['intent', 'name'], ['firstName', 'Maggie'], ['lastName', 'Hughes']])
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/account/edit#name-section')
    expect(response.headers.get('set-cookie')).toContain('toast')
    expect((await stored(user.id)).first_name).toBe('Maggie')
    // Back on the list: the message is in the row the page opens at, and that row is marked.
    const { html } = await page(withSetCookies(cookie, response))
    expect(html).toContain('<div id="name-section" class="summary-list__row summary-list__row--saved" tabindex="-1">')
    expect(rowText(html, 'name')).toContain('Your name is saved.')
    expect(rowText(html, 'name')).toContain('Maggie Hughes')
    expect(rowText(html, 'phone')).not.toContain('saved')
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
    for (const fields of sections) {
      const { response } = await post(cookie, fields)
      expect(response.status).toBe(302)
      expect(response.headers.get('location')).toBe(`/account/edit#${fields[0]![1]}-section`)
    }
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
    // What the list says afterwards, and what each section's page holds when opened again.
    const list = (await page(cookie)).html
    expect(rowText(list, 'about')).toContain('Gender: Woman')
    expect(rowText(list, 'about')).toContain('Relationship: Married')
    expect(rowText(list, 'about')).toContain('Family: Pets, Grandchildren')
    expect(rowText(list, 'interests')).toContain('Walking, Bridge')
    expect(rowText(list, 'prompts')).toContain('Lisbon by train.')
    expect(rowText(list, 'city')).toContain('Boise, ID')
    expect(rowText(list, 'phone')).toContain('(503) 555-0199')
    expect(rowText(list, 'privacy')).toContain('Only people I have been to activities with')
    const section = async (name: string) => (await page(cookie, 'en', `/account/edit/${name}`)).html
    const about = await section('about')
    expect(checked(about, 'gender')).toEqual(['woman'])
    expect(selected(about, 'relationship')).toBe('married')
    expect(checked(about, 'family')).toEqual(['pets', 'grandchildren'])
    expect(checked(await section('interests'), 'interests')).toEqual(['walking', 'bridge'])
    const prompts = await section('prompts')
    expect(selected(prompts, 'prompts[0].prompt')).toBe('dream_trip')
    expect(prompts).toContain('>Lisbon by train.</textarea>')
    expect(selected(prompts, 'prompts[1].prompt')).toBe('first_job')
    expect(await section('city')).toContain('value="Boise, ID"')
    expect(await section('phone')).toContain('value="(503) 555-0199"')
    const privacy = await section('privacy')
    expect(checked(privacy, 'showAge')).toEqual(['yes'])
    expect(checked(privacy, 'nearbyVisibility')).toEqual(['attended'])
  })

  it('switches the language of the page with the member’s language', async () => {
    const { user, cookie } = await member()
    const { response } = await post(cookie, [['intent', 'language'], ['language', 'nl']])
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('/account/edit#language-section')
    expect(await languageCookie.parse(response.headers.get('set-cookie'))).toBe('nl')
    expect((await stored(user.id)).locale).toBe('nl')
  })

  it('answers 400 to an unknown intent, and to another section’s form sent to a section’s page or to the list', async () => {
    const { user, cookie } = await member()
    expect((await post(cookie, [['intent', 'admin']], '/account/edit/name')).response.status).toBe(400)
    expect((await post(cookie, [['intent', 'phone'], ['phone', '503 555 0199']], '/account/edit/name')).response.status).toBe(400)
    expect((await post(cookie, [['intent', 'name'], ['firstName', 'Maggie'], ['lastName', 'Hughes']], '/account/edit')).response.status).toBe(400)
    expect(await stored(user.id)).toMatchObject({ first_name: 'Margaret', phone: null })
  })
})

const headings: Record<string, string> = { name: 'Your name', phone: 'Your phone number', interests: 'Your interests', prompts: 'Get to know me', city: 'Your home city' }

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
    expect(html).toContain(`<title>Error: ${headings[fields[0]![1]]} – Circle 55</title>`)
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

  it('saves nothing, and the list still shows what was saved', async () => {
    const { user, cookie } = await member({ phone: '+15035550142' })
    const { html } = await post(cookie, [['intent', 'name'], ['firstName', ''], ['lastName', 'Other']])
    expect(html).toContain('value="Other"')
    expect((await stored(user.id)).last_name).toBe('Hughes')
    const list = (await page(cookie)).html
    expect(rowText(list, 'name')).toContain('Margaret Hughes')
    expect(rowText(list, 'phone')).toContain('(503) 555-0142')
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
    const { html } = await page(withSetCookies(cookie, response))
    expect(html).toMatch(/<img src="[^"]+" alt="Your profile photo now"/)

    // The message is beside the photo, where the page opens.
    expect(html).toMatch(/<section id="photo-section"[^>]*>[\s\S]{0,300}Your photo is saved\./)

    const removed = await post(cookie, [['intent', 'removePhoto']], '/account/edit')
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
  it('passes html-validate: the list (just saved too), every section’s page, and with errors in every section that can have them', async () => {
    const { user, cookie } = await member()
    await web.api.request('PUT', 'v1/users/me', { token: await web.api.signToken(user.id), body: { interests: ['chess'], prompts: [{ prompt: 'first_job', answer: 'Paper round.' }], city: 'us-or-portland' } })
    expect(await validationOf((await page(cookie)).html)).toEqual([])
    for (const section of ['name', 'about', 'interests', 'prompts', 'city', 'phone', 'privacy', 'language']) {
      expect(await validationOf((await page(cookie, 'en', `/account/edit/${section}`)).html), section).toEqual([])
    }
    const { response } = await post(cookie, [['intent', 'phone'], ['phone', '503 555 0199']])
    expect(await validationOf((await page(withSetCookies(cookie, response))).html)).toEqual([])
    const mistakes: [string, string][][] = [
      [['intent', 'name'], ['firstName', ''], ['lastName', '']],
      [['intent', 'interests'], ...interests.slice(0, 11).map((key): [string, string] => ['interests', key])],
      [['intent', 'prompts'], ['prompts[0].prompt', 'first_job'], ['prompts[0].answer', ''], ['prompts[1].prompt', 'first_job'], ['prompts[1].answer', 'Two.']],
      [['intent', 'city'], ['q', 'Qqzzxv Wwyy']],
      [['intent', 'phone'], ['phone', '12']],
      [['intent', 'privacy']],
    ]
    for (const fields of mistakes) expect(await validationOf((await post(cookie, fields)).html), fields[0]![1]).toEqual([])
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
