import type { HelpChatMessage, HelpChatWidget } from '#contract/help-chat.ts'

/**
 * The help chat (issue 32 §6, decision 083): `/help/chat` is the page (without JavaScript) and
 * what the header's Help panel loads (`?panel`, with JavaScript). `/help` is the help center's
 * articles (decision 088), linked from both.
 */
export const helpChatPath = '/help/chat'
/** The panel's own request: the answer may carry the vendor widget, and sending answers data, not a redirect. */
export const helpPanelPath = `${helpChatPath}?panel`

/** What the page and the panel draw. */
export type HelpChatView =
  | { signedIn: false; suspended: boolean; supportEmail: string; now: number }
  | { signedIn: true; supportEmail: string; now: number; channelId: string | null; messages: HelpChatMessage[]; widget: HelpChatWidget | null }

/** The action's answer to the panel when a message went out (the page gets a redirect instead). */
export interface HelpChatSent {
  sent: string
}

export function isHelpChatSent(value: unknown): value is HelpChatSent {
  return typeof value === 'object' && value !== null && 'sent' in value
}
