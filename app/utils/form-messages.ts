import type { MemberTextMessages } from '#contract/input-validation.ts'

/** The web forms' messages for member text (translation keys in `common`). */
export const memberTextMessages: MemberTextMessages = {
  controlCharacters: 'validation.invalid_characters',
  directionCharacters: 'validation.direction_characters',
}
