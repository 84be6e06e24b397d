import { StaticRouter } from 'react-router-dom/server.js'
import { renderToStaticMarkup } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Language } from '#app/utils/i18n.ts'
import { createI18nInstance } from '#app/utils/i18next.server.ts'
import { HiddenBlockedNotice, MessageShield, ShieldedMessageList } from './__stream-shield.client.tsx'

/**
 * `/messenger` with Stream's React client keeps what the built-in page does for each reader
 * (decision 042): the scam warning with "Report this message" under another member's message that
 * asks for money, and the messages of a member the reader blocked hidden behind one line.
 *
 * Stream's own components need a live connection, so they are replaced here by stand-ins that
 * keep their contract with ours: `MessageList` draws each message it is given with the `Message`
 * component it is given, inside the message's context (as stream-chat-react's does); the chat
 * context holds the client's store of the reader's blocked users.
 */
const stream = vi.hoisted(() => ({
  me: 'stream-rose',
  blocked: [] as string[],
  messages: [] as Array<{ id: string; text: string; type: 'regular'; user: { id: string } }>,
}))

vi.mock('stream-chat-react', async () => {
  const { createContext, useContext } = await import('react')
  type Item = (typeof stream.messages)[number]
  const MessageContext = createContext<{ message: Item; isMyMessage: () => boolean } | null>(null)
  return {
    useChatContext: () => ({ client: { blockedUsers: { userIds: stream.blocked } } }),
    useStateStore: (store: { userIds: string[] }, select: (state: { userIds: string[] }) => unknown) => select(store),
    useChannelStateContext: () => ({ channel: { id: 'channel-1', cid: 'messaging:channel-1' }, messages: stream.messages }),
    useMessageContext: () => useContext(MessageContext)!,
    MessageUI: () => <div className="str-chat__message-text">{useContext(MessageContext)!.message.text}</div>,
    MessageList: ({ messages, Message }: { messages: Item[]; Message: () => React.ReactNode }) => (
      <ul>
        {messages.map((message) => (
          <li key={message.id}>
            <MessageContext.Provider value={{ message, isMyMessage: () => message.user.id === stream.me }}>
              <Message />
            </MessageContext.Provider>
          </li>
        ))}
      </ul>
    ),
  }
})

async function render(node: React.ReactNode, language: Language = 'en') {
  const i18n = await createI18nInstance(language)
  const html = renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <StaticRouter location="/messenger">{node}</StaticRouter>
    </I18nextProvider>,
  )
  return { html, text: html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim() }
}

const warning = 'Never send money to someone you have not met. Report anything that feels wrong.'
const money = 'I need money for a plane ticket, please send me a gift card today.'
const message = (id: string, user: string, text: string) => ({ id, text, type: 'regular' as const, user: { id: user } })

beforeEach(() => {
  stream.blocked = []
  stream.messages = []
})

describe('the scam warning in Stream’s message list', () => {
  it('sits under another member’s message asking for money, with Report this message one tap away', async () => {
    stream.messages = [message('m-1', 'stream-victor', money), message('m-2', 'stream-victor', 'See you at the bridge at ten.')]
    const { html, text } = await render(<ShieldedMessageList />)
    expect(text.match(new RegExp(warning.replace(/[.]/g, '\\.'), 'g'))).toHaveLength(1)
    expect(html).toMatch(/<li><div class="str-chat__message-text">I need money[^<]*<\/div><p class="scam-warning" role="note">/)
    expect(html).toContain('<a class="scam-warning__report" data-discover="true" href="/messenger/report?channel=channel-1&amp;message=m-1"')
    expect(text).toContain('Report this message')
  })

  it('is never under one’s own message or the product’s', async () => {
    stream.messages = [message('m-1', stream.me, money), message('m-2', 'circle55', money)]
    const { text } = await render(<ShieldedMessageList />)
    expect(text).not.toContain(warning)
    expect(text).not.toContain('Report this message')
  })

  it('speaks the reader’s language', async () => {
    stream.messages = [message('m-1', 'stream-victor', money)]
    expect((await render(<ShieldedMessageList />, 'fr')).text).toContain('Signaler ce message')
    expect((await render(<ShieldedMessageList />, 'nl')).text).toContain('Stuur nooit geld naar iemand die u niet hebt ontmoet.')
  })
})

describe('messages from a member the reader blocked', () => {
  it('are hidden behind “1 message from someone you blocked is hidden” with a way to show them', async () => {
    stream.blocked = ['stream-victor']
    stream.messages = [message('m-1', 'stream-victor', 'Hello everyone!'), message('m-2', 'stream-walter', 'Welcome to the walk.')]
    const { html, text } = await render(<ShieldedMessageList />)
    expect(text).toContain('1 message from someone you blocked is hidden. Show it')
    expect(html).toContain('<button type="button" class="button button--link">Show it</button>')
    expect(text).not.toContain('Hello everyone!')
    expect(text).toContain('Welcome to the walk.')
  })

  it('say nothing when the reader blocked nobody in the chat', async () => {
    stream.blocked = ['stream-someone-else']
    stream.messages = [message('m-1', 'stream-victor', 'Hello everyone!')]
    const { text } = await render(<ShieldedMessageList />)
    expect(text).toBe('Hello everyone!')
  })

  it('once shown, are marked, and the line offers to hide them again', async () => {
    const shown = await render(<HiddenBlockedNotice count={2} shown onToggle={() => undefined} />)
    expect(shown.text).toBe('Messages from someone you blocked are shown and marked. Hide them again')
    const marked = await render(
      <MessageShield message={message('m-1', 'stream-victor', 'Hello everyone!')} channelId="channel-1" own={false} blocked={new Set(['stream-victor'])}>
        <p>Hello everyone!</p>
      </MessageShield>,
    )
    expect(marked.html).toBe('<span class="message__blocked">From someone you blocked</span><p>Hello everyone!</p>')
    const hidden = await render(<HiddenBlockedNotice count={2} shown={false} onToggle={() => undefined} />, 'nl')
    expect(hidden.text).toBe('2 berichten van iemand die u hebt geblokkeerd zijn verborgen. Toch tonen')
  })
})
