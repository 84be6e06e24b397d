import { redirect } from '@remix-run/node'
import { helpChatPath } from '#app/utils/help-chat.ts'

/**
 * `/help` is kept for the help articles to come (decision 083); until they do, it is the help
 * chat. A temporary redirect, so browsers do not remember it.
 */
export function loader() {
  return redirect(helpChatPath)
}
