import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { languages } from '#contract/enums.ts'
import { notificationsT, notificationsTemplateT } from './i18n.ts'

/** Every key under `notifications:types`, as the in-app list asks for them. */
function typeKeys(node: object, prefix = 'types'): string[] {
  return Object.entries(node).flatMap(([key, value]) => (typeof value === 'string' ? [`${prefix}.${key}`] : typeKeys(value as object, `${prefix}.${key}`)))
}
const english = JSON.parse(readFileSync(new URL('../public/locales/en/notifications.json', import.meta.url), 'utf8')) as { types: object }

describe('notificationsTemplateT (decision 053)', () => {
  it('writes every notification text exactly as i18next does, in every language, asked again and again', () => {
    const keys = typeKeys(english.types)
    expect(keys.length).toBeGreaterThan(20)
    for (const language of [...languages, 'xx', null]) {
      const fast = notificationsTemplateT(language)
      const slow = notificationsT(language)
      for (const key of keys) {
        for (const title of ['Tai chi in the park', 'Tea & cake at $1 {{not a placeholder}}', '']) {
          expect(fast(key, { title })).toBe(slow(key, { title }))
          expect(fast(key, { title })).toBe(slow(key, { title }))
        }
        expect(fast(key)).toBe(slow(key))
      }
    }
  })

  it('puts each value where its language puts it', () => {
    expect(notificationsTemplateT('en')('types.attendanceSurvey.title', { title: 'Bowls' })).toBe('Did you go to “Bowls”?')
    expect(notificationsTemplateT('fr')('types.attendanceSurvey.title', { title: 'Bowls' })).toContain('Bowls')
    expect(notificationsTemplateT('fr')('types.attendanceSurvey.title', { title: 'Bowls' })).not.toBe(notificationsTemplateT('en')('types.attendanceSurvey.title', { title: 'Bowls' }))
  })
})
