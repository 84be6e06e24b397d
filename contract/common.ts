import { z } from 'zod'
import { queryInteger } from './input-validation.ts'
import { defaultPerPage, firstPage, maxPerPage } from './limits.ts'

/**
 * What every resource of the API shares (spec §7, §8): the error body and its codes, the list
 * envelopes and the paging query. Schemas are made once at module load: zod compiles a schema on
 * its first use, which costs far more than parsing with it.
 */

// Errors (spec §8) -----------------------------------------------------------------------------

/**
 * `error.code` of every error the API answers, by status. Field problems of a 422 come as codes
 * in `error.fields` (for example `title_required`), listed with each request schema.
 */
export const errorCodes = [
  // 400
  'invalid_json',
  'invalid_body',
  'invalid_query',
  /** A control character in the path, the query or a body field (decision 066); `fields` names each. */
  'invalid_characters',
  // 401
  'unauthorized',
  // 403
  'forbidden',
  'user_suspended',
  'admin_only',
  'blocked',
  /** A premium activity and the caller has no premium membership (decision 074). */
  'premium_required',
  'recipient_suspended',
  // 404
  'not_found',
  // 409
  'experience_full',
  'experience_not_full',
  'experience_past',
  'experience_canceled',
  'experience_undated',
  'already_attending',
  'already_hosting',
  'invitation_declined',
  'invitation_accepted',
  'verification_pending',
  'already_verified',
  'verification_decided',
  'report_resolved',
  'cannot_message_self',
  'awaiting_acceptance',
  'chat_closed',
  'product_messages',
  'contact_reminder',
  'phone_missing',
  'phone_confirmed',
  /** The card backs an unpaid fee or a paid subscription and is the member's only card (decision 073). */
  'card_in_use',
  /** The member's only card, and a no-show fee of theirs is not settled yet (decision 075). */
  'card_backs_fee',
  /** The hosted card page's session is finished or expired (decision 073). */
  'checkout_closed',
  /** Saving a seat at an activity with a no-show fee needs a usable default card (decision 075). */
  'card_required',
  /** The fee can no longer be disputed, waived or changed in that way (decision 075). */
  'fee_closed',
  /** Only a fee the bank would not take off-session can be paid by the member (decision 075). */
  'fee_not_payable',
  /** Only a charged fee can be refunded (decision 075). */
  'fee_not_charged',
  /** Nobody changes their own role on the team (decision 077). */
  'own_role',
  /** A suspended or banned member cannot be given a role on the team (decision 077). */
  'member_suspended',
  /** Refused while a staff member views Circle 55 as the member (decision 078). */
  'impersonation_refused',
  /** The impersonation a call names has ended (stopped, 30 minutes passed, or the role changed). */
  'impersonation_ended',
  /** Viewing as a member needs a sign-in within 15 minutes (decision 078). */
  'fresh_sign_in_required',
  /** Never a team member, oneself, or a suspended member (decision 078). */
  'impersonation_not_allowed',
  /** One member at a time (decision 078). */
  'already_impersonating',
  /** The `impersonation` flag is off (decision 079). */
  'impersonation_off',
  /** Feature flags are edited at the configured vendor (FLAGS_PROVIDER), not here (decision 080). */
  'flags_managed_by_vendor',
  /** The host confirms who came only after the activity, once (decision 075). */
  'attendance_not_open',
  /** The member already has premium (decision 074). */
  'already_subscribed',
  /** Premium that is not the member's to cancel any more, or already cancelled (decision 074). */
  'not_subscribed',
  /** The paid plan is not sold here (PAYMENTS=off, decision 074). */
  'payments_off',
  /** No Medicare agency is offered now: none named by the team, or paused (decision 086). */
  'medicare_not_offered',
  /** The words or the agency's details changed since the member read them: show them again (decision 086). */
  'medicare_words_changed',
  /** The member's permission to be called is already in force: stop it first to give a new one (decision 086). */
  'medicare_consent_in_force',
  // 413
  'payload_too_large',
  'too_large',
  // 415
  'invalid_format',
  // 422
  'invalid_input',
  'unknown_place',
  // 429
  'too_many_invitations',
  'too_many_streams',
  'new_conversations_limit',
  'too_many_attempts',
  'too_many_messages',
  // 500, 503
  'internal',
  'service_unavailable',
  'sms_not_sent',
] as const
export type ErrorCode = (typeof errorCodes)[number]

/** Field name → problem codes, in the order found (`{ title: ['title_required'] }`). */
export const fieldErrorsSchema = z.record(z.string(), z.array(z.string()))
export type FieldErrors = z.infer<typeof fieldErrorsSchema>

/** Spec §8: every error answer's body. */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(errorCodes),
      message: z.string(),
      fields: fieldErrorsSchema.optional(),
    }),
  })
  .meta({ id: 'Error', description: 'An error: its code, a message in English and, for 422 and for 400 invalid_characters, the problem codes per field.' })
export type ErrorBody = z.infer<typeof errorBodySchema>

// Lists (spec §7) ------------------------------------------------------------------------------

/** Spec §7: a page of a paged list; the next page is `page + 1` while it is not above `total_pages`. */
export const pageMetadataSchema = z.object({
  page: z.number().int().min(1),
  total_pages: z.number().int().min(0),
  total_count: z.number().int().min(0),
})
export type PageMetadata = z.infer<typeof pageMetadataSchema>

const pages = new WeakMap<z.ZodType, z.ZodType>()
const lists = new WeakMap<z.ZodType, z.ZodType>()
const ones = new WeakMap<z.ZodType, z.ZodType>()

function once<S extends z.ZodType>(made: WeakMap<z.ZodType, z.ZodType>, item: z.ZodType, make: () => S): S {
  let schema = made.get(item) as S | undefined
  if (!schema) {
    schema = make()
    made.set(item, schema)
  }
  return schema
}

/** A paged list of `item`: `{ data: [item, …], metadata: { page, total_pages, total_count } }`. */
export function pageOf<T extends z.ZodType>(item: T) {
  return once(pages, item, () => z.object({ data: z.array(item), metadata: pageMetadataSchema }))
}
export type Page<T> = { data: T[]; metadata: PageMetadata }

/** A list of `item`, unpaged: `{ data: [item, …] }`. */
export function listOf<T extends z.ZodType>(item: T) {
  return once(lists, item, () => z.object({ data: z.array(item) }))
}

/** Spec §7's one-item answer (`GET v1/users/me`: "data list, first item is the user"): `{ data: [item] }`. */
export function oneOf<T extends z.ZodType>(item: T) {
  return once(ones, item, () => z.object({ data: z.tuple([item]) }))
}

// Paging query (spec §7, §9) -------------------------------------------------------------------

/** `page`: from 1, plain decimal digits only (never 0x10, 1e1, ' 2' or +3). */
export const pageParameter = queryInteger('page_invalid', (page) => page.min(firstPage, 'page_invalid'))
  .default(firstPage)
  .meta({ type: 'integer', minimum: firstPage, default: firstPage, description: 'The page, from 1.' })

/** `per_page`: 1 or more, default 20; a number above 50 is read as 50 (the metadata says so). */
export const perPageParameter = queryInteger('per_page_invalid', (perPage) => perPage.min(1, 'per_page_invalid'))
  .transform((perPage) => Math.min(perPage, maxPerPage))
  .default(defaultPerPage)
  .meta({
    type: 'integer',
    minimum: 1,
    maximum: maxPerPage,
    default: defaultPerPage,
    description: `Items per page, at most ${maxPerPage}; a larger number is read as ${maxPerPage}.`,
  })

/** The paging query of every paged list. */
export const pageQuerySchema = z.object({ page: pageParameter, per_page: perPageParameter })

/** `exclude_results=true`: a list answers its metadata only (`data` empty), e.g. a badge's total. */
export const excludeResultsParameter = z
  .enum(['true', 'false'], { error: 'exclude_results_invalid' })
  .optional()
  .meta({ description: '`true`: answer the metadata only (`data` empty).' })
export type PageQuery = z.infer<typeof pageQuerySchema>

/** The metadata of page `page` of `total` items, `perPage` a page. */
export function pageMetadata(page: number, perPage: number, total: number): PageMetadata {
  return { page, total_pages: Math.ceil(total / perPage), total_count: total }
}
