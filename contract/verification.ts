import { z } from 'zod'
import { verificationStatuses } from './enums.ts'
import { memberText, memberTextCodes } from './input-validation.ts'
import { maxPhotoBytes } from './limits.ts'

/**
 * Identity verification (spec §3 "Verification", §7 `v1/verification`, §8 "Verification
 * conflict"; decision 025). A member is not verified, processing or verified; a rejected request
 * returns them to not verified with the reason, so they know why and can try again.
 */

/** Who checks the documents: our reviewers (photos uploaded here) or Stripe Identity (a redirect). */
export const verificationProviders = ['builtin', 'stripe'] as const
export type VerificationProviderName = (typeof verificationProviders)[number]

/** The longest rejection reason a reviewer may write (the member reads it). */
export const maxRejectionReasonLength = 500

/** The two photos of the built-in check, as the multipart fields of `POST v1/verification/initiate`. */
export const verificationFiles = ['document', 'selfie'] as const
export type VerificationFile = (typeof verificationFiles)[number]

/** `GET v1/verification`: the member's status; `data` holds one item. */
export const verificationSchema = z
  .object({
    status: z.enum(verificationStatuses),
    /** The reason of the last rejection while the member is not verified (null otherwise). */
    rejection_reason: z.string().nullable(),
    /** How a new request is made: `builtin` uploads two photos, `stripe` answers a `redirect_url`. */
    provider: z.enum(verificationProviders),
    /** When the pending request was made (processing), or null. */
    requested_at: z.string().nullable(),
    /** When the last decision was made (verified, or a rejection), or null. */
    decided_at: z.string().nullable(),
    /** Where to send the member to carry on with the vendor (Stripe Identity), after initiate only. */
    redirect_url: z.string().nullable(),
  })
  .meta({ id: 'Verification' })
export type Verification = z.infer<typeof verificationSchema>

/**
 * `POST v1/verification/initiate` (multipart/form-data) with the built-in provider: a photo of a
 * government ID and a selfie. With Stripe Identity the body is empty.
 */
const photoField = (description: string) =>
  z.any().meta({
    type: 'string',
    format: 'binary',
    description: `${description} JPEG or PNG, at most ${maxPhotoBytes / 1024 / 1024} MB.`,
  })
export const initiateVerificationFormSchema = z.object({
  document: photoField('A photo of a driver’s license, passport or state ID.'),
  selfie: photoField('A photo of the member’s face.'),
})

/** A request waiting for (or past) a reviewer, as admins see it. */
export const verificationRequestSchema = z
  .object({
    id: z.string(),
    status: z.enum(verificationStatuses),
    provider: z.enum(verificationProviders),
    user: z.object({ id: z.string(), name: z.string(), email: z.string().nullable() }),
    created_at: z.string(),
    decided_at: z.string().nullable(),
    rejection_reason: z.string().nullable(),
    /** Whether the photos are still kept (they are deleted once a decision is made). */
    has_files: z.boolean(),
  })
  .meta({ id: 'VerificationRequest' })
export type VerificationRequest = z.infer<typeof verificationRequestSchema>

/** `POST v1/verification/requests/{id}/reject`: why (the member reads it). */
export const rejectVerificationBodySchema = z.object({
  reason: memberText(z.string({ error: 'reason_required' }).trim(), memberTextCodes, { multiline: true })
    .min(1, 'reason_required')
    .max(maxRejectionReasonLength, 'reason_too_long'),
})
export type RejectVerificationBody = z.infer<typeof rejectVerificationBodySchema>
