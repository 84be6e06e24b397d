import { describe, expect, it } from 'vitest'
import { ApiProblem } from '../http/errors.ts'
import type { FoundFace, PhotoFindings } from './photo-check.ts'
import { judgeProfilePhoto, squareAroundFace } from './profile-photo.ts'

const face = (x: number, y: number, width: number, score = 0.9): FoundFace => ({ score, x, y, width, height: width * 1.2 })
const neutral = { Neutral: 0.9, Drawing: 0.02, Sexy: 0.05, Porn: 0.02, Hentai: 0.01 }
const findings = (faces: FoundFace[], content: Record<string, number> = neutral): PhotoFindings => ({ width: 800, height: 600, faces, content })

function codeOf(run: () => unknown) {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(ApiProblem)
    return (error as ApiProblem).code
  }
  return null
}

describe('judgeProfilePhoto (spec §5: exactly one face, appropriate content)', () => {
  it('takes the one face', () => {
    const one = face(300, 200, 120)
    expect(judgeProfilePhoto(findings([one]))).toBe(one)
  })

  it('does not count a small face far behind the member', () => {
    expect(judgeProfilePhoto(findings([face(300, 200, 200), face(700, 50, 40)])).width).toBe(200)
  })

  it('refuses no face, and two faces of about the same size', () => {
    expect(codeOf(() => judgeProfilePhoto(findings([])))).toBe('no_face')
    expect(codeOf(() => judgeProfilePhoto(findings([face(100, 200, 120), face(500, 200, 100)])))).toBe('multiple_faces')
  })

  it('refuses explicit content, but not a photo scored "sexy" (evening wear, swimwear)', () => {
    const one = [face(300, 200, 120)]
    expect(codeOf(() => judgeProfilePhoto(findings(one, { ...neutral, Neutral: 0.1, Porn: 0.5, Hentai: 0.25 })))).toBe('inappropriate_content')
    expect(codeOf(() => judgeProfilePhoto(findings([], { ...neutral, Neutral: 0.1, Porn: 0.85 })))).toBe('inappropriate_content')
    expect(codeOf(() => judgeProfilePhoto(findings(one, { ...neutral, Neutral: 0.05, Sexy: 0.85, Porn: 0.1 })))).toBeNull()
  })
})

describe('squareAroundFace', () => {
  it('centres a square of 2.5 face sizes on the face, in the full photo’s pixels', () => {
    // Found at 800 px wide in a 4000×3000 photo: five times larger.
    const region = squareAroundFace(face(380, 250, 40), { width: 800 }, { width: 4000, height: 3000 })
    // Face centre (400, 274) × 5 = (2000, 1370); side 48 × 5 × 2.5 = 600.
    expect(region).toEqual({ left: 1700, top: 1070, width: 600, height: 600 })
  })

  it('moves the square inside the photo rather than cutting it', () => {
    expect(squareAroundFace(face(0, 0, 100), { width: 800 }, { width: 800, height: 600 })).toEqual({ left: 0, top: 0, width: 300, height: 300 })
    expect(squareAroundFace(face(750, 550, 50), { width: 800 }, { width: 800, height: 600 })).toMatchObject({ left: 650, top: 450, width: 150 })
  })

  it('is at most the shorter side for a face that fills the photo', () => {
    expect(squareAroundFace(face(100, 50, 500), { width: 800 }, { width: 800, height: 600 })).toEqual({ left: 50, top: 0, width: 600, height: 600 })
  })
})
