import { describe, expect, it } from 'vitest'
import { displayName, greetingName, type NamedUser } from './display-name.ts'

const ann: NamedUser = { first_name: 'Ann', last_name: 'Baker' }

describe('displayName', () => {
  it('shows the first name and the initial of the last name', () => {
    expect(displayName(ann)).toBe('Ann B.')
  })

  it('keeps a last name of two characters or fewer whole', () => {
    expect(displayName({ first_name: 'Ann', last_name: 'Li' })).toBe('Ann Li')
    expect(displayName({ first_name: 'Ann', last_name: 'O' })).toBe('Ann O')
  })

  it('abbreviates a three-character last name', () => {
    expect(displayName({ first_name: 'Ann', last_name: 'Lee' })).toBe('Ann L.')
  })

  it('trims the names before applying the rule', () => {
    expect(displayName({ first_name: '  Ann ', last_name: ' Li  ' })).toBe('Ann Li')
    expect(displayName({ first_name: ' Ann', last_name: ' Baker ' })).toBe('Ann B.')
  })

  it('is null for a suspended member, whatever the names', () => {
    expect(displayName({ ...ann, is_suspended: true })).toBeNull()
    expect(
      displayName({ ...ann, formatted_name: 'Ann Baker', name: 'ann', is_suspended: true }),
    ).toBeNull()
  })

  it('is null for a member whose account state is suspended', () => {
    expect(displayName({ ...ann, state: 'suspended' })).toBeNull()
    expect(greetingName({ ...ann, state: 'suspended' })).toBeNull()
    expect(displayName({ ...ann, state: 'active' })).toBe('Ann B.')
  })

  it('is null for a banned member, whatever the names', () => {
    expect(displayName({ ...ann, banned: true })).toBeNull()
    expect(displayName({ first_name: null, last_name: null, name: 'Ann', banned: true })).toBeNull()
  })

  it('shows the names when the flags are explicitly false', () => {
    expect(displayName({ ...ann, banned: false, is_suspended: false })).toBe('Ann B.')
  })

  it('falls back to the formatted name when the last name is missing', () => {
    expect(
      displayName({ first_name: 'Ann', last_name: null, formatted_name: 'Ann Marie Baker' }),
    ).toBe('Ann Marie Baker')
    expect(
      displayName({ first_name: null, last_name: 'Baker', formatted_name: ' Dr. A. Baker ' }),
    ).toBe('Dr. A. Baker')
  })

  it('falls back to the first name when there is no last name and no formatted name', () => {
    expect(displayName({ first_name: 'Ann', last_name: null })).toBe('Ann')
    expect(
      displayName({ first_name: 'Ann', last_name: '  ', formatted_name: '  ', name: 'annb' }),
    ).toBe('Ann')
  })

  it('falls back to the name when nothing better exists', () => {
    expect(displayName({ first_name: null, last_name: 'Baker', name: ' annb ' })).toBe('annb')
    expect(displayName({ first_name: '', last_name: '', formatted_name: null, name: 'annb' })).toBe(
      'annb',
    )
  })

  it('is null when the member has no name at all', () => {
    expect(displayName({ first_name: null, last_name: null })).toBeNull()
    expect(
      displayName({ first_name: ' ', last_name: ' ', formatted_name: ' ', name: ' ' }),
    ).toBeNull()
  })
})

describe('greetingName', () => {
  it('greets by the first name', () => {
    expect(greetingName(ann)).toBe('Ann')
    expect(greetingName({ first_name: ' Ann ', last_name: null })).toBe('Ann')
  })

  it('falls back to the display name, then to the generic label (null)', () => {
    expect(greetingName({ first_name: null, last_name: null, formatted_name: 'A. Baker' })).toBe('A. Baker')
    expect(greetingName({ first_name: null, last_name: null })).toBeNull()
    expect(greetingName({ ...ann, banned: true })).toBeNull()
  })
})
