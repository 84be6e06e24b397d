import { z } from 'zod'

/**
 * A small registry that every API route adds itself to, so the OpenAPI document is generated
 * from the same zod schemas that validate requests and describe responses.
 */
export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'delete'
  /** OpenAPI-style path under the API base, e.g. `/v1/users/{id}`. */
  path: string
  summary: string
  tag: string
  auth: 'required' | 'optional' | 'none'
  query?: z.ZodObject
  body?: z.ZodType
  multipart?: boolean
  response?: z.ZodType
  /** Statuses besides 200 that the route answers, with why. */
  errors?: Record<number, string>
}

export class OpenApiRegistry {
  readonly routes: RouteDoc[] = []

  add(doc: RouteDoc) {
    this.routes.push(doc)
  }

  document(serverUrl: string) {
    const paths: Record<string, Record<string, unknown>> = {}
    for (const route of this.routes) {
      const parameters = [
        ...[...route.path.matchAll(/\{(\w+)\}/g)].map((match) => ({
          name: match[1],
          in: 'path',
          required: true,
          schema: { type: 'string' },
        })),
        ...Object.entries(route.query?.shape ?? {}).map(([name, schema]) => ({
          name,
          in: 'query',
          required: !(schema as z.ZodType).safeParse(undefined).success,
          schema: toSchema(schema as z.ZodType, 'input'),
        })),
      ]
      const responses: Record<string, unknown> = {
        [route.response ? '200' : '204']: route.response
          ? { description: 'OK', content: { 'application/json': { schema: toSchema(route.response, 'output') } } }
          : { description: 'No content' },
      }
      for (const [status, description] of Object.entries(route.errors ?? {})) {
        responses[status] = { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }
      }
      if (route.auth === 'required') responses['401'] ??= { description: 'Unauthorized' }
      const operation: Record<string, unknown> = {
        summary: route.summary,
        tags: [route.tag],
        parameters,
        responses,
        security: route.auth === 'none' ? [] : route.auth === 'optional' ? [{}, { bearer: [] }] : [{ bearer: [] }],
      }
      if (route.body) {
        operation.requestBody = {
          required: true,
          content: route.multipart
            ? { 'multipart/form-data': { schema: toSchema(route.body, 'input') } }
            : { 'application/json': { schema: toSchema(route.body, 'input') } },
        }
      }
      paths[route.path] = { ...paths[route.path], [route.method]: operation }
    }
    return {
      openapi: '3.1.0',
      info: { title: 'Circle 55 API', version: '1.0.0' },
      servers: [{ url: serverUrl }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        schemas: {
          Error: {
            type: 'object',
            required: ['error'],
            properties: {
              error: {
                type: 'object',
                required: ['code', 'message'],
                properties: {
                  code: { type: 'string' },
                  message: { type: 'string' },
                  fields: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
                },
              },
            },
          },
        },
      },
      paths,
    }
  }
}

function toSchema(schema: z.ZodType, io: 'input' | 'output') {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>
  return rest
}
