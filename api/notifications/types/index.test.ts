import { readdirSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { languages } from '#contract/enums.ts'
import { notificationTopics } from '#contract/notification-settings.ts'
import { notificationTypes } from '#contract/notifications.ts'
import { createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import type { AnyNotificationKind } from '../kind.ts'
import { notificationKinds } from './index.ts'

/**
 * The registry of notification types (decision 070): each type is one file here and its
 * translations, and the list, delivery, `notify` and the settings know types only through it.
 */

const kinds: AnyNotificationKind[] = Object.values(notificationKinds)
const here = new URL('./', import.meta.url)
const notificationsDir = new URL('../', import.meta.url)

type Json = { [key: string]: Json } | string
const locale = (language: string, namespace: string) =>
  JSON.parse(readFileSync(new URL(`../../../public/locales/${language}/${namespace}.json`, import.meta.url), 'utf8')) as Json
/** The value at a dotted path of a locale file, if any. */
const at = (json: Json, path: string) => path.split('.').reduce<Json | undefined>((node, key) => (typeof node === 'object' ? node[key] : undefined), json)
/** Every leaf path under a value ("title", "approved.body"…). */
const leaves = (json: Json | undefined, prefix = ''): string[] =>
  typeof json === 'object' ? Object.entries(json).flatMap(([key, value]) => leaves(value, prefix ? `${prefix}.${key}` : key)) : [prefix]

describe('the registry', () => {
  it('declares every type of the contract, each in a file of its own named after it, and nothing else', async () => {
    const files = readdirSync(here).filter((file) => file.endsWith('.ts') && file !== 'index.ts' && !file.endsWith('.test.ts'))
    expect(files.map((file) => file.slice(0, -'.ts'.length)).sort()).toEqual([...notificationTypes].sort())
    for (const file of files) {
      const declared = Object.values((await import(new URL(file, here).href)) as Record<string, AnyNotificationKind>)
      expect(declared.map((kind) => kind.type), file).toEqual([file.slice(0, -'.ts'.length)])
      expect(notificationKinds[declared[0]!.type]).toBe(declared[0])
    }
  })

  it('leaves no type named anywhere else in api/notifications: the list, delivery, notify and the settings read the declarations', () => {
    const named = new RegExp(`['"\`](${notificationTypes.map((type) => type.replace('.', '\\.')).join('|')})['"\`]`, 'g')
    const readers = readdirSync(notificationsDir).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    expect(readers).toEqual(expect.arrayContaining(['delivery.ts', 'inbox.ts', 'service.ts', 'emails.ts', 'settings.ts']))
    const found = readers.flatMap((file) => [...readFileSync(new URL(file, notificationsDir), 'utf8').matchAll(named)].map((match) => `${file}: ${match[0]}`))
    expect(found).toEqual([])
  })

  it('has the copy of every channel each type declares in English, French and Dutch', () => {
    for (const kind of kinds) {
      // In-app, and push and texts, which say the same: the subtree of its copy, alike in every language…
      const inApp = languages.map((language) => leaves(at(locale(language, 'notifications'), `types.${kind.copy}`)).sort())
      expect(inApp[0], `${kind.type}: notifications:types.${kind.copy}`).not.toEqual([''])
      for (const other of inApp.slice(1)) expect(other, `${kind.type}: notifications:types.${kind.copy}`).toEqual(inApp[0])
      // …holding every key its text asks for (as far as the data read from an empty row leads).
      const asked: string[] = []
      kind.text({}, { t: (key) => (asked.push(key), key), activity: { id: null, title: 'A walk' }, language: 'en', found: undefined })
      for (const language of languages) {
        for (const key of asked) expect(typeof at(locale(language, 'notifications'), `types.${kind.copy}.${key}`), `${language} ${kind.type}: ${key}`).toBe('string')
        const email = locale(language, 'email')
        if (kind.email === 'text') expect(typeof at(email, 'notification.open'), `${language} ${kind.type}`).toBe('string')
        else if (kind.email) for (const key of kind.email.copy) expect(at(email, key), `${language} ${kind.type}: email:${key}`).toBeDefined()
        // The unsubscribe footer names the topic.
        if (kind.topic) expect(typeof at(email, `unsubscribe.topics.${kind.topic}`), `${language} ${kind.type}`).toBe('string')
        if (kind.sms?.cancelReply) expect(typeof at(locale(language, 'sms'), 'replyHint'), `${language} ${kind.type}`).toBe('string')
      }
    }
  })

  it('sends a notice no topic governs by no push and no text: no switch of the member could allow them', () => {
    for (const kind of kinds.filter((each) => each.topic === null)) expect({ type: kind.type, push: kind.push, sms: kind.sms }).toEqual({ type: kind.type, push: false, sms: null })
  })
})

describe('the settings and the list', () => {
  let database: TestDatabase
  let api: ApiHarness

  beforeAll(async () => {
    database = await createTestDatabase()
    api = await createApiHarness(database.db)
  })

  afterAll(async () => {
    await database?.drop()
  })

  it('offer every topic a type answers to, with its name on the settings page in every language', async () => {
    const member = await createUser(database.db)
    const response = await api.request('GET', 'v1/notifications/settings/workflow', { token: await api.signToken(member.id) })
    const offered = (response.json as { workflow: { settings: { template_id: string }[] } }).workflow.settings.map((setting) => setting.template_id)
    const governing = [...new Set(kinds.flatMap((kind) => (kind.topic ? [kind.topic] : [])))]
    expect(offered).toEqual(expect.arrayContaining(governing))
    for (const language of languages)
      for (const topic of governing) expect(typeof at(locale(language, 'notification-settings'), `groups.${topic}.name`), `${language} ${topic}`).toBe('string')
    // The settings of spec §3 that no notification answers to yet: switching them changes nothing today.
    expect(notificationTopics.filter((topic) => !governing.includes(topic))).toEqual(['distance', 'out_of_state'])
  })

  it('let the list write what it can of a row that lacks part of its data: a message without its writer still opens its chat', async () => {
    const reader = await createUser(database.db)
    const channel = crypto.randomUUID()
    await database.db.insertInto('notifications').values({ user_id: reader.id, type: 'message.new', data: JSON.stringify({ channel_id: channel }) }).execute()
    const response = await api.request('GET', 'users/notifications', { token: await api.signToken(reader.id) })
    expect(response.json.data).toEqual([expect.objectContaining({ title: 'A new message', link: `/messenger?channel=${channel}` })])
  })
})
