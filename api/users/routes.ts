import type { Hono } from 'hono'
import { z } from 'zod'
import type { ApiEnv } from '../app.ts'
import type { OpenApiRegistry } from '../http/openapi.ts'
import { parseJson, requireCaller } from '../http/request.ts'
import { deleteAccount, getUserProfile, serializeUser, updateMe, updateMeSchema } from './service.ts'

export function userRoutes(app: Hono<ApiEnv>, registry: OpenApiRegistry) {
  const userList = z.object({ data: z.array(z.looseObject({ id: z.string() })) })

  registry.add({
    method: 'get',
    path: '/v1/users/me',
    tag: 'users',
    auth: 'required',
    summary: 'The signed-in member; `data` holds one item.',
    response: userList,
    errors: { 403: 'Suspended or banned (code user_suspended)' },
  })
  app.get('/v1/users/me', (c) => {
    const caller = requireCaller(c)
    return c.json({ data: [serializeUser(caller)] })
  })

  registry.add({
    method: 'put',
    path: '/v1/users/me',
    tag: 'users',
    auth: 'required',
    summary: 'Update the signed-in member. Unknown fields are ignored.',
    body: updateMeSchema,
    response: userList,
    errors: { 422: 'Invalid fields (for example invalid_phone, required, invalid_characters, direction_characters)' },
  })
  app.put('/v1/users/me', async (c) => {
    const caller = requireCaller(c)
    const input = await parseJson(c, updateMeSchema)
    const updated = await updateMe(c.var.services.db, caller, input)
    return c.json({ data: [serializeUser(updated)] })
  })

  registry.add({
    method: 'delete',
    path: '/v1/users/{id}',
    tag: 'users',
    auth: 'required',
    summary: "Delete the member's own account.",
    errors: { 403: "Another member's account" },
  })
  app.delete('/v1/users/:id', async (c) => {
    const caller = requireCaller(c)
    await deleteAccount(c.var.services.db, caller, c.req.param('id'), c.var.requestId)
    return c.body(null, 204)
  })

  registry.add({
    method: 'get',
    path: '/users/{id}',
    tag: 'users',
    auth: 'optional',
    summary: 'Another member’s public profile, by id or slug (anonymous callers get the name only, for referral banners).',
    response: z.looseObject({ id: z.string(), display_name: z.string().nullable() }),
    errors: { 404: 'No such member' },
  })
  app.get('/users/:id', async (c) => {
    return c.json(await getUserProfile(c.var.services.db, c.var.caller, c.req.param('id')))
  })
}
