import { describe, expect, it } from 'vitest'
import type { Channel, ChatMember, ChatMessageEvent, Message } from '#contract/chat.ts'
import { applyMessages, mergeMessages, settlePending, shorten, timeline, type PendingMessage } from './chat-timeline.ts'

const me: ChatMember = { id: '00000000-0000-4000-8000-000000000001', slug: 'me', display_name: 'Me', avatar: null }
const walter: ChatMember = { id: '00000000-0000-4000-8000-000000000002', slug: 'walter', display_name: 'Walter', avatar: null }
const channelA = '10000000-0000-4000-8000-00000000000a'
const channelB = '10000000-0000-4000-8000-00000000000b'

let counter = 0
function message(body: string, sender: ChatMember | null, minute: number, channel = channelA): Message {
  counter += 1
  return {
    id: `20000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    channel_id: channel,
    sender,
    is_system: sender === null,
    body,
    created_at: new Date(Date.UTC(2026, 0, 1, 10, minute)).toISOString(),
  }
}

function event(of: Message, seq: number): ChatMessageEvent {
  return { channel_id: of.channel_id, message_id: of.id, seq, message: of }
}

function channel(id: string, last: Message[], unread = 0): Channel {
  return {
    id,
    kind: 'direct',
    experience: null,
    other_member: walter,
    is_accepted: true,
    is_awaiting_acceptance: false,
    can_write: true,
    cannot_write_reason: null,
    unread_count: unread,
    last_messages: last,
    last_message_at: last.at(-1)?.created_at ?? null,
  }
}

function pending(body: string, seen: Message[], sentId: string | null = null): PendingMessage {
  return { key: `pending-${body}`, channelId: channelA, body, createdAt: new Date(Date.UTC(2026, 0, 1, 11)).toISOString(), sentId, seen: new Set(seen.map((m) => m.id)) }
}

describe('mergeMessages', () => {
  it('adds live messages once each, in the API’s order, and keeps what was shown', () => {
    const first = message('Hello', walter, 1)
    const second = message('How are you?', walter, 2)
    const third = message('Fine', me, 3)
    const shown = [first, second]
    // A fresher loader answer that dropped the oldest message, and a live message that came twice.
    const merged = mergeMessages(mergeMessages(shown, [second, third]), [third])
    expect(merged.map((m) => m.body)).toEqual(['Hello', 'How are you?', 'Fine'])
  })

  it('replaces an older copy of a message with the newer one', () => {
    const first = message('Hello', walter, 1)
    const merged = mergeMessages([first], [{ ...first, body: 'Hello (edited)' }])
    expect(merged).toHaveLength(1)
    expect(merged[0]!.body).toBe('Hello (edited)')
  })
})

describe('timeline', () => {
  it('shows a message being sent after the others, marked pending', () => {
    const first = message('Hello', walter, 1)
    const items = timeline([first], [pending('On my way', [first])], me)
    expect(items.map((item) => [item.message.body, item.pending])).toEqual([
      ['Hello', false],
      ['On my way', true],
    ])
    expect(items[1]!.message.sender?.id).toBe(me.id)
  })

  it('shows the real message once it arrives: never both', () => {
    const first = message('Hello', walter, 1)
    const sent = message('On my way', me, 2)
    // The form answered first: the pending message has the server's id, the list has it too.
    expect(timeline([first, sent], [pending('On my way', [first], sent.id)], me).map((item) => item.message.id)).toEqual([first.id, sent.id])
    // The form answered, the list does not have it yet: shown under its real id, no longer pending.
    const confirmed = timeline([first], [pending('On my way', [first], sent.id)], me)
    expect(confirmed.map((item) => [item.message.id, item.pending])).toEqual([
      [first.id, false],
      [sent.id, false],
    ])
    // The stream brought it before the form's answer: the member's new message with the same text is it.
    expect(timeline([first, sent], [pending('On my way', [first])], me).map((item) => item.message.id)).toEqual([first.id, sent.id])
  })

  it('does not mistake an older message with the same text for the one being sent', () => {
    const earlier = message('Yes', me, 1)
    const items = timeline([earlier], [pending('Yes', [earlier])], me)
    expect(items.map((item) => item.pending)).toEqual([false, true])
  })

  it('rolls back: a message that was not sent simply leaves the pending list', () => {
    const first = message('Hello', walter, 1)
    const kept = [pending('Second', [first])]
    expect(timeline([first], kept.filter((entry) => entry.key !== 'pending-Second'), me)).toHaveLength(1)
  })

  it('settlePending drops the messages the list now holds', () => {
    const first = message('Hello', walter, 1)
    const sent = message('On my way', me, 2)
    const entries = [pending('On my way', [first], sent.id), pending('Still going', [first])]
    expect(settlePending(entries, [first, sent]).map((entry) => entry.body)).toEqual(['Still going'])
  })
})

describe('applyMessages (the channel list)', () => {
  it('updates the last messages, time and unread count, and moves the channel to the top', () => {
    const a1 = message('Old news', walter, 1)
    const b1 = message('Other channel', walter, 5, channelB)
    const a2 = message('Fresh news', walter, 10)
    const { channels, unknown } = applyMessages([channel(channelB, [b1]), channel(channelA, [a1], 0)], [event(a2, 7)], { userId: me.id, readChannelId: null })
    expect(unknown).toBe(false)
    expect(channels.map((c) => c.id)).toEqual([channelA, channelB])
    expect(channels[0]!.unread_count).toBe(1)
    expect(channels[0]!.last_message_at).toBe(a2.created_at)
    expect(channels[0]!.last_messages.map((m) => m.body)).toEqual(['Old news', 'Fresh news'])
  })

  it('keeps 5 last messages, never counts the member’s own or the open channel’s as unread', () => {
    const history = [1, 2, 3, 4, 5].map((minute) => message(`m${minute}`, walter, minute))
    const own = message('mine', me, 6)
    const other = message('while reading', walter, 7)
    const { channels } = applyMessages([channel(channelA, history, 2)], [event(own, 8), event(other, 9)], { userId: me.id, readChannelId: channelA })
    expect(channels[0]!.last_messages.map((m) => m.body)).toEqual(['m3', 'm4', 'm5', 'mine', 'while reading'])
    expect(channels[0]!.unread_count).toBe(0)
  })

  it('applies the same events to a fresher loader answer without counting them twice', () => {
    const a1 = message('Hello', walter, 1)
    const a2 = message('Again', walter, 2)
    const events = [event(a2, 2)]
    const once = applyMessages([channel(channelA, [a1], 0)], events, { userId: me.id, readChannelId: null }).channels
    expect(once[0]!.unread_count).toBe(1)
    // The loader answered again, already counting a2 (and one more message pushed it out of view).
    const a3 = message('Third', walter, 3)
    const fresher = [channel(channelA, [a1, a2, a3], 2)]
    expect(applyMessages(fresher, events, { userId: me.id, readChannelId: null }).channels).toEqual(fresher)
    expect(applyMessages(once, events, { userId: me.id, readChannelId: null }).channels).toEqual(once)
  })

  it('says when a message belongs to a conversation the list does not have (a new request)', () => {
    const elsewhere = message('Hi, we met at the walk', walter, 1, channelB)
    const before = [channel(channelA, [])]
    const { channels, unknown } = applyMessages(before, [event(elsewhere, 1)], { userId: me.id, readChannelId: null })
    expect(unknown).toBe(true)
    expect(channels).toEqual(before)
  })
})

describe('shorten', () => {
  it('keeps short texts, folds line breaks and cuts long ones with an ellipsis', () => {
    expect(shorten('Hello\n\nthere')).toBe('Hello there')
    const long = shorten('word '.repeat(50), 20)
    expect(long.length).toBeLessThanOrEqual(20)
    expect(long.endsWith('…')).toBe(true)
  })
})
