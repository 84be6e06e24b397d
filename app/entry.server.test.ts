import { data } from '@remix-run/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GeneralErrorBoundary } from '#app/components/general-error-boundary.tsx'
import * as activityRoute from '#app/routes/activities+/$id.tsx'
import * as notFoundRoute from '#app/routes/$.tsx'
import { createUser, TEST_PUBLIC_URL } from '#tests/api-harness.ts'
import { createTestDatabase, type TestDatabase } from '#tests/db.ts'
import { createDocumentHandler } from '#tests/web-document.ts'
import { createWebHarness, testContext, testWebServices, type WebHarness } from '#tests/web-harness.ts'
import { CoalescingStream } from './entry.server.tsx'

/**
 * Issue 11 §5 and §6, through Remix's own request handler with the real root and entry.server:
 * loader, action and render errors reach error reporting with the request id (before, only
 * errors that reached the Express host were reported), and no page or page data may be cached.
 */
let database: TestDatabase
let web: WebHarness

const broken = {
  loader: () => {
    throw new Error('the loader broke')
  },
  default: () => null,
  ErrorBoundary: GeneralErrorBoundary,
}
const brokenAction = {
  loader: () => null,
  action: () => {
    throw new Error('the action broke')
  },
  default: () => null,
  ErrorBoundary: GeneralErrorBoundary,
}
const brokenRender = {
  loader: () => null,
  default: function Broken(): never {
    throw new Error('the page broke while drawing')
  },
  ErrorBoundary: GeneralErrorBoundary,
}
const gone = {
  loader: () => {
    throw data(null, { status: 404 })
  },
  default: () => null,
  ErrorBoundary: GeneralErrorBoundary,
}
const handle = createDocumentHandler([
  { id: 'routes/broken', path: 'broken', module: broken },
  { id: 'routes/broken-action', path: 'broken-action', module: brokenAction },
  { id: 'routes/broken-render', path: 'broken-render', module: brokenRender },
  { id: 'routes/gone', path: 'gone', module: gone },
  { id: 'routes/activities+/$id', path: 'activities/:id', module: activityRoute as never },
  { id: 'routes/$', path: '*', module: notFoundRoute },
])

beforeAll(async () => {
  database = await createTestDatabase()
  web = await createWebHarness(database)
})

afterAll(async () => {
  await web?.close()
  await database?.drop()
})

/** A request answered with a load context whose error reporting is recorded. */
async function send(request: Request) {
  const reported: { error: unknown; context: Record<string, unknown> }[] = []
  const services = testWebServices(web.api, web.db, { reportError: (error, context) => void reported.push({ error, context }) })
  const response = await handle(request, testContext(services, { requestId: 'req-4f2a9c' }))
  const body = await response.text()
  return { response, body, reported }
}

const get = (path: string, headers: Record<string, string> = {}) => new Request(`${TEST_PUBLIC_URL}${path}`, { headers })

describe('errors reach error reporting with the request id', () => {
  it('a loader that throws: reported once, and the member gets the §8 page without the error text', async () => {
    const { response, body, reported } = await send(get('/broken'))
    expect(response.status).toBe(500)
    expect(reported).toEqual([{ error: expect.objectContaining({ message: 'the loader broke' }), context: { requestId: 'req-4f2a9c', method: 'GET', path: '/broken' } }])
    expect(body).toContain('An unknown error has occurred and our team has been notified.')
    expect(body).not.toContain('the loader broke')
  })

  it('the same loader asked for page data (a navigation with JavaScript): reported', async () => {
    const { response, reported } = await send(get('/broken.data'))
    expect(response.status).toBe(500)
    expect(reported).toEqual([{ error: expect.objectContaining({ message: 'the loader broke' }), context: { requestId: 'req-4f2a9c', method: 'GET', path: '/broken.data' } }])
  })

  it('an action that throws: reported', async () => {
    const request = new Request(`${TEST_PUBLIC_URL}/broken-action`, { method: 'POST', body: new URLSearchParams({ a: '1' }) })
    const { response, reported } = await send(request)
    expect(response.status).toBe(500)
    expect(reported.map((entry) => [(entry.error as Error).message, entry.context.requestId])).toEqual([['the action broke', 'req-4f2a9c']])
  })

  it('a page that fails while drawing: reported, and the error page is drawn instead', async () => {
    const { response, body, reported } = await send(get('/broken-render'))
    expect(response.status).toBe(500)
    expect(reported.map((entry) => [(entry.error as Error).message, entry.context.requestId])).toEqual([['the page broke while drawing', 'req-4f2a9c']])
    expect(body).toContain('<title>Something went wrong – Circle 55</title>')
  })

  it('a status a page answers on purpose (404) is not reported', async () => {
    for (const path of ['/gone', '/no-such-page']) {
      const { response, reported } = await send(get(path))
      expect(response.status).toBe(404)
      expect(reported).toEqual([])
    }
  })
})

describe('pages and page data are never cached (Cache-Control: private, no-store)', () => {
  it('an activity page, signed in and signed out, its page data, and error pages', async () => {
    const host = await createUser(database.db)
    const created = await web.api.request('POST', 'v1/experiences', {
      token: await web.api.signToken(host.id),
      body: { title: 'Morning walk', start_date: new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10), start_time: '09:00', venue_type: 'online', url: 'https://meet.example.com/walk' },
    })
    const { id } = created.json.data[0] as { id: string }
    const cookie = await web.signedInCookie(host.id)
    for (const request of [
      get(`/activities/${id}`, { cookie }),
      get(`/activities/${id}`),
      get(`/activities/${id}.data`, { cookie }),
      get('/no-such-page', { cookie }),
      get('/broken'),
    ]) {
      const { response } = await send(request)
      expect(response.headers.get('Cache-Control'), request.url).toBe('private, no-store')
    }
  })
})

describe('every page and its page data say which build answered (decision 045)', () => {
  it('the build the browser compares with its own', async () => {
    for (const request of [get('/no-such-page'), get('/broken.data')]) {
      const { response } = await send(request)
      expect(response.headers.get('X-Build-Version'), request.url).toBe(__BUILD_VERSION__)
    }
  })
})

describe('CoalescingStream (decision 053)', () => {
  async function chunksOf(write: (stream: CoalescingStream) => Promise<void>) {
    const stream = new CoalescingStream()
    const chunks: string[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString()))
    const ended = new Promise((resolve) => stream.on('end', resolve))
    await write(stream)
    await ended
    return chunks
  }

  it('sends what is written in one turn as one chunk, in order', async () => {
    const chunks = await chunksOf(async (stream) => {
      for (const piece of ['<!DOCTYPE html>', '<html>', '<body>', 'Hello', '</body></html>']) stream.write(Buffer.from(piece))
      stream.end()
    })
    expect(chunks).toEqual(['<!DOCTYPE html><html><body>Hello</body></html>'])
  })

  it('still streams: what is written in a later turn leaves after what came before', async () => {
    const chunks = await chunksOf(async (stream) => {
      stream.write(Buffer.from('<p>shell</p>'))
      stream.write(Buffer.from('<p>more</p>'))
      await new Promise((resolve) => setTimeout(resolve, 20))
      stream.write(Buffer.from('<p>later</p>'))
      stream.end()
    })
    expect(chunks).toEqual(['<p>shell</p><p>more</p>', '<p>later</p>'])
  })
})
