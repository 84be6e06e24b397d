import { emailChangeStartedSchema, pendingEmailChangeSchema, type EmailChangeStarted, type PendingEmailChange } from '#contract/account.ts'
import { phoneConfirmationStartedSchema, type PhoneConfirmationStarted } from '#contract/sms.ts'
import { userSchema, type User } from '#contract/users.ts'
import { ApiError, type ApiTransport } from '../api.server.ts'

/** The member's own account (decision 028): the email change and signing out everywhere. */
export function accountClient(api: ApiTransport) {
  return {
    /** Sends a code to the new address. */
    startEmailChange: (email: string): Promise<EmailChangeStarted> => api.json('POST', 'v1/users/me/email-change', emailChangeStartedSchema, { body: { email } }),
    /** The change waiting for its code, or null when none is (or its code expired). */
    pendingEmailChange: async (): Promise<PendingEmailChange | null> => {
      try {
        return await api.json('GET', 'v1/users/me/email-change', pendingEmailChangeSchema)
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null
        throw error
      }
    },
    /** Finishes the change with the code; answers the member with the new address. */
    confirmEmailChange: (code: string): Promise<User> => api.one('POST', 'v1/users/me/email-change/confirm', userSchema, { body: { code } }),
    /** Texts a 6-digit code to the member's phone (decision 049). */
    startPhoneConfirmation: (): Promise<PhoneConfirmationStarted> => api.json('POST', 'v1/users/me/phone/confirmation', phoneConfirmationStartedSchema),
    /** Confirms the phone with the texted code; answers the member. */
    confirmPhone: (code: string): Promise<User> => api.one('PUT', 'v1/users/me/phone/confirmation', userSchema, { body: { code } }),
    /** Ends every session of the member, this one included. */
    signOutEverywhere: () => api.empty('DELETE', 'v1/users/me/sessions'),
  }
}
