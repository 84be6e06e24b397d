import type { HttpBindings } from '@hono/node-server'
import type { Context } from 'hono'
import { z } from 'zod'
import type { ApiEnv } from './context.ts'
import type { User } from '../db/schema.ts'
import { ApiProblem, problems } from './errors.ts'

export function requireCaller(c: Context<ApiEnv>): User {
  const caller = c.var.caller
  if (!caller) throw problems.unauthorized()
  return caller
}

/** Reads a JSON body and validates it; field errors come back as 422 with codes per field. */
export async function parseJson<T extends z.ZodType>(c: Context<ApiEnv>, schema: T): Promise<z.infer<T>> {
  let body: unknown
  try {
    body = await c.req.json()
  } catch {
    throw new ApiProblem(400, 'invalid_json', 'The request body is not valid JSON.')
  }
  return validate(schema, body)
}

export function validate<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const fields: Record<string, string[]> = {}
  for (const issue of result.error.issues) {
    const key = issue.path.join('.') || '_'
    const code = /^[a-z_]+$/.test(issue.message) ? issue.message : issue.code
    ;(fields[key] ??= []).push(code)
  }
  throw problems.invalid(fields)
}

/**
 * The addresses a request came through: the connection's and every X-Forwarded-For entry (any
 * proxy's, trusted or not: for a rule that lets in only this machine, more addresses only refuse
 * more). None for a call made inside this process: the web app calls the API in-process when
 * API_BASE_URL is unset, and every HTTP server of the API (server.ts's `getRequestListener`,
 * api/server.ts's `serve`) hands Hono the connection (`c.env.incoming`).
 */
export function requestAddresses(c: Context<ApiEnv>): string[] {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming
  if (!incoming) return []
  const forwarded = (c.req.header('x-forwarded-for') ?? '').split(',').map((entry) => entry.trim()).filter(Boolean)
  return [incoming.socket.remoteAddress ?? '', ...forwarded]
}
