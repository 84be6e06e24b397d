import type { VerificationProviderName } from '#contract/verification.ts'

/**
 * Identity verification (ARCHITECTURE §4 "ID verification", decision 025): the built-in check
 * (the member uploads two photos, kept encrypted until an admin decides; builtin.ts) and Stripe
 * Identity when its variables are set (stripe.ts). `api/providers.ts` chooses.
 */
export interface VerificationProvider {
  /** Who checks new requests. */
  name: VerificationProviderName
  /** Encrypted storage for the built-in check's photos (kept for requests made before a switch to Stripe). */
  vault: PhotoVault
  /** Stripe Identity, when configured. */
  stripe: StripeIdentity | null
}

/** Photos stored encrypted at rest (AES-256-GCM); readable only through `get`. */
export interface PhotoVault {
  /** Encrypts and stores `bytes` under a fresh random key, which it answers. */
  put(bytes: Uint8Array): Promise<string>
  /** The decrypted bytes, or null when there is nothing (or nothing intact) under `key`. */
  get(key: string): Promise<Uint8Array | null>
  /** Removes the file; a missing one is not an error. */
  delete(key: string): Promise<void>
}

export interface StripeIdentity {
  /** Creates a VerificationSession (a document with a matching selfie) and answers its id and the page to send the member to. */
  createSession(input: { userId: string; returnUrl: string }): Promise<{ id: string; url: string }>
  /** The event of a webhook request whose `Stripe-Signature` is valid; throws `InvalidSignatureError` otherwise. */
  parseWebhook(payload: string, signatureHeader: string | undefined, now?: Date): StripeIdentityEvent
}

/** A webhook event about a VerificationSession (only the fields we read). */
export interface StripeIdentityEvent {
  id: string
  type: string
  data: {
    object: {
      id: string
      object: string
      status?: string
      metadata?: Record<string, string>
      last_error?: { code?: string | null; reason?: string | null } | null
    }
  }
}

export class InvalidSignatureError extends Error {
  override name = 'InvalidSignatureError'
}

/** Stripe answered with an error, or could not be reached. */
export class VerificationVendorError extends Error {
  override name = 'VerificationVendorError'
}
