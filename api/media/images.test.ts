import { crc32, deflateSync } from 'node:zlib'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { ApiProblem } from '../http/errors.ts'
import { MAX_UPLOAD_BYTES, detectImageType, processImage } from './images.ts'

const photo = (width = 2400, height = 1600) =>
  sharp({ create: { width, height, channels: 3, background: '#c33' } })

async function problemOf(promise: Promise<unknown>) {
  const error: unknown = await promise.then(
    () => null,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(ApiProblem)
  return error as ApiProblem
}

function pngChunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A valid 1-bit greyscale PNG of width×height white pixels: tiny file, huge when decoded. */
function bombPng(width: number, height: number) {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([1, 0, 0, 0, 0], 8) // bit depth 1, greyscale, deflate, no filter, no interlace
  const rowBytes = 1 + Math.ceil(width / 8)
  const raw = Buffer.alloc(rowBytes * height, 0xff)
  for (let row = 0; row < height; row++) raw[row * rowBytes] = 0 // filter type None
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw, { level: 1 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

describe('detectImageType', () => {
  it('goes by magic bytes only', async () => {
    expect(detectImageType(await photo(10, 10).jpeg().toBuffer())).toBe('image/jpeg')
    expect(detectImageType(await photo(10, 10).png().toBuffer())).toBe('image/png')
    expect(detectImageType(await photo(10, 10).gif().toBuffer())).toBeNull()
    expect(detectImageType(Buffer.from('GIF89a'))).toBeNull()
    expect(detectImageType(Buffer.from('\xff\xd8'))).toBeNull()
    expect(detectImageType(new Uint8Array())).toBeNull()
  })
})

describe('processImage', () => {
  it('makes a 1200×600 progressive JPEG cover and a 450×150 thumbnail', async () => {
    const input = await photo().jpeg().toBuffer()
    const result = await processImage(input, 'experience_cover')
    expect(result.sourceType).toBe('image/jpeg')
    expect(result.main).toMatchObject({ width: 1200, height: 600, contentType: 'image/jpeg' })
    expect(result.thumbnail).toMatchObject({ width: 450, height: 150, contentType: 'image/jpeg' })
    const main = await sharp(result.main.bytes).metadata()
    expect(main).toMatchObject({ format: 'jpeg', width: 1200, height: 600, isProgressive: true })
    const thumbnail = await sharp(result.thumbnail.bytes).metadata()
    expect(thumbnail).toMatchObject({ format: 'jpeg', width: 450, height: 150 })
  })

  it('accepts a PNG (re-encoded as JPEG) and makes square avatars', async () => {
    const input = await photo(300, 200).png().toBuffer()
    const result = await processImage(input, 'avatar')
    expect(result.sourceType).toBe('image/png')
    expect(result.main).toMatchObject({ width: 400, height: 400 })
    expect(result.thumbnail).toMatchObject({ width: 96, height: 96 })
    expect(detectImageType(result.main.bytes)).toBe('image/jpeg')
  })

  it('fits other photos inside 1600×1600 without enlarging', async () => {
    const big = await processImage(await photo(3200, 1000).jpeg().toBuffer(), 'message')
    expect(big.main).toMatchObject({ width: 1600, height: 500 })
    const small = await processImage(await photo(640, 480).jpeg().toBuffer(), 'verification')
    expect(small.main).toMatchObject({ width: 640, height: 480 })
    expect(small.thumbnail).toMatchObject({ width: 400, height: 300 })
  })

  it('turns the photo upright by its EXIF orientation, then strips every metadata', async () => {
    const input = await photo()
      .jpeg()
      .withMetadata({
        orientation: 6,
        exif: { IFD0: { Copyright: 'secret', Artist: 'Jane Roe' }, IFD3: { GPSLatitudeRef: 'N' } },
      })
      .toBuffer()
    const before = await sharp(input).metadata()
    expect(before.exif).toBeDefined()
    expect(before.orientation).toBe(6)

    const result = await processImage(input, 'message')
    // 2400×1600 rotated a quarter turn is portrait.
    expect(result.main).toMatchObject({ width: 1067, height: 1600 })
    for (const variant of [result.main, result.thumbnail]) {
      const after = await sharp(variant.bytes).metadata()
      expect(after.exif).toBeUndefined()
      expect(after.icc).toBeUndefined()
      expect(after.xmp).toBeUndefined()
      expect(after.iptc).toBeUndefined()
      expect(after.orientation).toBeUndefined()
      expect(Buffer.from(variant.bytes).includes('secret')).toBe(false)
      expect(Buffer.from(variant.bytes).includes('Jane Roe')).toBe(false)
    }
  })

  it('refuses GIF, text and other formats with 415, whatever they are called', async () => {
    const gif = await photo(20, 20).gif().toBuffer()
    for (const bytes of [
      gif,
      Buffer.from('just some text, named photo.jpg'),
      await photo(20, 20).webp().toBuffer(),
    ]) {
      const problem = await problemOf(processImage(bytes, 'experience_cover'))
      expect(problem).toMatchObject({
        status: 415,
        code: 'invalid_format',
        message: 'Photos must be JPEG or PNG.',
      })
    }
  })

  it('refuses a file that only starts like a JPEG with 415', async () => {
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)])
    expect(await problemOf(processImage(fake, 'avatar'))).toMatchObject({ status: 415 })
    const truncated = (await photo().jpeg().toBuffer()).subarray(0, 2000)
    expect(await problemOf(processImage(truncated, 'avatar'))).toMatchObject({ status: 415 })
  })

  it('refuses more than 15 MB with 413 before looking at it', async () => {
    const bytes = new Uint8Array(MAX_UPLOAD_BYTES + 1)
    bytes.set([0xff, 0xd8, 0xff])
    const problem = await problemOf(processImage(bytes, 'experience_cover'))
    expect(problem).toMatchObject({ status: 413, code: 'too_large' })
  })

  it('refuses a decompression bomb (20000×20000 PNG) from its header, before decoding', async () => {
    const bomb = bombPng(20_000, 20_000)
    expect(bomb.byteLength).toBeLessThan(1_000_000) // 400 megapixels in a few hundred kB
    const started = performance.now()
    const problem = await problemOf(processImage(bomb, 'experience_cover'))
    expect(problem).toMatchObject({ status: 413, code: 'too_large' })
    expect(problem.message).toMatch(/megapixels/)
    // Decoding 400 megapixels would take many seconds and gigabytes; reading the header takes
    // milliseconds (the bound is loose for a busy 2-core machine running three test files at once).
    expect(performance.now() - started).toBeLessThan(3_000)
  })
})
