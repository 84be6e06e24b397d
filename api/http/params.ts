import { z } from 'zod'

/** Far longer than any id or slug the product makes (a slug is at most 60 characters and a suffix). */
const MAX_KEY_LENGTH = 200

/**
 * Whether a path parameter (an id or a slug) is worth a database lookup: one that runs on for
 * pages simply finds nothing (404). Control characters never get this far: the API refuses them
 * in every path, query and body before a route reads it (api/http/control-characters.ts).
 */
export function isLookupKey(value: string) {
  return value.length > 0 && value.length <= MAX_KEY_LENGTH
}

const uuidSchema = z.uuid()
/** Whether a path parameter is a UUID (ids) rather than a slug. */
export const isUuid = (value: string) => uuidSchema.safeParse(value).success
