import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { interests } from '#contract/profile.ts'
import { aboutFormSchema, cityFormSchema, interestsFormSchema, nameFormSchema, phoneFormSchema, privacyFormSchema, promptsFormSchema } from './profile-schemas.ts'

type Entries = [string, string][]

function parse<S extends z.ZodType>(schema: S, entries: Entries) {
  const form = new FormData()
  for (const [name, value] of entries) form.append(name, value)
  return parseWithZod(form, { schema })
}

function errors(schema: z.ZodType, entries: Entries) {
  const result = parse(schema, entries)
  return result.status === 'success' ? {} : result.error
}

describe('name', () => {
  it.each([
    [[['firstName', ''], ['lastName', 'Hughes']], { firstName: ['validation.firstNameRequired'] }],
    [[['firstName', 'Margaret'], ['lastName', 'H'.repeat(61)]], { lastName: ['validation.tooLong'] }],
  ] as [Entries, object][])('refuses %j next to the field', (entries, expected) => {
    expect(errors(nameFormSchema, [['intent', 'name'], ...entries])).toEqual(expected)
  })
})

describe('about you', () => {
  it('reads ticked boxes as lists, and nothing chosen as null or empty', () => {
    const none = parse(aboutFormSchema, [['intent', 'about']])
    expect(none.status === 'success' && none.value).toEqual({ intent: 'about', gender: null, relationship: null, employment: null, family: [], reasons: [] })
    const some = parse(aboutFormSchema, [
      ['intent', 'about'],
      ['gender', 'prefer_not_to_say'],
      ['relationship', 'widowed'],
      ['employment', 'retired'],
      ['family', 'grandchildren'],
      ['reasons', 'new_people'],
      ['reasons', 'things_to_do'],
    ])
    expect(some.status === 'success' && some.value).toEqual({
      intent: 'about',
      gender: null,
      relationship: 'widowed',
      employment: 'retired',
      family: ['grandchildren'],
      reasons: ['new_people', 'things_to_do'],
    })
  })

  it('refuses a choice the form does not offer', () => {
    expect(errors(aboutFormSchema, [['intent', 'about'], ['employment', 'astronaut']])).toEqual({ employment: ['profile:validation.choiceInvalid'] })
  })
})

describe('interests', () => {
  const ticked = (count: number): Entries => interests.slice(0, count).map((key) => ['interests', key])

  it('takes up to 10', () => {
    const result = parse(interestsFormSchema, [['intent', 'interests'], ...ticked(10)])
    expect(result.status === 'success' && result.value.interests).toEqual(interests.slice(0, 10))
    const one = parse(interestsFormSchema, [['intent', 'interests'], ...ticked(1)])
    expect(one.status === 'success' && one.value.interests).toEqual([interests[0]])
  })

  it('says clearly when more than 10 are ticked', () => {
    expect(errors(interestsFormSchema, [['intent', 'interests'], ...ticked(11)])).toEqual({ interests: ['profile:validation.tooManyInterests'] })
  })

  it('saves none when none is ticked', () => {
    const result = parse(interestsFormSchema, [['intent', 'interests']])
    expect(result.status === 'success' && result.value.interests).toEqual([])
  })
})

describe('prompts', () => {
  const row = (index: number, prompt: string, answer: string): Entries => [
    [`prompts[${index}].prompt`, prompt],
    [`prompts[${index}].answer`, answer],
  ]

  it('keeps the rows filled in, skipping empty ones', () => {
    const result = parse(promptsFormSchema, [['intent', 'prompts'], ...row(0, '', ''), ...row(1, 'first_job', ' Paper round. '), ...row(2, '', '')])
    expect(result.status === 'success' && result.value.prompts).toEqual([{ prompt: 'first_job', answer: 'Paper round.' }])
    const none = parse(promptsFormSchema, [['intent', 'prompts'], ...row(0, '', ''), ...row(1, '', ''), ...row(2, '', '')])
    expect(none.status === 'success' && none.value.prompts).toEqual([])
  })

  it.each([
    ['an answer over 300 characters', row(0, 'first_job', 'a'.repeat(301)), { 'prompts[0].answer': ['profile:validation.answerTooLong'] }],
    ['a question asked twice', [...row(0, 'first_job', 'One.'), ...row(1, 'first_job', 'Two.')], { 'prompts[1].prompt': ['profile:validation.duplicatePrompt'] }],
    ['a question without an answer', row(2, 'dream_trip', '  '), { 'prompts[2].answer': ['profile:validation.answerRequired'] }],
    ['an answer without a question', row(0, '', 'Lisbon.'), { 'prompts[0].prompt': ['profile:validation.questionRequired'] }],
    ['hidden characters', row(0, 'dream_trip', 'Lis\u0000bon'), { 'prompts[0].answer': ['validation.invalid_characters'] }],
    ['a question not in the catalogue', row(0, 'favourite_password', 'hunter2'), { 'prompts[0].prompt': ['profile:validation.choiceInvalid'] }],
  ] as [string, Entries, object][])('refuses %s on its row', (_, entries, expected) => {
    expect(errors(promptsFormSchema, [['intent', 'prompts'], ...entries])).toEqual(expected)
  })

  it('accepts 300 characters and line breaks', () => {
    const result = parse(promptsFormSchema, [['intent', 'prompts'], ...row(0, 'first_job', 'a'.repeat(298) + '\nb')])
    expect(result.status).toBe('success')
  })
})

describe('city, phone, privacy', () => {
  it('passes the typed city and the chosen place on', () => {
    const result = parse(cityFormSchema, [['intent', 'city'], ['q', ' Portland, OR '], ['place', '']])
    expect(result.status === 'success' && result.value).toEqual({ intent: 'city', q: 'Portland, OR' })
  })

  it('refuses a phone number far too long to be one', () => {
    expect(errors(phoneFormSchema, [['intent', 'phone'], ['phone', '5'.repeat(40)]])).toEqual({ phone: ['validation.invalid_phone'] })
  })

  it('needs both privacy choices', () => {
    expect(errors(privacyFormSchema, [['intent', 'privacy']])).toEqual({
      showAge: ['profile:validation.choiceInvalid'],
      nearbyVisibility: ['profile:validation.choiceInvalid'],
    })
    const result = parse(privacyFormSchema, [['intent', 'privacy'], ['showAge', 'no'], ['nearbyVisibility', 'nobody']])
    expect(result.status === 'success' && result.value).toEqual({ intent: 'privacy', showAge: 'no', nearbyVisibility: 'nobody' })
  })
})
