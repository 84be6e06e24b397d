import { randomBytes } from 'node:crypto'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { createCookie, unstable_parseMultipartFormData as parseMultipartFormData, type ActionFunctionArgs } from '@remix-run/node'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { photoForms } from '#contract/photo-forms.ts'
import { photoFormUploadHandler } from '#app/utils/upload-handler.server.ts'
import { capturingLogger, remixBehind, serveOnLoopback, type LoopbackServer } from '#tests/express-host.ts'
import { stubRemixBuild } from '#tests/remix-stub.ts'
import { FORM_BODY_LIMIT, OVERSIZED_PHOTO_FORM_LIMIT, PHOTO_FORM_BODY_LIMIT, limitWebBodies } from './body-limit.ts'

/**
 * Issue 10 §3: one anonymous 300 MB urlencoded POST /api/localize grew the process by 800 MB.
 * The limit runs on a small Express app in front of the real Remix adapter, as in server.ts
 * (the adapter streams Node's request into the action's Request), with actions that read their
 * bodies as the real ones do: /api/localize its form, the photo forms their multipart.
 */
const MB = 1024 * 1024
let served: LoopbackServer
let port: number
const logged: { level: number; msg: string }[] = []
const failures: unknown[] = []
/** Which actions ran: a refused body must never reach one. */
const ran: string[] = []
/** Each photo form of contract/photo-forms.ts, reading its photos as the real ones do (photoFormUploadHandler). */
const photoFormRoutes = Object.fromEntries(
  photoForms
    .map((form) => [
      form.path.slice(1),
      {
        page: true as const,
        action: async ({ request }: ActionFunctionArgs) => {
          ran.push(form.path)
          const tooLarge: string[] = []
          const data = await parseMultipartFormData(request, photoFormUploadHandler(request, (field) => tooLarge.push(field)))
          const photos = [...data.values()].filter((value) => value instanceof File).map((file) => file.size)
          return { title: data.get('title'), photos, tooLarge }
        },
      },
    ]),
)
const remix = stubRemixBuild({
  ...photoFormRoutes,
  'api/localize': {
    action: async ({ request }) => {
      ran.push('api/localize')
      const form = await request.formData()
      const returnTo = form.get('returnTo')
      return Response.json({ lng: form.get('lng'), returnTo: typeof returnTo === 'string' ? returnTo.length : 0 })
    },
  },
})

beforeAll(async () => {
  served = await serveOnLoopback(remixBehind([limitWebBodies(capturingLogger(logged))], remix.build, failures))
  port = served.port
})

afterAll(async () => {
  await served.close()
})

beforeEach(() => {
  logged.length = 0
  failures.length = 0
  ran.length = 0
  remix.errors.length = 0
})

interface Sent {
  status: number
  headers: IncomingHttpHeaders
  text: string
  /** Bytes written when the answer came (the client stops there). */
  sent: number
  /** Whether the whole body had been written when the answer came. */
  complete: boolean
}

/**
 * POSTs a body produced lazily by `chunks`, with a Content-Length when `length` is given and
 * chunked otherwise, and stops sending as soon as the answer arrives: how far it got shows
 * whether the server answered before reading the body.
 */
function post(path: string, headers: Record<string, string>, chunks: Iterable<Buffer>, length?: number) {
  return new Promise<Sent>((resolve, reject) => {
    let sent = 0
    let complete = false
    let answered: (() => void) | null = null
    const answer = new Promise<void>((resolveAnswer) => (answered = resolveAnswer))
    const outgoing = httpRequest({
      host: '127.0.0.1',
      port,
      path,
      method: 'POST',
      agent: false,
      headers: { ...headers, ...(length === undefined ? {} : { 'content-length': String(length) }) },
    })
    outgoing.on('response', (response) => {
      answered?.()
      answered = null
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (text += chunk))
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text, sent, complete })
        outgoing.destroy()
      })
    })
    // The server may hang up while we still write: expected once it has answered.
    outgoing.on('error', (error) => (answered === null ? undefined : reject(error)))
    const pump = async () => {
      for (const chunk of chunks) {
        if (answered === null || outgoing.destroyed) return
        sent += chunk.byteLength
        if (!outgoing.write(chunk)) {
          await Promise.race([new Promise((next) => outgoing.once('drain', next)), answer])
        }
      }
      complete = true
      outgoing.end()
    }
    pump().catch(reject)
  })
}

/** `size` bytes of a urlencoded form (`lng=fr&returnTo=aaa…`), 64 KB at a time. */
function* urlencoded(size: number, chunkSize = 64 * 1024) {
  const head = Buffer.from('lng=fr&returnTo=')
  yield head
  for (let left = size - head.byteLength; left > 0; left -= chunkSize) {
    yield Buffer.alloc(Math.min(chunkSize, left), 'a')
  }
}

const form = { 'content-type': 'application/x-www-form-urlencoded' }

/** A multipart body: text fields, then one file part per entry of `files` (its size in bytes), named `fileField`. */
function multipart(fields: Record<string, string> | [string, string][], files: number[] = [], fileField = 'cover') {
  const boundary = `----circle55${randomBytes(8).toString('hex')}`
  const parts: Buffer[] = []
  for (const [name, value] of Array.isArray(fields) ? fields : Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  }
  files.forEach((size, index) => {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${fileField}${index || ''}"; filename="photo${index}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`))
    for (let left = size; left > 0; left -= MB) parts.push(Buffer.alloc(Math.min(MB, left), 0xab))
    parts.push(Buffer.from('\r\n'))
  })
  parts.push(Buffer.from(`--${boundary}--\r\n`))
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    parts,
    length: parts.reduce((total, part) => total + part.byteLength, 0),
  }
}

function expectNoErrors() {
  expect(failures).toEqual([])
  expect(remix.errors).toEqual([])
  expect(logged.filter((entry) => entry.level >= 50)).toEqual([])
}

describe('POST /api/localize (a form: 100 KB)', () => {
  it('answers 413 to a declared 300 MB body at once, before reading it, and the action never runs', async () => {
    const response = await post('/api/localize', form, urlencoded(300 * MB), 300 * MB)
    expect(response.status).toBe(413)
    expect(response.headers['content-type']).toMatch(/^text\/html/)
    expect(response.text).toContain('<h1>The form is too large</h1>')
    expect(response.text).not.toMatch(/Error|\bat \S+ \(/)
    expect(response.complete).toBe(false)
    expect(response.sent).toBeLessThan(100 * MB)
    expect(ran).toEqual([])
    expectNoErrors()
    expect(logged.filter((entry) => entry.level === 40 && entry.msg === 'Request body over the limit refused')).toHaveLength(1)
  })

  it('answers 413 to a chunked 300 MB body (no Content-Length) once the count passes 100 KB', async () => {
    const response = await post('/api/localize', form, urlencoded(300 * MB))
    expect(response.status).toBe(413)
    expect(response.text).toContain('<h1>The form is too large</h1>')
    expect(response.complete).toBe(false)
    expect(response.sent).toBeLessThan(100 * MB)
    expect(ran).toEqual([])
    expectNoErrors()
  })

  it('answers 413 to eight such bodies at once', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, index) => post('/api/localize', form, urlencoded(300 * MB), index % 2 ? 300 * MB : undefined)),
    )
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(413))
    expect(ran).toEqual([])
    expectNoErrors()
  })

  it('answers in the language cookie, or else the browser language', async () => {
    const cookie = await createCookie('lng').serialize('fr')
    const french = await post('/api/localize', { ...form, cookie, 'accept-language': 'nl' }, urlencoded(FORM_BODY_LIMIT + 1), FORM_BODY_LIMIT + 1)
    expect(french.text).toContain('<html lang="fr">')
    expect(french.text).toContain('<h1>Le formulaire est trop volumineux</h1>')
    const dutch = await post('/api/localize', { ...form, 'accept-language': 'nl-NL,nl;q=0.9' }, urlencoded(FORM_BODY_LIMIT + 1))
    expect(dutch.status).toBe(413)
    expect(dutch.text).toContain('<html lang="nl">')
    expect(dutch.text).toContain('<h1>Het formulier is te groot</h1>')
  })

  it('hands a body within the limit to the action intact, with or without a Content-Length', async () => {
    const size = FORM_BODY_LIMIT
    const declared = await post('/api/localize', form, urlencoded(size), size)
    expect(declared.status).toBe(200)
    expect(JSON.parse(declared.text)).toEqual({ lng: 'fr', returnTo: size - 'lng=fr&returnTo='.length })
    // Chunked in small pieces, then in one: read ahead by the limit, then replayed to Remix.
    for (const chunkSize of [1000, size]) {
      const chunked = await post('/api/localize', form, urlencoded(size, chunkSize))
      expect(chunked.status).toBe(200)
      expect(JSON.parse(chunked.text)).toEqual({ lng: 'fr', returnTo: size - 'lng=fr&returnTo='.length })
    }
    const empty = await post('/api/localize', form, [])
    expect(empty.status).toBe(200)
    expect(JSON.parse(empty.text)).toEqual({ lng: null, returnTo: 0 })
    expect(ran).toHaveLength(4)
    expectNoErrors()
    expect(logged.filter((entry) => entry.level >= 40)).toEqual([])
  })

  it('limits a multipart body to 100 KB as well: only the photo forms take a photo', async () => {
    const body = multipart({ lng: 'fr' }, [MB])
    const response = await post('/api/localize', body.headers, body.parts, body.length)
    expect(response.status).toBe(413)
    expect(response.text).not.toContain('Your photo must be smaller than 15 MB.')
    expect(ran).toEqual([])
  })
})

describe('POST /create-activity (a photo of up to 15 MB)', () => {
  it('takes a 10 MB photo with the form', async () => {
    const body = multipart({ title: 'Morning walk', description: 'é'.repeat(5000) }, [10 * MB])
    const response = await post('/create-activity', body.headers, body.parts, body.length)
    expect(response.status).toBe(200)
    expect(JSON.parse(response.text)).toMatchObject({ actionData: { 'routes/create-activity': { title: 'Morning walk', photos: [10 * MB] } } })
    // Without JavaScript the form posts to the route; with it, to its .data URL.
    const chunked = await post('/create-activity.data', body.headers, body.parts)
    expect(chunked.status).toBe(200)
    expectNoErrors()
  })

  it('hands a declared photo over 15 MB to the action, which reads it, keeps the text and says the photo is too large', async () => {
    // A 28 MB phone PNG (12 megapixels): the page says so next to the field, with what was typed.
    const body = multipart({ title: 'Morning walk' }, [28 * MB])
    const page = await post('/create-activity', body.headers, body.parts, body.length)
    expect(page.status).toBe(200)
    expect(JSON.parse(page.text)).toMatchObject({ actionData: { 'routes/create-activity': { title: 'Morning walk', photos: [], tooLarge: ['cover'] } } })
    const script = await post('/create-activity.data', body.headers, body.parts, body.length)
    expect(script.status).toBe(200)
    expect(ran).toEqual(['/create-activity', '/create-activity'])
    expectNoErrors()
    expect(logged.filter((entry) => entry.level >= 40)).toEqual([])
  })

  it('answers 413 with what to do, before the action, to a declared form over 64 MB or a chunked one over 15 MB', async () => {
    const huge = multipart({ title: 'Morning walk' }, [OVERSIZED_PHOTO_FORM_LIMIT])
    const overLimit = multipart({ title: 'Morning walk' }, [PHOTO_FORM_BODY_LIMIT])
    for (const [body, length] of [[huge, huge.length], [overLimit, undefined]] as const) {
      const response = await post('/create-activity', body.headers, body.parts, length)
      expect(response.status).toBe(413)
      expect(response.text).toContain('Your photo must be smaller than 15 MB.')
    }
    expect(ran).toEqual([])
    expectNoErrors()
  })

  it('answers a submission with JavaScript (.data) as Remix answers a 413 itself, so the page shows its 413 error', async () => {
    // Remix's own answer, when the action throws a 413 (here: too many fields).
    const tooMany = multipart(Array.from({ length: 31 }, (_, index): [string, string] => [`field${index}`, 'x']))
    const fromRemix = await post('/create-activity.data', tooMany.headers, tooMany.parts, tooMany.length)
    expect(fromRemix.status).toBe(413)
    expect(ran).toEqual(['/create-activity'])

    const huge = multipart({ title: 'Morning walk' }, [OVERSIZED_PHOTO_FORM_LIMIT])
    const overLimit = multipart({ title: 'Morning walk' }, [PHOTO_FORM_BODY_LIMIT])
    for (const [body, length] of [[huge, huge.length], [overLimit, undefined]] as const) {
      const refused = await post('/create-activity.data', body.headers, body.parts, length)
      expect(refused.status).toBe(413)
      expect(refused.headers['content-type']).toBe(fromRemix.headers['content-type'])
      expect(refused.headers['x-remix-response']).toBe('yes')
      expect(refused.text).toBe(fromRemix.text)
    }
    expect(ran).toEqual(['/create-activity'])
    expectNoErrors()
  })

  it('answers 413 to more fields or files than the form has, or to an overlong text field', async () => {
    const tooMany = [
      multipart(Array.from({ length: 31 }, (_, index): [string, string] => [`field${index}`, 'x'])),
      multipart(Array.from({ length: 5000 }, (): [string, string] => ['title', 'x'])),
      multipart({ title: 'Morning walk' }, [10, 10]),
      multipart({ title: 'Morning walk', description: 'x'.repeat(65 * 1024) }),
    ]
    for (const body of tooMany) {
      const response = await post('/create-activity', body.headers, body.parts, body.length)
      expect(response.status).toBe(413)
    }
    expectNoErrors()
  })
})

describe('every photo form (contract/photo-forms.ts) takes a phone photo', () => {
  /** Issue 29 §2: a 4032×3024 phone JPEG of 4.3 MB, refused on the profile photo forms. */
  const phonePhoto = Math.round(4.3 * MB)
  const pages = photoForms.map((form) => ({ ...form, url: form.path.replace(':id', 'a1b2c3') }))

  it.each(pages)('$url takes $photos photo(s) of 4.3 MB, without JavaScript and with it (.data)', async ({ path, url, photos }) => {
    const body = multipart({ intent: 'photo', title: 'Morning walk' }, Array<number>(photos).fill(phonePhoto), 'photo')
    const page = await post(url, body.headers, body.parts, body.length)
    expect(page.status).not.toBe(413)
    expect(page.status).toBe(200)
    const answered = JSON.parse(page.text) as { actionData: Record<string, unknown> }
    expect(Object.values(answered.actionData)).toEqual([{ title: 'Morning walk', photos: Array(photos).fill(phonePhoto), tooLarge: [] }])
    const script = await post(`${url}.data`, body.headers, body.parts, body.length)
    expect(script.status).toBe(200)
    expect(ran).toEqual([path, path])
    expectNoErrors()
  })

  it.each(pages)('$url refuses a photo more than its form carries', async ({ url, photos }) => {
    const body = multipart({ title: 'Morning walk' }, Array<number>(photos + 1).fill(10), 'photo')
    const response = await post(url, body.headers, body.parts, body.length)
    expect(response.status).toBe(413)
  })
})
