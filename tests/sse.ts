/**
 * A Server-Sent Events reader for tests: parses a `text/event-stream` body into events as they
 * arrive, waits for the ones a test expects, and closes the stream (so vitest can exit).
 */
export interface SseEvent {
  id?: string
  event: string
  data: string
  /** When the event was parsed (ms, performance.now()). */
  at: number
}

export interface SseReader {
  events: SseEvent[]
  /** Comment lines (`: ping`) seen so far. */
  comments: string[]
  /** Waits until an event matches (already received ones count), or fails after `timeoutMs`. */
  next(match: (event: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>
  /** Resolves when the server ended the stream. */
  ended: Promise<void>
  close(): Promise<void>
}

export function readSse(body: ReadableStream<Uint8Array>): SseReader {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  const events: SseEvent[] = []
  const comments: string[] = []
  const waiters = new Set<() => void>()
  let buffer = ''
  let done = false
  let fields: Partial<SseEvent> & { data?: string } = {}

  function line(text: string) {
    if (text === '') {
      if (fields.data !== undefined || fields.event !== undefined) {
        events.push({ id: fields.id, event: fields.event ?? 'message', data: fields.data ?? '', at: performance.now() })
      }
      fields = {}
      return
    }
    if (text.startsWith(':')) {
      comments.push(text.slice(1).trim())
      return
    }
    const colon = text.indexOf(':')
    const name = colon === -1 ? text : text.slice(0, colon)
    const value = colon === -1 ? '' : text.slice(colon + 1).replace(/^ /, '')
    if (name === 'data') fields.data = fields.data === undefined ? value : `${fields.data}\n${value}`
    else if (name === 'event') fields.event = value
    else if (name === 'id') fields.id = value
  }

  const ended = (async () => {
    try {
      for (;;) {
        const chunk = await reader.read()
        if (chunk.done) break
        buffer += decoder.decode(chunk.value, { stream: true })
        let index: number
        while ((index = buffer.indexOf('\n')) !== -1) {
          line(buffer.slice(0, index).replace(/\r$/, ''))
          buffer = buffer.slice(index + 1)
        }
        for (const wake of waiters) wake()
      }
    } catch {
      // cancelled
    } finally {
      done = true
      for (const wake of waiters) wake()
    }
  })()

  return {
    events,
    comments,
    ended,
    next(match, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match)
          if (found) {
            finish()
            resolve(found)
          } else if (done) {
            finish()
            reject(new Error(`The stream ended without the event; got ${JSON.stringify(events.map((event) => event.event))}`))
          }
        }
        const timer = setTimeout(() => {
          finish()
          reject(new Error(`No matching event within ${timeoutMs} ms; got ${JSON.stringify(events.map((event) => [event.event, event.id]))}`))
        }, timeoutMs)
        const finish = () => {
          clearTimeout(timer)
          waiters.delete(check)
        }
        waiters.add(check)
        check()
      })
    },
    async close() {
      await reader.cancel().catch(() => undefined)
      await ended
    },
  }
}

/** The events of a kind, their data parsed. */
export function dataOf<T = any>(reader: SseReader, event: string): T[] {
  return reader.events.filter((entry) => entry.event === event).map((entry) => JSON.parse(entry.data) as T)
}
