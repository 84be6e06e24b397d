import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  containsContactDetails,
  contactReminderKey,
  normalizeMessage,
  scamSignalCodes,
  scamSignals,
  scamWarningKey,
  type ScamSignal,
} from './scam-shield.ts'
import { containsLink } from './links.ts'

type Case = readonly [message: string, signals: readonly ScamSignal[]]

/** Messages of the kind scammers send, with exactly the warnings the recipient should see. */
const scams: readonly Case[] = [
  // English: romance scams
  [
    "I've never felt this way about anyone. I'm stuck on the oil rig and my account is frozen, could you send me $2,500 so I can fly home to you?",
    ['money'],
  ],
  [
    'My darling, the customs fee for my package is $1,800. I will pay you back as soon as I land.',
    ['money'],
  ],
  ['Please can you lend me 500 dollars until Friday? I am so embarrassed to ask.', ['money']],
  [
    'I need you to send it through Western Union, my bank here does not work.',
    ['money', 'wire_transfer'],
  ],
  [
    'Could you wire the money to my agent? Here is the routing number and account number.',
    ['money', 'wire_transfer', 'banking_details'],
  ],
  ['Dearest, the hospital bills are piling up and I need money for the surgery.', ['money']],
  // English: fake emergencies
  ["Grandma it's me, I'm in jail and I need bail money. Please don't tell Mom.", ['money']],
  ['My grandson is in jail, I need bail money. Can you help me with $3,000?', ['money']],
  [
    'This is his lawyer. The bail bond is $4,500, pay by Zelle or Venmo today.',
    ['money', 'wire_transfer'],
  ],
  // English: gift cards
  [
    'Go to Walmart and buy 5 Apple gift cards of $200 each, then scratch the back and send me a photo of the codes.',
    ['gift_cards'],
  ],
  ['Can you get me some Google Play cards? My nephew needs them.', ['gift_cards']],
  ['I only accept Steam cards or Amazon gift cards for the puppy.', ['gift_cards']],
  ['Buy an iTunes card and text me the code on the back.', ['gift_cards', 'off_platform']],
  ['g i f t   c a r d s please, $500', ['gift_cards']],
  // English: investments and crypto
  [
    'My uncle showed me an investment platform with guaranteed returns of 20% a month. I can help you open an account.',
    ['crypto'],
  ],
  ['Put 1,000 USDT in my crypto wallet and I will double your money in a week.', ['crypto']],
  ['Have you heard of b1tcoin? I can teach you how to trade on Binance.', ['crypto']],
  [
    "Transfer the money to this Bitcoin ATM and you'll see the profit tomorrow.",
    ['money', 'crypto'],
  ],
  // English: banking details
  [
    'Your account will be closed. Verify your account by sending your card number and PIN code.',
    ['banking_details'],
  ],
  [
    'To get your grant I need your Medicare number and Social Security number.',
    ['banking_details', 'medicare'],
  ],
  // Someone claiming to be Medicare, or asking for a Medicare number (decision 086).
  ['Hello, this is Medicare calling about your benefits.', ['medicare']],
  ["I'm calling from Medicare: please confirm your Medicare number so we can mail your card.", ['medicare']],
  ['You qualify for a new Medicare card with dental, vision and hearing. Read me the number on your Medicare card.', ['medicare']],
  ['Your Medicare advisor here, what is your Medicare ID?', ['medicare']],
  ['We are from the Medicare enrollment center and need a photo of your Medicare card.', ['medicare']],
  // "Donnez-moi votre numéro" asks for a number too.
  ['Bonjour, ici Medicare. Donnez-moi votre numéro Medicare pour recevoir votre nouvelle carte.', ['off_platform', 'medicare']],
  ["Je vous appelle de la part de l'Assurance maladie, votre conseiller Medicare.", ['medicare']],
  ['Goedendag, hier is Medicare. Wat is uw Medicare-nummer?', ['medicare']],
  ['Ik bel namens uw zorgverzekeraar: u krijgt een nieuwe zorgpas.', ['medicare']],
  [
    'I sent you a 6-digit code by mistake, can you tell me the code you just received?',
    ['banking_details'],
  ],
  // English: off the platform
  ['add me on WhatsApp +1 503 555 0142', ['off_platform']],
  ["I don't come on here often, text me at (503) 555-0142.", ['off_platform']],
  ["Let's talk somewhere private, I'm on Telegram.", ['off_platform']],
  ['You are so beautiful. Email me at david.miller1960@gmail.com', ['off_platform']],
  ["Find me on Hangouts or Signal, it's safer: david miller at yahoo dot com", ['off_platform']],
  ["What's your phone number? This app keeps logging me out.", ['off_platform']],
  ['W.h.a.t.s.A.p.p me: 503.555.0142', ['off_platform']],
  // French
  ["Mon amour, envoie-moi de l'argent pour le billet d'avion, je te rembourserai.", ['money']],
  ["J'ai vraiment besoin de 800 € pour l'hôpital, tu peux me les prêter ?", ['money']],
  ['Achète des cartes cadeaux Google Play et envoie-moi les codes, gratte le dos.', ['gift_cards']],
  ['Tu peux acheter des coupons PCS au tabac ? Mon compte est bloqué.', ['gift_cards']],
  ['Fais un virement sur mon compte, je te donne mon RIB.', ['wire_transfer', 'banking_details']],
  ['Envoyez-le par Western Union ou MoneyGram.', ['wire_transfer']],
  ['Je connais une plateforme de trading en crypto avec des rendements garantis.', ['crypto']],
  [
    'Votre compte sera suspendu : confirmez votre identité avec le numéro de votre carte et le cryptogramme.',
    ['banking_details'],
  ],
  ['Ajoute-moi sur WhatsApp, mon numéro est le 06 12 34 56 78.', ['off_platform']],
  ['Appelle-moi au +33 6 12 34 56 78, parlons en privé.', ['off_platform']],
  ['Les frais de douane pour ton colis sont de 450 €.', ['money']],
  // Dutch
  ['Schat, stuur me geld voor het vliegticket, ik betaal het terug.', ['money']],
  ['Kun je me 500 euro lenen? Mijn rekening is geblokkeerd.', ['money']],
  ['Koop een paar cadeaukaarten van Google Play en stuur me de codes.', ['gift_cards']],
  [
    'Maak het geld over via een overschrijving naar dit rekeningnummer.',
    ['wire_transfer', 'banking_details'],
  ],
  ['Mijn kleinzoon zit vast in het buitenland en ik heb dringend geld nodig.', ['money']],
  ['Via dit beleggingsplatform krijgt u gegarandeerd rendement met bitcoin.', ['crypto']],
  ['Bevestig uw rekening met uw pincode en uw BSN.', ['banking_details']],
  ['Bel me op 06-12345678 of app me op WhatsApp.', ['off_platform']],
  ['Laten we ergens anders praten, mijn e-mailadres is jan.devries@ziggo.nl', ['off_platform']],
  ['Stuur 300 euro via Western Union, dan krijgt u uw prijs.', ['money', 'wire_transfer']],
  ['Ik zit vast op het vliegveld, kun je 750 euro overmaken?', ['money', 'wire_transfer']],
  ['Koop een paysafecard van 100 euro en stuur de code.', ['gift_cards']],
  ['Kunt u mij geld voorschieten voor de advocaatkosten?', ['money']],
  // More English and French
  ['Can you loan me 300 till my pension comes?', ['money']],
  ['You have won a prize! Pay the processing fee of $99 to claim it.', ['money']],
  [
    'Send the money via PayPal friends and family so there are no fees.',
    ['money', 'wire_transfer'],
  ],
  ["I made $40,000 trading with my mentor, I'll show you the app.", ['crypto']],
  [
    "I'm a US Army doctor, let's continue on Google Chat, my email is jmiller.army@outlook.com",
    ['off_platform'],
  ],
  ["Mon fils a eu un accident, il me faut de l'argent tout de suite pour l'hôpital.", ['money']],
  ['Achète des recharges Transcash et envoie-moi les codes.', ['gift_cards']],
  ['Donne-moi ton numéro, on parlera sur Telegram.', ['off_platform']],
  ['My number is five oh three, five five five, zero one four two.', ['off_platform']],
  [
    "Grandpa, please don't tell anyone, I crashed the car and need $2,000 for the lawyer.",
    ['money'],
  ],
  [
    "I'm deployed overseas and my bank won't let me withdraw. Can you cover my flight home?",
    ['money'],
  ],
  ["I'm sending you a package with gold, you just need to pay the delivery charge.", ['money']],
  [
    'Microsoft support here, your computer has a virus. Install AnyDesk so I can fix it.',
    ['banking_details'],
  ],
  ['Put your savings in this app, I make 30% a week.', ['crypto']],
  ["Let's take this off the app, my Gmail is sweetheart1960", ['off_platform']],
  ['Kun je wat geld opsturen? Ik zit in de problemen.', ['money']],
  ['Je bent zo lief. Kan je me helpen met de huur deze maand?', ['money']],
  ["Mon chéri, peux-tu m'aider à payer mon billet d'avion ?", ['money']],
  ['Envoyez 500 € en coupons Neosurf.', ['money', 'gift_cards']],
]

/** Ordinary activity chat: no warning at all. */
const ordinary: readonly string[] = [
  "I'll bring money for the coffee.",
  "Let's meet at the bank on Main St at 10.",
  'The gift shop at the museum closes at 5pm.',
  "Who's up for the card game on Thursday?",
  'I sent the photos to everyone this morning.',
  'Parking is $5 at the lot behind the library, pay at the machine.',
  'Can you pay for the tickets? I will pay you back at the door.',
  'We need 2 dollars each for the coffee kitty.',
  'The entrance fee is 8 euros, cash or card at the desk.',
  'Please call me Bob, everyone does!',
  'I pinned the location of the café on the map.',
  'The signal at the crossing is broken, be careful on Elm Road.',
  'Our crossword and cryptogram club meets at the library at 2.',
  'Is the prime rib good at that restaurant?',
  'The line for the ferry was long but worth it.',
  'Thanks for your email about the picnic, I will bring the salad.',
  'My phone died, sorry I missed the walk. Same time next week?',
  'The walk starts at 9:30 on 24.11.2026, we meet by the fountain.',
  'Doors open 18.30 - 22.00, the concert starts at 19.00.',
  'Friends and family are welcome at the garden party.',
  'I had a bank holiday weekend with my grandchildren, lovely!',
  'My grandson helped me set up this app, he says hello.',
  "J'apporte des gâteaux pour le café de samedi.",
  'On se retrouve devant la banque, place de la Mairie, à 14h.',
  'Qui vient au tournoi de cartes jeudi ?',
  "Merci pour la balade, j'ai envoyé les photos à tout le monde.",
  'Je suis prête, je pars dans dix minutes.',
  'Merci pour ton mail, je serai là à 10h30.',
  'Ik neem geld mee voor de koffie.',
  'We spreken af bij de bank op de Markt om 10 uur.',
  'De cadeauwinkel bij het museum is erg leuk.',
  'Wie doet er mee met het kaartspel donderdag?',
  "Ik heb de foto's gisteren gestuurd.",
  'De wandeling is van 09.30-11.30 bij de kerk.',
  'We hebben 2 euro nodig per persoon voor de koffie.',
  'Can someone send me the address of the restaurant?',
  "I'll transfer to the 10:15 bus, it's faster.",
  'I will send you the money I owe for lunch.',
  "I have a loan of my neighbour's ladder.",
  'Lend me your umbrella? It is pouring.',
  'Pin number 7 at the bowling alley is broken.',
  'Bring your Medicare card to the health fair.',
  'I just turned 65 and signed up for Medicare Part B.',
  "I'm on Medicare now, so the dentist is cheaper.",
  'My new Medicare card came in the mail today.',
  'Is anyone going to the talk about Medicare plans at the library?',
  'This is Medicare Advantage country, every ad is about it.',
  'Je suis passée à Medicare le mois dernier.',
  "C'est l'Assurance maladie qui rembourse les lunettes.",
  'Ik heb sinds kort Medicare, de tandarts is goedkoper.',
  'My number is on the sign-up sheet.',
  'Call me when you get there.',
  'Please bring a spare pair of socks; we will need cash for the bus.',
  'Envoie-moi un message quand tu arrives.',
  'On a besoin de 3 euros chacun pour le café.',
  'Mon numéro de table est 12.',
  'Appelle-moi quand tu arrives, je serai à l’entrée.',
  "Stuur me even de foto's van de wandeling.",
  'Ik maak koffie, neem geld mee voor de taart.',
  'Maak je geen zorgen over het geld, ik betaal.',
  'Bel me als je er bent.',
  'Ik heb je mail gelezen, tot zaterdag.',
  "Je t'envoie 10 euros pour ma part du repas.",
  "J'ai oublié mon porte-monnaie, quelqu'un peut me prêter 2 euros pour le parking ?",
  'Rendez-vous au 12 rue de la Paix, code porte 4521B.',
  'Tu as reçu mon mail pour samedi ?',
  'Wie kan me 2 euro lenen voor de parkeermeter?',
  'De code van de deur is 4521.',
  'Ik heb het geld voor de bus al overgemaakt aan Anja.',
  'I can lend you my book about birds.',
  "I'll wire the lamp myself, no need for an electrician.",
  'Does anyone need cash back?',
  'Bring some cash for the market stalls.',
  'My phone no longer charges, I will be offline today.',
  'My email is broken, so reply here please.',
  'Ik stuur je het geld voor de bus vanavond.',
  'Laten we ergens anders koffie drinken, het is hier vol.',
  'Mijn mail is niet aangekomen, kun je het hier zetten?',
  'Mon portable est déchargé, je vous écris depuis la tablette.',
  'On va voir le prêt-à-porter au musée.',
  'The club needs 20 euros from each of us for the room.',
  'No need to bring money, it is free.',
  "We'll all need 10 dollars for the boat.",
  'Sorry, I need to transfer my booking to next week.',
]

/**
 * Ordinary messages that do warn, on purpose (decision 031): the words are the scam's own
 * vehicles, and a calm warning costs the reader a glance. Kept here so the choice stays visible.
 */
const acceptedFalsePositives: readonly Case[] = [
  ['Who wants to split a taxi? Venmo me later.', ['wire_transfer']],
  ['The bingo prize is a $25 gift card!', ['gift_cards']],
  ['Text me when you arrive at the entrance.', ['off_platform']],
  ['I need cash for the parking meter, is there an ATM near?', ['money']],
  ['My grandson works in crypto, he says it is boring.', ['crypto']],
  ['Le virement de ma retraite est arrivé, je paie la tournée !', ['wire_transfer']],
  ['Wat een mooie cadeaubon heb je gekregen voor je verjaardag!', ['gift_cards']],
  ['On fait un virement groupé pour le cadeau de Marie ?', ['wire_transfer']],
  ['Ik ben mijn portemonnee vergeten, kan iemand me geld voorschieten?', ['money']],
]

/** Scams the patterns miss (decision 031): listed so a future pattern can turn them green. */
const knownMisses: readonly string[] = [
  'Plz snd me m0ney',
  'Honey I need 2k to clear my shipment at the port',
  'Can we chat on the green app instead? This site is not safe.',
  'Please keep this between us, your family would not understand.',
  'Can you receive a package for me and forward it to my cousin?',
]

describe('scamSignals', () => {
  it.each(scams)('%s', (message, signals) => {
    expect(scamSignals(message)).toEqual(signals)
  })

  it.each(ordinary)('no warning: %s', (message) => {
    expect(scamSignals(message)).toEqual([])
  })

  it.each(acceptedFalsePositives)('warns, accepted false positive: %s', (message, signals) => {
    expect(scamSignals(message)).toEqual(signals)
  })

  it.each(knownMisses)('misses, known false negative: %s', (message) => {
    expect(scamSignals(message)).toEqual([])
  })

  it('has at least 40 scam messages and 20 ordinary ones, in the three languages', () => {
    expect(scams.length).toBeGreaterThanOrEqual(40)
    expect(ordinary.length).toBeGreaterThanOrEqual(20)
  })

  it('returns the signals in the order of scamSignalCodes, each once', () => {
    const all = scamSignals(
      'Send me $500 by Western Union or in bitcoin, or buy gift cards. I need your bank account number. WhatsApp me, my bank will call. This is Medicare calling.',
    )
    expect(all).toEqual([...scamSignalCodes])
  })

  it('ignores case, accents and invisible characters', () => {
    expect(scamSignals('ENVOIE-MOI DE L’ARGENT')).toEqual(['money'])
    expect(scamSignals('envoie-moi de largent'.replace('largent', "l'árgent"))).toEqual(['money'])
    expect(scamSignals('Whats\u200bApp')).toEqual(['off_platform'])
    expect(scamSignals('ＢＩＴＣＯＩＮ')).toEqual(['crypto'])
  })

  it('sees through digits for letters and spaced-out words', () => {
    expect(scamSignals('buy a g1ft card')).toEqual(['gift_cards'])
    expect(scamSignals('W e s t e r n Union')).toEqual(['wire_transfer'])
    expect(scamSignals('t e l e g r a m')).toEqual(['off_platform'])
  })
})

describe('containsContactDetails', () => {
  it.each([
    'add me on WhatsApp +1 503 555 0142',
    'My number is 503-555-0142',
    'call (503) 555 0142',
    'mon portable : 06.12.34.56.78',
    'bel 0612345678',
    '+31 6 1234 5678',
    '0032 470 12 34 56',
    'ann.baker@example.org',
    'ann (at) example (dot) com',
    'ann at gmail dot com',
  ])('finds contact details: %s', (message) => {
    expect(containsContactDetails(message)).toBe(true)
  })

  it.each([
    'See you at 10:30 on 24/11/2026',
    'Tickets are $25, room 12, 3 people',
    'The walk is 09.30-11.30 and 14.00-16.00',
    'Zip code 97201',
    'Meet @ noon. See you there',
    'We were 12 345 people at the parade',
  ])('finds none: %s', (message) => {
    expect(containsContactDetails(message)).toBe(false)
  })
})

describe('purity: a signal counts nothing against the sender', () => {
  it('gives the same answer for the same message, however often and in whatever order', () => {
    const message = 'Send me $500 by Western Union, my WhatsApp is +1 503 555 0142'
    const first = scamSignals(message)
    for (let index = 0; index < 5; index += 1) {
      expect(scamSignals('Hello!')).toEqual([])
      expect(scamSignals(message)).toEqual(first)
      expect(containsContactDetails(message)).toBe(true)
      expect(containsLink(message)).toBe(false)
    }
  })

  it('returns a new array each time, so a caller cannot change the next answer', () => {
    const first = scamSignals('send me money')
    first.push('crypto')
    expect(scamSignals('send me money')).toEqual(['money'])
  })

  it('takes nothing but the text: no sender, no count, no side channel', () => {
    expect(scamSignals.length).toBe(1)
    expect(containsContactDetails.length).toBe(1)
    expect(containsLink.length).toBe(1)
  })
})

describe('cost', () => {
  // Messages are at most 2,000 characters. No pattern may backtrack out of control on them; the
  // worst inputs found take about 25 ms alone, and 500 ms once with three test files at once on
  // two cores. Backtracking out of control (cubic and worse) takes minutes on 2,000 characters, so
  // the bound is 5 s: it catches that and never flakes on a busy machine.
  it.each([
    ['letters', 'a'.repeat(2000)],
    ['digits', '1'.repeat(2000)],
    ['dotted', 'a.'.repeat(1000)],
    ['dashed digits', '1-'.repeat(1000)],
    ['repeated requests', 'send me the '.repeat(166)],
  ])('checks a 2,000-character message of %s quickly', (_name, message) => {
    const start = performance.now()
    scamSignals(message)
    containsContactDetails(message)
    containsLink(message)
    expect(performance.now() - start).toBeLessThan(5_000)
  })
})

describe('normalizeMessage', () => {
  it('lowers case, strips accents and joins whitespace', () => {
    expect(normalizeMessage('  Prête‑moi\n\n200 €  ')).toBe('prete-moi 200 €')
  })
})

describe('copy', () => {
  const read = (language: string) =>
    JSON.parse(
      readFileSync(new URL(`../public/locales/${language}/chat.json`, import.meta.url), 'utf8'),
    ) as {
      scamShield: Record<string, string>
    }

  it('quotes the spec for the English warning and has the keys it exports', () => {
    expect(scamWarningKey).toBe('chat:scamShield.warning')
    expect(contactReminderKey).toBe('chat:scamShield.contactReminder')
    expect(read('en').scamShield.warning).toBe(
      'Never send money to someone you have not met. Report anything that feels wrong.',
    )
    for (const language of ['en', 'fr', 'nl']) {
      expect(Object.keys(read(language).scamShield)).toEqual(expect.arrayContaining(['contactReminder', 'warning']))
    }
  })
})
