/**
 * What a member can tell others on their profile (issue 13 §1, spec §3 "Profile"): the catalogues
 * of interests and prompts, and the privacy choices. Keys only; their words are translated in
 * `public/locales/{lng}/profile.json` (`interests.<key>`, `interestGroups.<group>`, `prompts.<key>`).
 * Plain arrays, no zod: option lists ship in browser bundles.
 */

/** Interests, grouped, in the order shown. A member picks up to `maxInterests`. */
export const interestGroups = {
  outdoors: ['walking', 'hiking', 'gardening', 'birdwatching', 'fishing', 'cycling'],
  fitness: ['yoga', 'swimming', 'pickleball', 'golf', 'tai_chi', 'dancing'],
  arts: ['painting', 'photography', 'crafts', 'knitting', 'pottery', 'writing'],
  culture: ['live_music', 'singing', 'theatre', 'museums', 'film', 'reading'],
  food: ['cooking', 'baking', 'wine_tasting', 'dining_out', 'coffee'],
  games: ['board_games', 'card_games', 'bridge', 'chess', 'puzzles', 'trivia'],
  learning: ['history', 'languages', 'technology', 'book_club', 'lectures'],
  community: ['volunteering', 'faith', 'grandparenting', 'pets', 'travel', 'genealogy'],
} as const
export type InterestGroup = keyof typeof interestGroups
export type Interest = (typeof interestGroups)[InterestGroup][number]
export const interests: Interest[] = Object.values(interestGroups).flat()
export const interestGroupNames = Object.keys(interestGroups) as InterestGroup[]

/** Prompts a member can answer ("A perfect Sunday for me is…"). A member picks up to `maxProfilePrompts`. */
export const profilePrompts = [
  'perfect_sunday',
  'proudest_of',
  'best_advice',
  'always_up_for',
  'happiest_place',
  'grandkids_say',
  'learning_now',
  'favourite_decade',
  'dream_trip',
  'cant_live_without',
  'small_joy',
  'hidden_talent',
  'first_job',
  'favourite_book',
  'song_takes_me_back',
  'looking_for_friend_who',
  'ask_me_about',
  'best_trip',
  'known_for_recipe',
  'never_too_old',
  'ideal_weekend',
  'community_means',
] as const
export type ProfilePrompt = (typeof profilePrompts)[number]

/**
 * Who sees a member in the "near you" part of Members (issue 13 §3): everyone nearby, only people
 * they have attended activities with, or nobody. Members they have attended with always see them
 * unless they choose nobody.
 */
export const nearbyVisibilities = ['everyone', 'attended', 'nobody'] as const
export type NearbyVisibility = (typeof nearbyVisibilities)[number]

export const maxInterests = 10
export const maxProfilePrompts = 3
export const maxPromptAnswerLength = 300
