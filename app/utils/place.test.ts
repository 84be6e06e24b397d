import { describe, expect, it } from 'vitest'
import { placesFromJson } from './place.ts'

const portland = { id: 'us-or-portland', name: 'Portland', state: 'OR', label: 'Portland, OR', latitude: 45.5, longitude: -122.7, timeZone: 'America/Los_Angeles', population: 632309 }

describe('placesFromJson (city autocomplete in the browser)', () => {
  it('keeps well-formed places and drops malformed ones', () => {
    expect(placesFromJson({ data: [portland, { ...portland, latitude: '45.5' }, null, { id: 'x' }] })).toEqual([portland])
  })

  it('answers no places for anything that is not a places answer', () => {
    expect(placesFromJson(null)).toEqual([])
    expect(placesFromJson({ error: { code: 'invalid_query' } })).toEqual([])
    expect(placesFromJson({ data: 'Portland' })).toEqual([])
  })
})
