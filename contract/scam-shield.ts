/**
 * The scam shield's rules (issue 14 §6, decision 031): which calm warnings the recipient of a
 * message sees, whether a message holds contact details (the sender's one-time reminder) and
 * whether it holds a link (not allowed in a first message from a new or unverified member: the
 * one link detector is `contract/links.ts`, which also decides what a message shows as a link).
 *
 * Pure functions over plain regular expressions, with no dependency, so the API and the web
 * (browser bundles included) share one copy. A signal is advice to the reader and nothing more:
 * these functions keep no state and record nothing, so a signal counts nothing against the
 * sender (issue 14 §6). Moderation acts on reports, never on these patterns alone.
 *
 * Precision over recall for ordinary activity chat: every pattern needs a request, a payment
 * channel or a term that has no everyday meaning ("bring money for the coffee" is not `money`,
 * "meet at the bank" is not `banking_details`). Where one word is both everyday and a scam
 * vehicle (Venmo, "text me", "gift card") the shield warns: a calm, spurious warning costs the
 * reader a glance; a missed one can cost them their savings.
 */

/** The warnings, in the order they are returned and shown. */
export const scamSignalCodes = [
  'money',
  'gift_cards',
  'wire_transfer',
  'crypto',
  'banking_details',
  'off_platform',
  'medicare',
] as const
export type ScamSignal = (typeof scamSignalCodes)[number]

/** Translation keys (namespace `chat`): the recipient's warning and the sender's reminder. */
export const scamWarningKey = 'chat:scamShield.warning'
export const contactReminderKey = 'chat:scamShield.contactReminder'

// Normalisation ---------------------------------------------------------------------------------

const invisible = /[\u00ad\u200b-\u200f\u2060\ufeff]/g
const apostrophes = /[\u2018\u2019\u02bc\u0060\u00b4]/g
const dashes = /[\u2010-\u2015\u2212]/g

/**
 * Lower case, no accents (NFKD, then the combining marks dropped: "prête" → "prete", full-width
 * digits → ASCII), no invisible characters, straight apostrophes and dashes, single spaces.
 */
export function normalizeMessage(text: string) {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(invisible, '')
    .replace(apostrophes, "'")
    .replace(dashes, '-')
    .replace(/\s+/gu, ' ')
    .trim()
    .toLowerCase()
}

/** Digits standing for letters inside a word: "b1tcoin" → "bitcoin", "c4sh" → "cash". */
const leet: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't' }

/**
 * The text the word patterns read: normalised, digits inside words read as letters, and runs of
 * three or more single letters joined ("g i f t card", "w.h.a.t.s.a.p.p" → "gift card",
 * "whatsapp"). Contact details and links are read from the normalised text instead, where
 * digits stay digits.
 */
function canonical(normalized: string) {
  return normalized
    .replace(/(?<=\p{L})[013457]+(?=\p{L})/gu, (digits) =>
      [...digits].map((digit) => leet[digit] ?? digit).join(''),
    )
    .replace(/(?<![\p{L}\d])\p{L}(?:[ .]\p{L}){2,}(?![\p{L}\d])/gu, (run) =>
      run.replace(/[ .]/g, ''),
    )
}

// Contact details -------------------------------------------------------------------------------

/**
 * A run of digits with spaces, dots, dashes or brackets between them. Whether it is a phone
 * number is decided by `isPhoneNumber`, from its digits. (Read with `matchAll`, which copies
 * the expression, so its `g` flag keeps no state between calls.)
 */
const digitRun = /(?<!\w)(?:\+|00)?\(?\d(?:[ .\-()]{0,3}\d){6,16}(?!\d)/g

/**
 * International (+ or 00): 10 to 15 digits. National with a trunk 0 (France, the Netherlands,
 * Belgium): 9 to 11 digits. Otherwise North American: 10 digits, or 11 starting with 1. Shorter
 * runs (times, prices, 8-digit dates) and longer ones (two dates in a row) are not phone numbers.
 */
function isPhoneNumber(run: string) {
  const digits = run.replace(/\D/g, '')
  if (/^(?:\+|00)/.test(run)) return digits.length >= 10 && digits.length <= 15
  if (digits.startsWith('0')) return digits.length >= 9 && digits.length <= 11
  return digits.length === 10 || (digits.length === 11 && digits.startsWith('1'))
}

function hasPhoneNumber(normalized: string) {
  return [...normalized.matchAll(digitRun)].some((match) => isPhoneNumber(match[0]))
}

const emailHosts =
  'gmail|googlemail|yahoo|hotmail|outlook|live|msn|icloud|me|aol|proton|protonmail|gmx|mail|orange|free|sfr|wanadoo|laposte|ziggo|kpnmail|hetnet|planet|home|telenet|skynet'

/** name@host.tld, and the spelled-out "name at gmail dot com" for the common mail hosts. */
const emailPatterns = [
  /[\p{L}\d._%+-]+(?:@| ?[([]at[)\]] ?)(?:[\p{L}\d-]+(?:\.| ?[([]dot[)\]] ?))+\p{L}{2,}/u,
  new RegExp(
    `[\\p{L}\\d._%+-]+ (?:at|arobase|apenstaartje) (?:${emailHosts}) ?(?:\\.|dot|point|punt) ?[a-z]{2,4}\\b`,
    'u',
  ),
]

function hasEmail(normalized: string) {
  return emailPatterns.some((pattern) => pattern.test(normalized))
}

/**
 * Phone number or email address: the sender sees a one-time reminder before sharing them in a
 * first message (issue 14 §6).
 */
export function containsContactDetails(text: string) {
  const normalized = normalizeMessage(text)
  return hasPhoneNumber(normalized) || hasEmail(normalized)
}

// Signals ---------------------------------------------------------------------------------------

/** Up to `n` words between two parts of a pattern. */
const gap = (n: number) => `(?:[\\w'-]+ ){0,${n}}`
const re = (source: string) => new RegExp(source, 'u')

/**
 * Money itself, or an amount of two digits or more, in the three languages. A single digit
 * ("lend me 2 euros for the parking meter") is the small change of group outings, not a scam's.
 */
const amount = '\\d[,.]?\\d[\\d,.]*'
const sum = `(?:money|cash|funds|[$€£] ?${amount}|${amount}(?: ?k)? ?(?:[$€£]|dollars?|bucks|usd|euros?|eur|pounds?|gbp)|(?:de l'|l'|d')?argent|des sous|du fric|geld|euro's)`

/**
 * The patterns of each signal. Each is tested on the canonical text (see `canonical`): lower
 * case, no accents, single spaces, apostrophes straightened. To extend: add a pattern to the
 * signal's list and a realistic message to contract/scam-shield.test.ts (decision 031).
 */
const patterns: Record<ScamSignal, readonly RegExp[]> = {
  money: [
    // en: a request to send, lend or transfer, and money or an amount.
    // Not "I will send you the money I owe": the sender offering to pay is no warning.
    re(`\\b(?:send|wire|transfer|lend|loan) (?!you\\b|u\\b)(?:me |us |him |her )?${gap(3)}${sum}`),
    re(
      `\\b(?:spare|forward) (?:me|us) ${gap(2)}${sum}|\\bhelp (?:me|us) (?:out )?with ${gap(1)}${sum}`,
    ),
    // "need" of the writer ("I need", "and need"), not of a group ("we need", "you'll need",
    // "no need to bring money").
    re(
      `(?<!\\b(?:we|you|u|they|we'll|you'll|they'll|everyone|everybody|anyone|anybody|no) (?:all |just |only |will |also |might |may )?)\\bneed ${gap(3)}${sum}`,
    ),
    re(`\\bneed (?:you|your help) to (?:send|pay|wire|transfer|cover|lend)\\b`),
    // Not "bring some cash for the market".
    re(`\\bborrow (?:some )?(?:money|cash)\\b`),
    // Not "lend me your umbrella" nor "a loan of the neighbour's ladder".
    re(
      `\\b(?:small|quick|short[- ]term|personal|emergency) loan\\b|\\b(?:need|want|get|give me|ask you for|for) a loan\\b|\\b(?:lend|loan) (?:me|us) (?:\\d|some money|a few (?:hundred|thousand))`,
    ),
    re(
      `\\b(?:bail|ransom|processing|release|customs|clearance|handling|inheritance|lawyer'?s?|legal|hospital|medical|surgery) (?:money|fees?|bills?)\\b|\\bbail bond\\b|\\bpost bail\\b`,
    ),
    // Not "pay for the tickets": activity chat splits costs all the time.
    re(
      `\\b(?:pay|cover) (?:for )?(?:his|her|my|the) (?:bail|ransom|hospital bills?|lawyer|visa|surgery)\\b|\\b(?:pay|cover|help (?:me )?(?:with|pay)) (?:for )?(?:my|his|her) (?:flight|plane ticket|rent|visa|bills|medical|surgery|hospital)\\b`,
    ),
    re(
      `\\bpay (?:the |a )?(?:delivery|release|clearance|customs|processing|handling|transfer) (?:fees?|charges?|costs?)\\b`,
    ),
    // fr: envoie-moi de l'argent, prête-moi 200 €, j'ai besoin d'argent, un prêt, les frais.
    re(
      // Not "je t'envoie 10 euros pour ma part": the sender offering to pay is no warning.
      `(?<!\\bje (?:t'|te |vous |lui )|\\bj')\\b(?:envoie|envoies|envoyez|envoyer|prete|pretes|pretez|preter|avance|avancez|vire|virez|virer|transfere|transferez|transferer)(?:[- ](?:moi|nous|lui))? ${gap(3)}${sum}`,
    ),
    re(
      `\\bj'ai ${gap(2)}besoin (?:urgent )?(?:d'|de |de l')${gap(2)}${sum}|\\bbesoin (?:urgent )?d'argent\\b`,
    ),
    re(`\\b(?:un|petit|le) pret\\b(?![- ]a\\b)|\\bil (?:me|nous) faut ${gap(2)}${sum}`),
    re(
      `\\bfrais (?:de |d')(?:dossier|douane|transfert|avocat|liberation|hopital|hospitalisation|deblocage|notaire)\\b|\\bregle[rz]? (?:les )?frais\\b`,
    ),
    re(
      `\\baider a payer\\b|\\bpayer (?:mon|son|sa|ma) (?:billet d'avion|loyer|visa|hopital|operation)\\b`,
    ),
    re(`\\b(?:payer|paie|payez) (?:la |sa |ma )?caution\\b`),
    // nl: stuur me geld, kun je me 500 euro lenen, ik heb geld nodig, een lening, de kosten.
    // Not "ik stuur je het geld voor de bus": the sender offering to pay.
    re(
      `(?<!\\bik )\\b(?:stuur|stuurt|sturen|leen|leent|lenen|overmaken)(?: me| mij| ons)? ${gap(3)}${sum}`,
    ),
    re(
      `${sum} ${gap(2)}(?:lenen|sturen|opsturen|toesturen|overmaken|over (?:te )?maken|voorschieten)\\b|\\bmaak (?:me |mij )?${sum} ${gap(3)}over\\b`,
    ),
    re(
      `\\bgeld ${gap(1)}nodig\\b|\\bnodig ${gap(2)}geld\\b|\\bik heb ${gap(2)}${amount} ?(?:euro|€) ${gap(1)}nodig\\b`,
    ),
    re(`\\blening\\b|\\bborgtocht\\b`),
    re(`\\bhelpen met (?:de|mijn) (?:huur|rekening|rekeningen|vliegticket)\\b`),
    re(`\\b(?:administratie|douane|transactie|advocaat|advocaten|ziekenhuis|vrijgave)kosten\\b`),
  ],
  gift_cards: [
    re(`\\bgift ?cards?\\b|\\bgift ?codes?\\b`),
    re(
      `\\b(?:itunes|apple|google ?play|steam|amazon|ebay|razer ?gold|vanilla|walmart|target|sephora|xbox|playstation|psn) (?:gift )?(?:cards?|codes?|vouchers?)\\b`,
    ),
    re(
      `\\bscratch (?:off )?the (?:back|silver|strip|panel|card)\\b|\\b(?:picture|photo|pic) of the (?:back of the )?(?:card|codes?)\\b`,
    ),
    re(`\\bcodes? on the back\\b|\\bpaysafe ?card\\b`),
    re(
      `\\bcartes? (?:cadeaux?|itunes|google ?play|steam|amazon|prepayees?|pcs|transcash|neosurf)\\b`,
    ),
    re(
      `\\b(?:coupons?|recharges?|tickets?) (?:pcs|transcash|neosurf|paysafe)\\b|\\bgratte[rz]? (?:le|au) dos\\b`,
    ),
    re(`\\bcadeau ?(?:kaart|kaarten|kaartje|bon|bonnen|code|codes)\\b`),
    re(
      `\\b(?:itunes|google ?play|steam|amazon|apple)[- ]?(?:kaart|kaarten|kaartje|tegoed|bon|bonnen)\\b`,
    ),
    re(`\\bkras (?:de|het) (?:achterkant|code)\\b`),
  ],
  wire_transfer: [
    re(`\\bwestern ?union\\b|\\bmoney ?gram\\b|\\bremitly\\b|\\bworld ?remit\\b|\\bria money\\b`),
    re(
      `\\bwire (?:transfer|the money|the funds|money|funds|it|me|us|[$€£]|\\d)|\\bwired? transfer\\b`,
    ),
    re(`\\b(?:bank|money|international|swift) transfer\\b`),
    re(`\\bzelle\\b|\\bvenmo\\b|\\bcash ?app\\b`),
    re(
      `\\bpaypal (?:f ?& ?f|ff|friends|me)\\b|\\bpaypal\\.me\\b|\\bas (?:a )?friends (?:and|&) family\\b`,
    ),
    re(`\\bvirement\\b|\\bmandat (?:cash|postal|compte)\\b`),
    re(
      `\\boverschrijving\\b|\\boverschrijven\\b|\\boverboeken\\b|\\bovermaken\\b|\\bover (?:te )?maken\\b`,
    ),
    // "maak het geld over", not "maak je geen zorgen over het geld".
    re(`\\bmaak (?:het|het geld|het bedrag|\\d[\\d.,]* ?(?:euro|€)|€ ?\\d+) ${gap(3)}over\\b`),
  ],
  crypto: [
    re(
      `\\bbitcoins?\\b|\\bbtc\\b|\\busdt\\b|\\btether\\b|\\bethereum\\b|\\bbinance\\b|\\bcoinbase\\b|\\bblockchain\\b|\\bdogecoin\\b`,
    ),
    re(`\\bcrypto(?!gram)\\w*`),
    re(
      `\\b(?:bitcoin|crypto|digital|usdt) (?:wallet|atm)\\b|\\bwallet address\\b|\\bseed phrase\\b`,
    ),
    re(`\\b(?:investment|trading|mining) (?:platform|opportunity|account|app)\\b|\\bforex\\b`),
    // "30% a week": no honest investment pays by the week or the day.
    re(
      `\\b\\d+ ?% (?:a|per|each|every|par|chaque|elke|iedere) (?:day|week|month|jour|semaine|mois|dag|maand)\\b`,
    ),
    // "I made $40,000 trading with my mentor": the pitch, before any coin is named.
    re(
      `\\b(?:made|earned|earn|make) [$€£]?\\d[\\d,.]* ?(?:k|[$€£]|dollars|euros?)? ?(?:trading|investing)\\b|\\b(?:trading|investing) with my (?:mentor|uncle|aunt|teacher|friend)\\b`,
    ),
    re(
      `\\bguaranteed (?:returns?|profits?|income|gains?)\\b|\\b(?:double|triple) your (?:money|investment|savings)\\b`,
    ),
    re(
      `\\bplateforme (?:d'investissement|de trading|de placement)\\b|\\b(?:rendements?|profits?|gains?|benefices?) garantis?\\b|\\bplacement garanti\\b`,
    ),
    re(
      `\\b(?:beleggings|investerings|handels|trading)platform\\b|\\bgegarandeerde? (?:rendement|rendementen|winst|opbrengst)\\b`,
    ),
  ],
  banking_details: [
    re(
      `\\b(?:bank|checking|savings) (?:account )?(?:number|details|info|information|login|password|username)\\b`,
    ),
    re(`\\b(?:your|ur|my) bank (?:account|card|details|login)\\b|\\baccount (?:number|details)\\b`),
    re(`\\brouting (?:number|#)\\b|\\bsort code\\b|\\biban\\b|\\bswift code\\b`),
    // Not "security code" alone: that is also the code of a building's door.
    re(
      `\\b(?:credit |debit |bank )?card (?:number|details|info|#)\\b|\\bcvv\\b|\\bcvc\\b|\\bcard security code\\b|\\bsecurity code (?:on|of) (?:the|your) card\\b`,
    ),
    // Not "pin number 7 at the bowling alley" nor "I'll pin the map".
    re(`\\bpin ?code\\b|\\b(?:your|ur) pin\\b|\\bcode pin\\b`),
    re(`\\bssn\\b|\\bsocial security (?:number|#|card)\\b`),
    re(
      `\\bverify your (?:account|identity|bank|card|details)\\b|\\b(?:one[- ]time|verification) (?:code|password)\\b`,
    ),
    re(`\\bcode (?:you|that) (?:just )?(?:got|received)\\b`),
    // fr
    re(
      `\\b(?:numero|coordonnees|details) (?:de |du |de la )?(?:ton |votre |ta )?(?:compte|carte)\\b|\\b(?:ton|votre|mon) rib\\b`,
    ),
    re(
      `\\bcode (?:secret|confidentiel)\\b|\\bcryptogramme\\b|\\bnumero de securite sociale\\b|\\bcarte vitale\\b`,
    ),
    re(
      `\\b(?:verifier|verifiez|verifie|confirmer|confirmez|confirme) (?:votre|ton) (?:compte|identite)\\b|\\bidentifiants? bancaires?\\b|\\bcode (?:recu|de verification)\\b`,
    ),
    // nl
    re(
      `\\brekeningnummer\\b|\\bbankrekening\\b|\\b(?:creditcard|kaart)nummer\\b|\\bbeveiligingscode\\b|\\b(?:je|jouw|uw) pinpas\\b`,
    ),
    // Remote access to the computer is access to the bank: the tech-support scam.
    re(
      `\\banydesk\\b|\\bteam ?viewer\\b|\\bremote access\\b|\\bquick ?support\\b|\\bultraviewer\\b`,
    ),
    re(`\\bbsn\\b|\\bburgerservicenummer\\b|\\bdigid\\b|\\binloggegevens\\b|\\bverificatiecode\\b`),
    re(`\\b(?:verifieer|bevestig) (?:je|jouw|uw) (?:account|rekening|identiteit)\\b`),
  ],
  off_platform: [
    re(
      `\\bwhats ?app\\b|\\btelegram\\b|\\bwechat\\b|\\bkik\\b|\\bviber\\b|\\bskype\\b|\\bsnapchat\\b|\\bwa\\.me\\b|\\bt\\.me\\/`,
    ),
    re(
      `\\bgoogle (?:hangouts?|chat)\\b|\\bon hangouts?\\b|\\bsignal (?:app|messenger)\\b|\\bon signal\\b|\\bline (?:app|id)\\b`,
    ),
    re(
      `\\b(?:add|message|text|contact|find|dm|follow) me on (?:line|signal|instagram|insta|facebook|fb|messenger)\\b`,
    ),
    re(
      `\\btext me\\b|\\bsms me\\b|\\bcall me (?:at|on)\\b|\\bgive me a (?:call|ring)\\b|\\bphone me\\b|\\be-?mail me\\b`,
    ),
    // Asking for or giving a number or address, not "thanks for your email" or "my phone died".
    re(
      `\\b(?:my|here'?s my|this is my) (?:personal |private )?(?:phone |cell |mobile |whatsapp )?(?:number|email|e-mail|email address)(?: is|:)(?! (?:on|in|at|the|a|not|still|listed|broken|down|full|dead|wrong)\\b)`,
    ),
    re(
      `\\b(?:what'?s|what is|give me|send me|share|can i (?:have|get)) your (?:personal |private )?(?:phone |cell |mobile |whatsapp )?(?:number|email|e-mail|email address)\\b`,
    ),
    re(
      `\\b(?:my|your|ur) (?:personal |private )?(?:phone|cell|mobile|whatsapp) (?:number\\b|#|no\\.)`,
    ),
    re(
      `\\b(?:somewhere|someplace|some place) (?:more )?private\\b|\\b(?:talk|chat|speak) (?:in )?private(?:ly)?\\b|\\boff (?:this|the) (?:app|site|platform)\\b`,
    ),
    // fr
    re(
      `\\b(?:appelle|appelez)[- ]moi (?:au|sur)\\b|\\b(?:envoie|envoyez|ecris|ecrivez)[- ]moi (?:un )?(?:sms|texto|mail|e-?mail|courriel)\\b`,
    ),
    re(
      `\\b(?:voici|c'est) mon (?:numero|portable|mail|e-?mail|adresse (?:e-?)?mail)\\b|\\bmon (?:numero|mail|e-?mail)(?: est| ?:)(?! (?:en|dans|sur|pas|toujours|arrive|bloque|le|la)\\b)`,
    ),
    re(
      `\\b(?:donne|donnez|envoie|envoyez)[- ]moi (?:ton|votre) (?:numero|portable|mail|e-?mail|adresse)\\b|\\b(?:quel est|c'est quoi) (?:ton|votre) (?:numero|mail|e-?mail)\\b|\\b(?:ton|votre|mon) numero de (?:telephone|portable|whatsapp)\\b`,
    ),
    re(
      `\\ben prive\\b|\\b(?:endroit|lieu) (?:plus )?(?:prive|discret)\\b|\\bailleurs que (?:sur |ici)`,
    ),
    // nl
    re(
      `\\bbel (?:me|mij) (?:even )?(?:op|via)\\b|\\b(?:sms|app) (?:me|mij)\\b|\\bstuur (?:me|mij) een (?:sms|appje|mail|e-?mail)\\b`,
    ),
    re(
      `\\b(?:mijn|je|jouw|uw) (?:telefoonnummer|mobiele nummer|06-?nummer|e-?mailadres|mailadres)\\b|\\b(?:mijn|hier is mijn) (?:nummer|06|mail)(?: is| ?:)(?! (?:niet|nog|kapot|leeg|vol|op|in|de|het)\\b)`,
    ),
    re(
      `\\bwat is (?:je|jouw|uw) (?:nummer|mail)\\b|\\bgeef (?:me|mij) (?:je|jouw|uw) (?:nummer|mail)\\b`,
    ),
    re(
      // Not "laten we ergens anders koffie drinken, het is hier vol".
      `\\bergens (?:anders|prive) (?:praten|chatten|verder)\\b|\\bverder (?:praten|chatten) (?:via|op)\\b|\\bprive (?:chatten|praten|gesprek)\\b|\\bonder vier ogen\\b`,
    ),
  ],
  // Someone claiming to be Medicare, or asking for a Medicare number (issue 33 §2, decision 086):
  // scammers call themselves "Medicare advisors" and offer a "new Medicare card" to get the number.
  // Not "I'm on Medicare", "signed up for Medicare Part B" nor "my new Medicare card came".
  medicare: [
    re(
      `\\b(?:this is|we are|we're|i'm|i am) (?:calling |writing |contacting you |reaching out )?(?:from |on behalf of )?(?:the )?medicare\\b(?! (?:advantage|part|supplement|plans?|drug|card|coverage|too|now|since)\\b)`,
    ),
    re(`\\b(?:calling|writing|contacting you|reaching out|a message) (?:from|on behalf of) (?:the )?medicare\\b`),
    re(
      `\\bmedicare (?:advis[oe]rs?|representatives?|officials?|enrol?lment (?:center|centre|office|team|department)|benefits? (?:center|centre|department|office|team)|department|administration)\\b`,
    ),
    re(
      `\\b(?:get|send|issue|mail|ship|qualify for|eligible for|order|claim|activate) (?:you )?(?:a |your |the )?(?:(?:new|free|replacement) )+medicare cards?\\b|\\bnew medicare card with\\b`,
    ),
    re(`\\bmedicare (?:number|id|#|card number|beneficiary (?:number|identifier))\\b|\\bmbi number\\b`),
    re(
      `\\b(?:read|give|tell|send|confirm|verify|need|photo of|picture of|copy of) (?:me )?(?:the (?:numbers? (?:on|from) )?)?(?:your|ur) (?:red,? white,? (?:and|&) blue )?medicare card\\b|\\bnumbers? (?:on|from) (?:the (?:back|front) of )?(?:your|ur) medicare card\\b`,
    ),
    // fr
    re(
      `\\b(?:ici|de la part de|au nom de|je vous appelle de(?: la part de)?) (?:l'|le |la )?(?:medicare|assurance maladie|ameli)\\b`,
    ),
    re(`\\bnumero (?:medicare|d'assure)\\b|\\b(?:conseiller|conseillere|agent|representant) (?:de )?medicare\\b|\\bnouvelle carte medicare\\b`),
    // nl
    re(
      `\\b(?:hier is|wij zijn|ik bel namens|namens|ik bel (?:u )?(?:van|vanuit)) (?:de |uw )?(?:medicare|zorgverzekeraar)\\b`,
    ),
    re(`\\bmedicare-?nummer\\b|\\bmedicare-?(?:adviseurs?|medewerkers?|vertegenwoordigers?)\\b|\\bnieuwe (?:medicare-?(?:pas|kaart)|zorgpas)\\b`),
  ],
}

/**
 * The warnings the recipient of `text` should see, in `scamSignalCodes` order, each at most
 * once. Contact details (a phone number, an email address) are `off_platform`.
 */
export function scamSignals(text: string): ScamSignal[] {
  const normalized = normalizeMessage(text)
  const words = canonical(normalized)
  return scamSignalCodes.filter((signal) => {
    if (signal === 'off_platform' && (hasPhoneNumber(normalized) || hasEmail(normalized)))
      return true
    return patterns[signal].some((pattern) => pattern.test(words))
  })
}
