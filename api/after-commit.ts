import type { ChatMirror } from './chat/mirror.ts'
import type { Notify } from './notifications/service.ts'

/**
 * What must follow a change (decision 072), recorded by the service inside the change's own
 * transaction: notifications (their rows and delivery jobs) and the chat provider's copy (a job).
 * Both exist exactly when the change commits and run from the job queue, whatever the entry point
 * (web, API, a texted reply, a webhook, a job): a route never does work after a service returns.
 * Every service that changes what members are told or what the chat vendor shows takes it whole.
 */
export interface AfterCommit {
  notify: Notify
  chatMirror: ChatMirror
}
