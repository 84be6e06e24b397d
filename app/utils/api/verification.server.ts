import { pageOf } from '#contract/common.ts'
import {
  verificationRequestSchema,
  verificationSchema,
  type Verification,
  type VerificationFile,
  type VerificationRequest,
} from '#contract/verification.ts'
import type { ApiTransport } from '../api.server.ts'

/** Identity verification (spec §7 `v1/verification`, decision 025): the only code that knows its paths. */
export function verificationClient(api: ApiTransport) {
  const request = (id: string) => `v1/verification/requests/${encodeURIComponent(id)}`
  return {
    /** The member's status (not verified with the last rejection's reason, processing, verified). */
    status: (): Promise<Verification> => api.one('GET', 'v1/verification', verificationSchema),
    /**
     * Starts a request: with the built-in check, the two photos; with Stripe Identity, nothing
     * (the answer's `redirect_url` is where the member goes next).
     */
    initiate: (photos: { document: File; selfie: File } | null): Promise<Verification> => {
      if (!photos) return api.one('POST', 'v1/verification/initiate', verificationSchema)
      const form = new FormData()
      form.set('document', photos.document)
      form.set('selfie', photos.selfie)
      return api.one('POST', 'v1/verification/initiate', verificationSchema, { formData: form })
    },
    /** Reviewers: the pending requests, oldest first (404 for anyone else). */
    pending: (page = 1) => api.json('GET', 'v1/verification/requests', pageOf(verificationRequestSchema), { query: { page } }),
    /** Reviewers: one request. */
    request: (id: string): Promise<VerificationRequest> => api.one('GET', request(id), verificationRequestSchema),
    /** Reviewers: a pending request's photo, decrypted (JPEG). */
    photo: (id: string, file: VerificationFile): Promise<Uint8Array> => api.bytes(`${request(id)}/files/${file}`, 'image/jpeg'),
    approve: (id: string): Promise<VerificationRequest> => api.one('POST', `${request(id)}/approve`, verificationRequestSchema),
    reject: (id: string, reason: string): Promise<VerificationRequest> =>
      api.one('POST', `${request(id)}/reject`, verificationRequestSchema, { body: { reason } }),
  }
}
