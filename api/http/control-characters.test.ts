import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiHarness, createUser, type ApiHarness } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'

/**
 * Control characters in every operation of the OpenAPI document (issue 29 §5, decision 066): each
 * path parameter, each query parameter and each string field of each body (JSON, form, multipart),
 * one at a time, with NUL or another control character in it. The API answers 400
 * `invalid_characters` naming the field, never a 5xx, whatever the operation; a new operation is
 * walked as soon as it is documented.
 */

type Json = Record<string, any>

let database: TestDatabase
let api: ApiHarness
let document: Json
let adminToken: string

beforeAll(async () => {
  database = await createTestDatabase()
  api = await createApiHarness(database.db)
  const admin = await createUser(database.db, { staff_role: 'admin' })
  adminToken = await api.signToken(admin.id)
  document = (await (await api.app.fetch(new Request(`${api.env.PUBLIC_URL}/api/openapi.json`))).json()) as Json
})

afterAll(async () => {
  await database?.drop()
})

/** Each field gets NUL, and one of the other C0, DEL or C1 characters in turn (line feed too where one line is expected). */
const controls = ['\u0001', '\u0007', '\u001b', '\u007f', '\u0085', '\u009f']
let turn = 0
const twoControls = (withLineFeed = false) => {
  const others = withLineFeed ? [...controls, '\n'] : controls
  return ['\u0000', others[turn++ % others.length]!]
}

function resolve(schema: Json | undefined): Json {
  if (!schema) return {}
  if (typeof schema.$ref === 'string') return resolve(document.components.schemas[schema.$ref.split('/').pop()!] as Json)
  return schema
}

/** The dotted paths of a schema's string fields, each with a body that holds a value only there. */
function stringFields(schema: Json | undefined, depth = 0): { path: string[]; body: (value: string) => unknown }[] {
  const resolved = resolve(schema)
  if (depth > 6) return []
  const alternatives = [...(resolved.anyOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.allOf ?? [])] as Json[]
  if (alternatives.length > 0) return alternatives.flatMap((alternative) => stringFields(alternative, depth + 1))
  const types = ([] as string[]).concat(resolved.type ?? [])
  if (types.includes('string') && resolved.format !== 'binary') return [{ path: [], body: (value) => value }]
  if (types.includes('array')) {
    return stringFields(resolved.items as Json, depth + 1).map((field) => ({ path: ['0', ...field.path], body: (value) => [field.body(value)] }))
  }
  if (types.includes('object') || resolved.properties) {
    return Object.entries((resolved.properties ?? {}) as Record<string, Json>).flatMap(([name, property]) =>
      stringFields(property, depth + 1).map((field) => ({ path: [name, ...field.path], body: (value: string) => ({ [name]: field.body(value) }) })),
    )
  }
  return []
}

interface Probe {
  operation: string
  where: string
  field: string
  request: Request
}

/** Every probe of every operation: one control character at a time. */
function probes(): Probe[] {
  const found: Probe[] = []
  for (const [template, methods] of Object.entries(document.paths as Record<string, Json>)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = ((operation.parameters ?? []) as Json[]).map(resolve)
      const pathNames = [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!)
      const path = (values: Record<string, string> = {}) =>
        `/api${template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? `${name}1`))}`
      const name = `${method.toUpperCase()} ${template}`
      const request = (url: string, init: RequestInit = {}) => {
        const headers = new Headers(init.headers)
        headers.set('authorization', `Bearer ${adminToken}`)
        return new Request(`${api.env.PUBLIC_URL}${url}`, { method: method.toUpperCase(), ...init, headers })
      }
      for (const param of pathNames) {
        for (const control of twoControls(true)) {
          found.push({ operation: name, where: `path ${param}`, field: 'path', request: request(path({ [param]: `x${control}y` })) })
        }
      }
      for (const parameter of parameters.filter((parameter) => parameter.in === 'query')) {
        for (const control of twoControls(true)) {
          const query = new URLSearchParams({ [parameter.name as string]: `a${control}b` })
          found.push({ operation: name, where: `query ${parameter.name}`, field: String(parameter.name), request: request(`${path()}?${query}`) })
        }
      }
      const content = (operation.requestBody?.content ?? {}) as Record<string, { schema?: Json }>
      for (const [mediaType, { schema }] of Object.entries(content)) {
        for (const [field, control] of stringFields(schema).flatMap((field) => twoControls().map((control) => [field, control] as const))) {
          const value = `text ${control} more`
          const fieldName = field.path.join('.') || '_'
          if (mediaType === 'application/json') {
            const body = JSON.stringify(field.body(value))
            found.push({ operation: name, where: `body ${fieldName}`, field: fieldName, request: request(path(), { body, headers: { 'content-type': 'application/json' } }) })
          } else if (mediaType === 'application/x-www-form-urlencoded') {
            const body = new URLSearchParams({ [fieldName]: value })
            found.push({ operation: name, where: `form ${fieldName}`, field: fieldName, request: request(path(), { body }) })
          } else if (mediaType === 'multipart/form-data') {
            const body = new FormData()
            body.set(fieldName, value)
            found.push({ operation: name, where: `multipart ${fieldName}`, field: fieldName, request: request(path(), { body }) })
          }
        }
      }
    }
  }
  return found
}

describe('control characters in every operation of the OpenAPI document', () => {
  it('are refused with 400 invalid_characters naming the field, never a 5xx', async () => {
    const all = probes()
    // Every operation with a parameter or a body is probed (issue 29 §5 names four of them).
    expect(all.length).toBeGreaterThan(300)
    for (const named of ['GET /v1/members', 'GET /v1/chat/users', 'PUT /v1/users/me/avatar', 'GET /v1/experiences/{id}/survey-results']) {
      expect(all.some((probe) => probe.operation === named)).toBe(true)
    }
    const answers: string[] = []
    for (const probe of all) {
      const response = await api.app.fetch(probe.request)
      const body = (await response.json().catch(() => null)) as Json | null
      const code = body?.error?.code as string | undefined
      const fields = Object.keys((body?.error?.fields ?? {}) as Json)
      if (response.status !== 400 || code !== 'invalid_characters' || !fields.includes(probe.field)) {
        answers.push(`${probe.operation} (${probe.where}) → ${response.status} ${code ?? ''} ${fields.join(',')}`)
      }
    }
    expect(answers).toEqual([])
  })

  it('is documented on every operation', () => {
    const undocumented: string[] = []
    for (const [template, methods] of Object.entries(document.paths as Record<string, Json>)) {
      for (const [method, operation] of Object.entries(methods)) {
        const description = (operation.responses?.['400']?.description ?? '') as string
        if (!description.includes('invalid_characters')) undocumented.push(`${method.toUpperCase()} ${template}`)
      }
    }
    expect(undocumented).toEqual([])
  })

  it('keeps line breaks and tabs in body text, and accents, emoji and right-to-left letters everywhere', async () => {
    const member = await createUser(database.db)
    const token = await api.signToken(member.id)
    const answer = await api.request('PUT', 'v1/users/me', {
      token,
      body: { prompts: [{ prompt: 'first_job', answer: 'Paper round,\n\tthen the café 🚲 \u05e9\u05dc\u05d5\u05dd\r\nand more' }] },
    })
    expect(answer.status).toBe(200)
    expect((await api.request('GET', `v1/members?name=${encodeURIComponent('Zoë 🚲 \u05e9')}`, { token })).status).toBe(200)
  })
})
