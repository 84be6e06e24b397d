/**
 * The business constants of spec §9 and the limits of every form and request body, in one place
 * for the API's schemas and the web's forms alike. Plain numbers: this module ships in browser
 * bundles.
 */

// Members (spec §5, §9) ------------------------------------------------------------------------

/** Spec §5/§9: the minimum age of a member. */
export const minimumAge = 55
/** Spec §5/§9: the birth-year list has 45 years, ending `minimumAge` years before this year. */
export const birthYearCount = 45
/** A first or last name. */
export const maxNameLength = 60
/** A phone number as typed (it is parsed as US and normalised before saving). */
export const maxPhoneLength = 30
/** A member who has not signed in for this many days is welcomed back (decision 020). */
export const longAbsenceDays = 90

// Activities (spec §5, §9) ---------------------------------------------------------------------

export const maxTitleLength = 120
export const maxDescriptionLength = 5000
/** The address line of an in-person activity. */
export const maxAddressLength = 300
/** Links (online activity, tickets). */
export const maxUrlLength = 2000
/**
 * Spec §5: capacity must be greater than 0 (empty means no limit). The spec sets no upper bound;
 * the product's is 1,000 seats, a generous roof for small-group activities (decision 011).
 */
export const maxCapacity = 1000
/**
 * Spec §5: the no-show fee is "numbers only, no symbols, for example 5.00": whole dollars or
 * dollars and cents (one or two decimals), at most $9,999.99 (decision 011).
 */
export const noShowFeePattern = /^\d{1,4}(\.\d{1,2})?$/
/** Spec §5: the start time is picked in 5-minute steps. */
export const startMinuteStep = 5
/** How long an activity lasts, in minutes, when the host says; two hours when not. */
export const minDurationMinutes = 5
export const maxDurationMinutes = 24 * 60
export const defaultDurationMinutes = 120
/** Spec §4/§9: cancelling a seat within 12 hours of the start is late (the no-show fee applies). */
export const lateCancelWindowHours = 12
/** Members added by email at once (spec §7 `create-by-emails`). */
export const maxEmailsPerAdd = 50
/**
 * Addresses one member may invite in a day, across all their activities: any member can host,
 * and an invitation is an email in someone's inbox (scammers target our members).
 */
export const maxInvitationsPerDay = 200
/** An email address (RFC 5321's path limit). */
export const maxEmailLength = 320

// Lists (spec §7, §9) --------------------------------------------------------------------------

/** Paging starts at page 1 (spec §9). */
export const firstPage = 1
export const defaultPerPage = 20
/** The largest page the API serves: a larger `per_page` is read as this. */
export const maxPerPage = 50
/** Spec §9: distance options in miles; "any" is 100. */
export const distanceOptions = ['2', '5', '10', '25', '50', '100'] as const
/** Spec §9: date options of the activity search. */
export const dateOptions = ['any-day', 'today', 'tomorrow', 'this-week', 'next-week'] as const

// Photos (spec §5, §9) -------------------------------------------------------------------------

/** Spec §5/§9: photos under 15 MB. */
export const maxPhotoBytes = 15 * 1024 * 1024
/** Spec §9: recommended cover image 1200x600 px, cover thumbnail 450x150. */
export const coverSize = { width: 1200, height: 600 } as const
export const coverThumbnailSize = { width: 450, height: 150 } as const

// Reports --------------------------------------------------------------------------------------

/** The free-text details of a report. */
export const maxReportDetailsLength = 2000

// Places (spec §5) -----------------------------------------------------------------------------

/** The shortest name the place search looks for. */
export const minPlaceQueryLength = 2
/** The most places one search answers. */
export const maxPlaceResults = 20

/** The longest first-name search on Members kept (longer ones match nobody anyway). */
export const maxMemberSearchLength = 50

// Chat (issue 14 §1, spec §9) ------------------------------------------------------------------

/** The longest message a member can send. */
export const maxMessageLength = 2000
/** Spec §9: messages fetched 5 per channel in the channel list. */
export const messagesPerChannelInList = 5
/** Messages a direct channel's sender may send before the recipient accepts the request. */
export const pendingMessagesBeforeAccept = 2
/** An activity's chat closes for writing this many days after the activity ends (readable after). */
export const chatClosesDaysAfterEnd = 7
/** Messages in one page of an open channel ("load older" asks for the page before). */
export const defaultMessagesPerPage = 30
export const maxMessagesPerPage = 50
/**
 * Messages one member may send (issue 29 §5, decision 066): in all their chats, a minute and an
 * hour; in one chat, a minute. Far above a conversation (a fast typist sends a few a minute), far
 * below a flood (one member once sent 300 at once to 300 members).
 */
export const messagesPerMinute = 30
export const messagesPerHour = 200
export const messagesPerChannelPerMinute = 20

// Scam shield (issue 14 §6, decision 038) ------------------------------------------------------

/** An account is new for this many days: a new (or unverified) member starts few conversations and shares no links first. */
export const newAccountDays = 14
/** New direct conversations a new or unverified member may start in any 24 hours. */
export const newConversationsPerDay = 5

/** The post-activity survey's feedback text (decision 046): a few paragraphs at most. */
export const maxSurveyFeedbackLength = 1000
/** How long after an activity ends its attendees are asked whether they went (decision 046). */
export const surveyWindowDays = 14
