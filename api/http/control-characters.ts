import type { NextFunction, Request, Response } from 'express'
import type { Context, MiddlewareHandler } from 'hono'
import { hasControlCharacters } from '#contract/input-validation.ts'
import type { ApiEnv } from './context.ts'
import type { Logger } from '../logger.ts'
import { hasOwnBodyLimit } from './api-body-limit.ts'
import { discardBody } from './body-limit.ts'
import { ApiProblem } from './errors.ts'
import { sendRefusal } from './refusal-page.ts'
import { isApiPath } from './security.ts'

/**
 * Control characters (C0, DEL and C1: NUL among them) are refused once, for every request, before
 * any route reads it (issue 29 §5, decision 066): PostgreSQL cannot store or compare text holding
 * NUL at all (the query fails, which answered 500 or 503), and none of them has a place in a path,
 * a query or anything a member writes. So a new endpoint or page cannot forget the check.
 *
 * - The API (`refuseControlCharacters`, on every route): the path's segments, every query parameter
 *   (name and value), and every string of a body: a JSON body's keys and values at any depth, a
 *   form's names and values, a multipart form's text fields (`multipartControlProblem`, read by the
 *   one multipart reader). Tab, line feed and carriage return are allowed in body strings only,
 *   where multi-line text keeps them; each field's own schema still refuses them where one line is
 *   expected, and direction or invisible characters, with its own code (contract/input-validation.ts).
 *   Answer: 400 `invalid_characters` (spec §8's error body) naming each field.
 * - The web host (`refuseControlCharactersInAddress`, before Remix and the identity provider): the
 *   path and the query string of every page, answered with a translated 400 page. Form bodies are
 *   the forms' own: a field with a control character comes back with its message next to it and
 *   what the member typed (the shared schemas, then the API's field codes).
 */

export const invalidCharactersCode = 'invalid_characters'

/** `decodeURIComponent`, or the text as it is when it is not valid percent-encoding. */
function decoded(text: string) {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** Whether a path (as requested, percent-encoded) holds a control character in any segment. */
export function pathHasControlCharacters(path: string) {
  return path.split('/').some((segment) => hasControlCharacters(decoded(segment)))
}

/** The names of the query parameters with a control character in their name or value (`?` not included). */
export function queryControlFields(search: string) {
  const fields = new Set<string>()
  for (const [name, value] of new URLSearchParams(search)) {
    if (hasControlCharacters(name)) fields.add('_query')
    else if (hasControlCharacters(value)) fields.add(name)
  }
  return [...fields]
}

/** The dotted paths (`prompts.0.answer`) of a JSON value's strings, and keys, holding a control character. */
function jsonControlFields(value: unknown, at: string[] = [], found: string[] = []) {
  if (typeof value === 'string') {
    if (hasControlCharacters(value, { multiline: true })) found.push(at.join('.') || '_')
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => jsonControlFields(item, [...at, String(index)], found))
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (hasControlCharacters(key)) found.push([...at, '_key'].join('.'))
      else jsonControlFields(item, [...at, key], found)
    }
  }
  return found
}

/** The fields of a form body (urlencoded, or multipart's text fields) holding a control character. */
function formControlFields(entries: Iterable<[string, unknown]>) {
  const fields = new Set<string>()
  for (const [name, value] of entries) {
    if (hasControlCharacters(name)) fields.add('_key')
    else if (typeof value === 'string' && hasControlCharacters(value, { multiline: true })) fields.add(name)
  }
  return [...fields]
}

function problem(fields: string[]) {
  return new ApiProblem(
    400,
    invalidCharactersCode,
    'The request holds a control character (such as NUL) in its path, its query or its body. Remove it and send the request again.',
    Object.fromEntries(fields.map((field) => [field, [invalidCharactersCode]])),
  )
}

/** The fields of a body's text: JSON when it reads as JSON, else a urlencoded form (how the API reads either). */
function bodyControlFields(text: string) {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return formControlFields(new URLSearchParams(text))
  }
  return jsonControlFields(json)
}

/**
 * The API's middleware (after the body limit, so a body is read at most 100 KB far): 400
 * `invalid_characters` when the path, the query or the body holds a control character. A body is
 * read whatever its content type says (a handler may read JSON sent as text/plain); routes that
 * stream and limit their own body (photo uploads) check their fields as they parse them
 * (`multipartControlProblem`).
 */
export function refuseControlCharacters(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const url = new URL(c.req.url)
    const fields: string[] = []
    if (pathHasControlCharacters(url.pathname)) fields.push('path')
    fields.push(...queryControlFields(url.search))
    if (hasBody(c) && !hasOwnBodyLimit(c.req.method, c.req.path)) {
      const contentType = c.req.header('content-type') ?? ''
      // Multipart bodies are only taken by the routes that read them themselves.
      if (!/^multipart\//i.test(contentType)) fields.push(...bodyControlFields(await c.req.text()))
    }
    if (fields.length > 0) {
      c.var.services.logger.info({ requestId: c.var.requestId, method: c.req.method, fields }, 'Control characters refused')
      throw problem([...new Set(fields)])
    }
    await next()
  }
}

function hasBody(c: Context<ApiEnv>) {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return false
  return c.req.raw.body !== null
}

/** For a multipart form the route read itself: the 400 to throw when a text field holds a control character. */
export function multipartControlProblem(form: FormData): ApiProblem | null {
  const fields = formControlFields(form.entries())
  return fields.length > 0 ? problem(fields) : null
}

/**
 * The web host's middleware: a page whose path or query string holds a control character gets the
 * translated 400 page ("This page address holds characters it cannot have") instead of reaching
 * the web app. The API's paths are the API's (above).
 */
export function refuseControlCharactersInAddress(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (isApiPath(req.path)) return next()
    const query = req.originalUrl.indexOf('?')
    const path = query === -1 ? req.originalUrl : req.originalUrl.slice(0, query)
    const search = query === -1 ? '' : req.originalUrl.slice(query)
    if (!pathHasControlCharacters(path) && queryControlFields(search).length === 0) return next()
    logger.info({ requestId: res.locals.requestId as string, method: req.method, path: req.path }, 'Control characters in a page address refused')
    discardBody(req)
    sendRefusal(req, res, 400, 'invalidCharacters').catch(next)
  }
}
