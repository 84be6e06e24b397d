import sharp, { type Metadata, type Sharp } from 'sharp'
import { coverSize, coverThumbnailSize, maxPhotoBytes } from '#contract/limits.ts'
import { ApiProblem } from '../http/errors.ts'
import type { MediaTarget } from '../providers/storage/storage.ts'

/** Spec: "Photo size limit 15MB". */
export const MAX_UPLOAD_BYTES = maxPhotoBytes
/** More pixels than any phone camera takes; a larger image is refused before it is decoded. */
export const MAX_INPUT_PIXELS = 40_000_000

export const tooLarge = (message = 'Photos must be at most 15 MB.') =>
  new ApiProblem(413, 'too_large', message)
export const invalidFormat = () =>
  new ApiProblem(415, 'invalid_format', 'Photos must be JPEG or PNG.')

export type SourceType = 'image/jpeg' | 'image/png'

export interface ImageVariant {
  bytes: Uint8Array
  width: number
  height: number
  contentType: 'image/jpeg'
}

export interface ProcessedImage {
  /** What the upload really was, by its magic bytes (not its name or declared type). */
  sourceType: SourceType
  main: ImageVariant
  thumbnail: ImageVariant
}

export interface Size {
  width: number
  height: number
}

interface Recipe {
  main: Size & { fit: 'cover' | 'inside' }
  thumbnail: Size & { fit: 'cover' | 'inside' }
}

/** Spec: "recommended cover image 1200x600px; cover thumbnail 450x150". */
export const RECIPES: Record<MediaTarget, Recipe> = {
  experience_cover: {
    main: { ...coverSize, fit: 'cover' },
    thumbnail: { ...coverThumbnailSize, fit: 'cover' },
  },
  // Profile photos (decision 024): a square centred on the face when the face check chose one.
  avatar: {
    main: { width: 400, height: 400, fit: 'cover' },
    thumbnail: { width: 96, height: 96, fit: 'cover' },
  },
  verification: {
    main: { width: 1600, height: 1600, fit: 'inside' },
    thumbnail: { width: 400, height: 400, fit: 'inside' },
  },
  message: {
    main: { width: 1600, height: 1600, fit: 'inside' },
    thumbnail: { width: 400, height: 400, fit: 'inside' },
  },
}

const JPEG_MAGIC = [0xff, 0xd8, 0xff]
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** The type by the file's first bytes; whatever the client called it does not count. */
export function detectImageType(bytes: Uint8Array): SourceType | null {
  const startsWith = (magic: number[]) =>
    bytes.length >= magic.length && magic.every((byte, i) => bytes[i] === byte)
  if (startsWith(JPEG_MAGIC)) return 'image/jpeg'
  if (startsWith(PNG_MAGIC)) return 'image/png'
  return null
}

/** A part of the upright image, in its pixels. */
export interface Region {
  left: number
  top: number
  width: number
  height: number
}

export interface ProcessOptions {
  /**
   * Looks at the upright, decoded image (of `size`) before anything is written and returns the
   * part to keep (the profile photo's face check, decision 024), or throws its ApiProblem.
   */
  inspect?: (upright: Sharp, size: Size) => Promise<Region | null>
}

/**
 * QUALITY: "type by magic bytes, pixel-count limit before decoding, re-encoded with metadata
 * stripped". Reads only the header to check the pixel count, then decodes once (with libvips'
 * own pixel limit as a second guard), turns the image upright by its EXIF orientation and
 * writes fresh progressive JPEGs without any metadata (no EXIF, GPS, XMP, IPTC or ICC;
 * colours are converted to sRGB). Transparent PNGs are flattened onto white.
 */
export async function processImage(
  bytes: Uint8Array,
  target: MediaTarget,
  options: ProcessOptions = {},
): Promise<ProcessedImage> {
  if (bytes.byteLength > MAX_UPLOAD_BYTES) throw tooLarge()
  const sourceType = detectImageType(bytes)
  if (!sourceType) throw invalidFormat()

  let header: Metadata
  try {
    // Header only: nothing is decoded yet.
    header = await sharp(bytes, { limitInputPixels: false }).metadata()
  } catch {
    throw invalidFormat()
  }
  const expected = sourceType === 'image/jpeg' ? 'jpeg' : 'png'
  if (header.format !== expected || !header.width || !header.height) throw invalidFormat()
  if (header.width * header.height > MAX_INPUT_PIXELS) {
    throw tooLarge(`Photos must be at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels.`)
  }

  const recipe = RECIPES[target]
  const upright = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
    .autoOrient()
    .flatten({ background: '#ffffff' })
  try {
    // EXIF orientations 5 to 8 turn the image a quarter.
    const turned = (header.orientation ?? 1) >= 5
    const size = turned ? { width: header.height, height: header.width } : { width: header.width, height: header.height }
    const region = options.inspect ? await options.inspect(upright.clone(), size) : null
    const source = () => (region ? upright.clone().extract(region) : upright.clone())
    const [main, thumbnail] = await Promise.all([render(source(), recipe.main), render(source(), recipe.thumbnail)])
    return { sourceType, main, thumbnail }
  } catch (error) {
    if (error instanceof ApiProblem) throw error
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw tooLarge()
    // A truncated or corrupt file that only failed once decoding started.
    throw invalidFormat()
  }
}

async function render(pipeline: Sharp, size: Recipe['main']): Promise<ImageVariant> {
  const { data, info } = await pipeline
    .resize(size.width, size.height, {
      fit: size.fit,
      position: 'attention',
      withoutEnlargement: size.fit === 'inside',
    })
    .jpeg({ quality: 82, progressive: true, chromaSubsampling: '4:2:0' })
    .toBuffer({ resolveWithObject: true })
  return {
    bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
    contentType: 'image/jpeg',
  }
}
