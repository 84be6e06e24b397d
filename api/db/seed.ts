import { hash } from '@node-rs/argon2'
import { sql, type Insertable, type Kysely } from 'kysely'
import { joinReasons as joinReasonOptions } from '#contract/enums.ts'
import type { StaffRole } from '#contract/staff-roles.ts'
import { zonedParts, zonedTime } from '#contract/zoned-time.ts'
import type {
  Database,
  ExperienceAttendeesTable,
  ExperiencesTable,
  Gender,
  JoinReason,
  UsersTable,
  WaitlistEntriesTable,
} from './schema.ts'

/**
 * Demo data for an empty database: three named accounts, 300 members across US cities, a few
 * hundred activities (past and upcoming, in person and online), attendees and notify lists.
 * Everything comes from a fixed-seed PRNG, so reruns against the same `now` give the same rows.
 */

export const demoPassword = 'demo-password-55'
export const demoAccounts = ['member@demo.test', 'host@demo.test', 'admin@demo.test'] as const
/** One demo account for each of the team's other roles (decision 090), listed to nobody in Members. */
export const teamDemoAccounts = {
  moderator: 'moderator@demo.test',
  support: 'support@demo.test',
  finance: 'finance@demo.test',
} as const satisfies Partial<Record<StaffRole, string>>

const SEED = 0x55c1_2c1e
const MEMBER_COUNT = 300
const EXPERIENCE_COUNT = 230
const HOST_EXPERIENCES = 18
const BATCH = 500
const DAY = 86_400_000
const HOUR = 3_600_000
const MINUTE = 60_000

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

function mulberry32(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

function createRandom(seed: number) {
  const next = mulberry32(seed)
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
  const chance = (p: number) => next() < p
  const shuffle = <T>(items: readonly T[]): T[] => {
    const copy = [...items]
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1))
      ;[copy[i], copy[j]] = [copy[j] as T, copy[i] as T]
    }
    return copy
  }
  const hex = (length: number) => {
    let out = ''
    for (let i = 0; i < length; i++) out += Math.floor(next() * 16).toString(16)
    return out
  }
  const base36 = (length: number) => {
    let out = ''
    for (let i = 0; i < length; i++) out += Math.floor(next() * 36).toString(36)
    return out
  }
  /** A version-4-shaped UUID drawn from the PRNG, so that ids are stable across reruns. */
  const uuid = () => {
    const h = hex(32).split('')
    h[12] = '4'
    h[16] = ((parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16)
    const s = h.join('')
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`
  }
  return { next, int, pick, chance, shuffle, hex, base36, uuid }
}
type Random = ReturnType<typeof createRandom>

// ---------------------------------------------------------------------------------------------
// Time zones

/** The calendar date `days` after today in `timeZone`. */
function localDate(now: Date, timeZone: string, days: number) {
  const today = zonedParts(now.getTime(), timeZone)
  const date = new Date(Date.UTC(today.year, today.month - 1, today.day + days))
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() }
}

// ---------------------------------------------------------------------------------------------
// Reference data

interface City {
  name: string
  state: string
  lat: number
  lng: number
  timeZone: string
  zip: string
  areaCode: string
}

// name | state | latitude | longitude | IANA time zone | ZIP code | area code
const cities: readonly City[] = `
  Portland | OR | 45.5152 | -122.6784 | America/Los_Angeles | 97201 | 503
  Seattle | WA | 47.6062 | -122.3321 | America/Los_Angeles | 98101 | 206
  San Francisco | CA | 37.7749 | -122.4194 | America/Los_Angeles | 94102 | 415
  Los Angeles | CA | 34.0522 | -118.2437 | America/Los_Angeles | 90012 | 213
  San Diego | CA | 32.7157 | -117.1611 | America/Los_Angeles | 92101 | 619
  Sacramento | CA | 38.5816 | -121.4944 | America/Los_Angeles | 95814 | 916
  Las Vegas | NV | 36.1699 | -115.1398 | America/Los_Angeles | 89101 | 702
  Phoenix | AZ | 33.4484 | -112.074 | America/Phoenix | 85004 | 602
  Tucson | AZ | 32.2226 | -110.9747 | America/Phoenix | 85701 | 520
  Denver | CO | 39.7392 | -104.9903 | America/Denver | 80202 | 303
  Salt Lake City | UT | 40.7608 | -111.891 | America/Denver | 84101 | 801
  Albuquerque | NM | 35.0844 | -106.6504 | America/Denver | 87102 | 505
  Boise | ID | 43.615 | -116.2023 | America/Boise | 83702 | 208
  Dallas | TX | 32.7767 | -96.797 | America/Chicago | 75201 | 214
  Austin | TX | 30.2672 | -97.7431 | America/Chicago | 78701 | 512
  Houston | TX | 29.7604 | -95.3698 | America/Chicago | 77002 | 713
  San Antonio | TX | 29.4241 | -98.4936 | America/Chicago | 78205 | 210
  Chicago | IL | 41.8781 | -87.6298 | America/Chicago | 60602 | 312
  Minneapolis | MN | 44.9778 | -93.265 | America/Chicago | 55401 | 612
  Kansas City | MO | 39.0997 | -94.5786 | America/Chicago | 64105 | 816
  St. Louis | MO | 38.627 | -90.1994 | America/Chicago | 63101 | 314
  Nashville | TN | 36.1627 | -86.7816 | America/Chicago | 37203 | 615
  New Orleans | LA | 29.9511 | -90.0715 | America/Chicago | 70112 | 504
  Milwaukee | WI | 43.0389 | -87.9065 | America/Chicago | 53202 | 414
  Atlanta | GA | 33.749 | -84.388 | America/New_York | 30303 | 404
  Miami | FL | 25.7617 | -80.1918 | America/New_York | 33130 | 305
  Tampa | FL | 27.9506 | -82.4572 | America/New_York | 33602 | 813
  Orlando | FL | 28.5383 | -81.3792 | America/New_York | 32801 | 407
  Charlotte | NC | 35.2271 | -80.8431 | America/New_York | 28202 | 704
  Raleigh | NC | 35.7796 | -78.6382 | America/New_York | 27601 | 919
  Asheville | NC | 35.5951 | -82.5515 | America/New_York | 28801 | 828
  Washington | DC | 38.9072 | -77.0369 | America/New_York | 20001 | 202
  Philadelphia | PA | 39.9526 | -75.1652 | America/New_York | 19107 | 215
  Pittsburgh | PA | 40.4406 | -79.9959 | America/New_York | 15222 | 412
  New York City | NY | 40.7128 | -74.006 | America/New_York | 10007 | 212
  Boston | MA | 42.3601 | -71.0589 | America/New_York | 02108 | 617
  Burlington | VT | 44.4759 | -73.2121 | America/New_York | 05401 | 802
  Columbus | OH | 39.9612 | -82.9988 | America/New_York | 43215 | 614
  Detroit | MI | 42.3314 | -83.0458 | America/Detroit | 48226 | 313
  Indianapolis | IN | 39.7684 | -86.1581 | America/Indiana/Indianapolis | 46204 | 317
  Honolulu | HI | 21.3069 | -157.8583 | Pacific/Honolulu | 96813 | 808
  Anchorage | AK | 61.2181 | -149.9003 | America/Anchorage | 99501 | 907
`
  .trim()
  .split('\n')
  .map((line) => {
    const [name = '', state = '', lat = '', lng = '', timeZone = '', zip = '', areaCode = ''] = line
      .split('|')
      .map((cell) => cell.trim())
    return { name, state, lat: Number(lat), lng: Number(lng), timeZone, zip, areaCode }
  })
const homeCity = cities[0] as City

const words = (text: string) => text.trim().split(/\s+/)

const womenNames = words(`
  Margaret Linda Barbara Patricia Susan Deborah Carol Sandra Donna Sharon Karen Nancy
  Diane Janet Brenda Gloria Cheryl Joyce Rosa Maria Yolanda Mei Keiko Priya Aisha Dolores
  Francine Bernadette Lorraine Judith Evelyn Ruth Gwendolyn Theresa Connie Lupe Ngozi
  Miriam Hyun-joo Loretta Shirley Beverly Marilyn Annette Carmen Ingrid Fatima Winona
  Naomi Irene
`)
const menNames = words(`
  Walter Robert James Michael William David Richard Thomas Charles Joseph Gary Larry
  Dennis Ronald Kenneth Harold Frank Raymond Gerald Eugene Luis Jorge Hiroshi Wei Rajesh
  Tyrone Curtis Reginald Samuel Abdul Bernard Stanley Howard Leonard Vincent Ernesto
  Darnell Kwame Min-jun Stephen Douglas Roger Arthur Manuel Henry Lloyd Clarence Tomas
  Yusuf Duane
`)
const otherNames = words(`
  Jordan Alex Robin Terry Jamie Lee Pat Sam Morgan Casey Kerry Dana
`)
const lastNames = words(`
  Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez
  Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson
  White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott
  Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter
  Roberts Kim Patel Chen Wong Tanaka Yamamoto Okafor Mensah Washington Jefferson Cohen
  Goldberg Kowalski Novak O'Brien Murphy Sullivan Begay Yazzie Kahananui Nakamura Singh
  Haddad Abdullah Rossi Russo Schmidt Larsen Johansson Dubois Ellis Brooks Bennett Hayes
  Coleman Jenkins Fleming Castillo Vasquez Park
`)

const streets = [
  'Main St',
  'Oak Ave',
  'Maple St',
  'Park Blvd',
  'Elm St',
  'Washington Ave',
  'Lake Dr',
  'River Rd',
  '2nd Ave',
  'Broadway',
  'Cedar Ln',
  'Pine St',
  'Lincoln Ave',
  'Market St',
  'Church St',
  'Jefferson St',
  'Highland Ave',
  'Sunset Blvd',
  'Chestnut St',
  'Willow Way',
]

type VenueKind =
  | 'park'
  | 'library'
  | 'cafe'
  | 'community'
  | 'museum'
  | 'garden'
  | 'courts'
  | 'kitchen'
  | 'studio'
  | 'hall'
  | 'restaurant'
  | 'market'
  | 'lake'

const venues: Record<VenueKind, readonly string[]> = {
  park: [
    'Riverside Park Pavilion',
    'Lakeside Park Picnic Shelter',
    'Memorial Park Main Gate',
    'Heritage Park Gazebo',
    'Greenway Trailhead',
  ],
  library: [
    'Central Library Community Room',
    'Westside Branch Library Meeting Room',
    'Eastside Library Reading Room',
  ],
  cafe: [
    'Corner Bean Café',
    'Morning Glory Coffee House',
    'The Daily Grind',
    'Maple Street Bakery & Café',
    'Two Sisters Tea Room',
  ],
  community: [
    'Oak Hill Community Center',
    'Parkside Recreation Center',
    'Sunrise Senior Center',
    'Northside Neighborhood House',
  ],
  museum: [
    'City Art Museum',
    'Museum of History & Industry',
    'Natural History Museum',
    'Contemporary Craft Gallery',
  ],
  garden: [
    'Botanical Garden Visitor Center',
    'Greenleaf Community Garden',
    'Rose Garden Entrance',
    'Japanese Garden Gate',
  ],
  courts: [
    'Community Pickleball Courts',
    'Parkside Recreation Center Courts',
    'Eastside Sports Complex',
  ],
  kitchen: [
    'Community Kitchen at Grace Hall',
    'Hearth Culinary Studio',
    'Fresh Start Teaching Kitchen',
  ],
  studio: ['Art Studio Collective', 'Community Arts Center Studio B', 'Brushstrokes Open Studio'],
  hall: [
    'Unity Fellowship Hall',
    'Old Grange Hall',
    'Veterans Memorial Hall',
    'St. Mark’s Parish Hall',
  ],
  restaurant: [
    'Blue Door Bistro',
    'The Old Mill Diner',
    'Casa Rosa Cantina',
    'Golden Lotus Restaurant',
    'Harbor Grill',
  ],
  market: ['Downtown Farmers Market', 'Saturday Market Info Booth', 'Public Market Hall'],
  lake: ['Willow Lake Boat Ramp', 'Cedar Pond Fishing Pier', 'Marina Park Dock'],
}

interface Template {
  titles: readonly string[]
  /** The first sentence always leads; one to three of the others follow, in order. */
  sentences: readonly [string, ...string[]]
  venues: readonly VenueKind[]
  online: 'never' | 'maybe' | 'only'
}

const templates: readonly Template[] = [
  {
    titles: [
      'Sunrise Walking Group',
      'Easy-Pace Morning Walk',
      'Riverside Stroll & Chat',
      'Nature Trail Walk in {city}',
    ],
    sentences: [
      'Join us for a relaxed walk at a conversational pace — about two miles on level, paved paths.',
      'We stop halfway for a water break and a chance to catch our breath.',
      'Comfortable shoes and a water bottle are all you need.',
      'Walking poles are welcome, and nobody gets left behind.',
      'Afterwards, anyone who likes can grab a coffee nearby.',
    ],
    venues: ['park'],
    online: 'never',
  },
  {
    titles: [
      'Mystery Lovers Book Circle',
      'Monthly Book Club: Historical Fiction',
      'Memoir Readers Circle',
      'Book Club: Classics Revisited',
    ],
    sentences: [
      'A friendly book club for people who love a good story and a good conversation.',
      'This month we are discussing a much-loved novel; finishing it is encouraged but not required.',
      'Bring your thoughts, your favorite quotes and your questions.',
      'We take turns suggesting the next title, so everyone has a say.',
      'Tea and biscuits provided.',
    ],
    venues: ['library', 'cafe'],
    online: 'maybe',
  },
  {
    titles: [
      'Guided Museum Visit: Impressionist Gallery',
      'Museum Morning & Lunch',
      'Behind the Scenes at the Museum',
      'Special Exhibit Outing',
    ],
    sentences: [
      'Let’s explore the museum together at a gentle pace, with plenty of benches along the way.',
      'A docent will lead the first half hour, and then we wander at our own speed.',
      'Senior admission is discounted; please bring your ID.',
      'We finish with lunch at the museum café for anyone who wants to stay.',
    ],
    venues: ['museum'],
    online: 'never',
  },
  {
    titles: [
      'Raised-Bed Vegetable Gardening',
      'Spring Seed & Cutting Swap',
      'Container Gardening for Small Spaces',
      'Garden Volunteers Morning',
    ],
    sentences: [
      'Whether you have acres or a single balcony pot, come swap tips with fellow gardeners.',
      'Bring seeds, cuttings or extra seedlings to share if you have them.',
      'We’ll cover soil, watering and which vegetables thrive in our climate.',
      'Gloves and kneeling pads are available to borrow.',
    ],
    venues: ['garden', 'community'],
    online: 'never',
  },
  {
    titles: [
      'Friendly Duplicate Bridge',
      'Beginner Bridge Lessons',
      'Afternoon Bridge & Tea',
      'Bridge Club: Partners Welcome',
    ],
    sentences: [
      'A relaxed bridge game for players of all levels — come with a partner or we will pair you up.',
      'New players get a short refresher on bidding before we start.',
      'We play about twelve boards with a break for refreshments.',
      'No scores are taken too seriously; good company is the point.',
    ],
    venues: ['community', 'library', 'hall'],
    online: 'maybe',
  },
  {
    titles: [
      'Pickleball for Beginners',
      'Social Pickleball Doubles',
      'Pickleball Drop-In: All Levels',
    ],
    sentences: [
      'Pickleball is easy to learn, gentle on the joints and a lot of fun.',
      'Paddles and balls are provided for anyone who does not have their own.',
      'We rotate partners every game so everyone gets to meet each other.',
      'Please wear court shoes and bring water.',
    ],
    venues: ['courts'],
    online: 'never',
  },
  {
    titles: [
      'Italian Cooking Class: Homemade Pasta',
      'Soup Swap & Supper',
      'Healthy Cooking for One or Two',
      'Baking Bread Together',
    ],
    sentences: [
      'Roll up your sleeves for a hands-on cooking session in a fully equipped kitchen.',
      'Recipes are simple, seasonal and easy to repeat at home.',
      'We sit down together afterwards to enjoy what we made.',
      'Please let the host know about any allergies in advance.',
    ],
    venues: ['kitchen'],
    online: 'maybe',
  },
  {
    titles: [
      'Photo Walk: Golden Hour Downtown',
      'Smartphone Photography Basics',
      'Photography Club: Street Scenes',
      'Macro Photography in the Garden',
    ],
    sentences: [
      'Bring a camera or just your phone — every kind of photographer is welcome.',
      'We’ll practice composition, light and patience while strolling together.',
      'Afterwards we share our favorite shots and swap tips.',
      'No experience needed, just curiosity.',
    ],
    venues: ['park', 'garden', 'museum'],
    online: 'maybe',
  },
  {
    titles: ['Beginner Birdwatching Walk', 'Spring Migration Bird Count', 'Birds & Coffee Morning'],
    sentences: [
      'Join a small group of bird lovers for an easy walk with binoculars.',
      'Our host knows the local species well and loves helping beginners.',
      'Spare binoculars and a field guide are available to borrow.',
      'We keep a list of everything we spot and share it with the group afterwards.',
    ],
    venues: ['park', 'lake', 'garden'],
    online: 'never',
  },
  {
    titles: [
      'Coffee Morning for New Members',
      'Saturday Coffee & Conversation',
      'Neighborhood Coffee Meetup',
      'Tea & Talk',
    ],
    sentences: [
      'A simple, friendly way to meet people nearby over a cup of coffee.',
      'No agenda — just good conversation and maybe a pastry or two.',
      'Look for the small group with the welcome sign on the table.',
      'New faces are especially welcome.',
    ],
    venues: ['cafe'],
    online: 'maybe',
  },
  {
    titles: [
      'Tech Help Drop-In: Phones & Tablets',
      'Video Calling Made Easy',
      'Staying Safe from Online Scams',
      'Getting the Most from Your iPhone',
    ],
    sentences: [
      'Bring your phone, tablet or laptop and your questions — no question is too small.',
      'Volunteers will help with settings, apps, photos and video calls.',
      'We also cover how to spot and avoid common scams.',
      'Please bring your chargers and any passwords you might need.',
    ],
    venues: ['library', 'community'],
    online: 'maybe',
  },
  {
    titles: [
      'Watercolor for Beginners',
      'Plein Air Painting in the Park',
      'Acrylic Painting Afternoon',
      'Sketching Club',
    ],
    sentences: [
      'Discover the joy of painting in a relaxed, encouraging group.',
      'All materials are provided; wear clothes you do not mind getting a little paint on.',
      'Our host demonstrates a simple technique, then everyone paints at their own pace.',
      'Finished works are entirely optional to share.',
    ],
    venues: ['studio', 'park'],
    online: 'maybe',
  },
  {
    titles: [
      'Come Sing! Community Choir',
      'Golden Oldies Sing-Along',
      'Harmony Hour: Choir Practice',
    ],
    sentences: [
      'Singing together is good for the heart and the soul, and you do not need to read music.',
      'We warm up gently and learn songs by ear, from Motown to musicals.',
      'Lyric sheets are provided in large print.',
      'Every voice is welcome.',
    ],
    venues: ['hall', 'community'],
    online: 'maybe',
  },
  {
    titles: [
      'Tai Chi in the Park',
      'Gentle Chair Yoga',
      'Qigong & Stretching',
      'Balance & Mobility Class',
    ],
    sentences: [
      'Slow, flowing movements to improve balance, flexibility and calm.',
      'All movements can be done standing or seated.',
      'Wear loose, comfortable clothing and flat shoes.',
      'Our instructor has taught seniors for over ten years.',
    ],
    venues: ['park', 'community'],
    online: 'maybe',
  },
  {
    titles: [
      'Spanish Conversation Hour (Intermediate)',
      'French Café — Online Practice',
      'Italian for Travelers',
      'German Conversation Circle',
    ],
    sentences: [
      'Practice speaking in a supportive group from the comfort of home.',
      'We split into small breakout rooms by level so everyone gets time to talk.',
      'Each session has a theme — food, travel, family or the news.',
      'Mistakes are welcome; that is how we learn.',
    ],
    venues: [],
    online: 'only',
  },
  {
    titles: [
      'Travel Talk: Walking the Camino de Santiago',
      'Slideshow Evening: National Parks Road Trip',
      'Travel Talk: River Cruising in Europe',
      'Travel Tales: Japan in Cherry Blossom Season',
    ],
    sentences: [
      'Armchair travelers and seasoned explorers alike are welcome at this travel talk.',
      'Our host shares photos, stories and practical tips from a recent trip.',
      'There is plenty of time for questions and your own travel stories.',
      'You might just leave with an idea for your next adventure.',
    ],
    venues: ['library', 'community'],
    online: 'maybe',
  },
  {
    titles: ['Trivia Afternoon', 'Quiz Time: Music of the 60s & 70s', 'Trivia & Snacks'],
    sentences: [
      'Test your knowledge in a light-hearted trivia game played in small teams.',
      'Questions cover music, movies, history and a little bit of everything.',
      'Come alone and join a team, or bring friends.',
      'Bragging rights and a small prize for the winners.',
    ],
    venues: ['restaurant', 'cafe', 'community'],
    online: 'maybe',
  },
  {
    titles: ['Board Game Afternoon', 'Mahjong for Beginners', 'Canasta Club', 'Scrabble Social'],
    sentences: [
      'Bring your competitive spirit — or just your sense of humor — to an afternoon of games.',
      'We have several tables going, so there is something for everyone.',
      'Beginners get a patient walkthrough of the rules.',
      'Snacks and lemonade provided.',
    ],
    venues: ['community', 'library', 'cafe'],
    online: 'never',
  },
  {
    titles: ['Knit & Natter', 'Quilting Circle', 'Crochet Corner'],
    sentences: [
      'Bring whatever you are working on and enjoy some company while you stitch.',
      'Experienced crafters are happy to help with tricky patterns.',
      'Some spare needles and yarn are available for beginners.',
      'We occasionally work on blankets for a local charity.',
    ],
    venues: ['library', 'cafe', 'community'],
    online: 'maybe',
  },
  {
    titles: [
      'Classic Film Matinee & Discussion',
      'Hitchcock Afternoon',
      'Film Club: Musicals of the Golden Age',
    ],
    sentences: [
      'We watch a classic film together and talk about it over coffee afterwards.',
      'Our host gives a short introduction about the film and its stars.',
      'Popcorn provided, of course.',
    ],
    venues: ['library', 'community'],
    online: 'maybe',
  },
  {
    titles: ['Line Dancing for Beginners', 'Ballroom Basics', 'Swing Dance Social'],
    sentences: [
      'No partner and no experience needed — just a willingness to have fun.',
      'Steps are taught slowly and repeated until everyone feels comfortable.',
      'Wear shoes that slide easily on a wooden floor.',
      'Chairs are available for anyone who needs a rest.',
    ],
    venues: ['hall', 'community'],
    online: 'never',
  },
  {
    titles: [
      'Volunteer Morning at the Food Bank',
      'Park Clean-Up Crew',
      'Reading Buddies at the Library',
    ],
    sentences: [
      'Give back to the community and meet like-minded neighbors at the same time.',
      'Tasks are suited to all abilities, and seated jobs are available.',
      'Gloves, supplies and snacks are provided.',
      'Many of our regulars say it is the best part of their week.',
    ],
    venues: ['community', 'park', 'library'],
    online: 'never',
  },
  {
    titles: ['Memoir Writing Workshop', 'Writing Your Life Story', 'Poetry Circle'],
    sentences: [
      'Everyone has a story worth telling — this workshop helps you get started.',
      'We use simple prompts to spark memories and write for twenty minutes at a time.',
      'Sharing is always optional.',
      'Bring a notebook or a laptop, whichever you prefer.',
    ],
    venues: ['library', 'cafe'],
    online: 'maybe',
  },
  {
    titles: [
      'Lunch Bunch: Trying New Restaurants',
      'Long Table Lunch',
      'Taco Tuesday Lunch Outing',
    ],
    sentences: [
      'Each month we try a different local restaurant together.',
      'Everyone orders for themselves and pays their own bill.',
      'It is a wonderful way to discover new places and make new friends.',
    ],
    venues: ['restaurant'],
    online: 'never',
  },
  {
    titles: ['Wine & Cheese Social', 'Afternoon Tea Party', 'Dessert & Conversation'],
    sentences: [
      'A relaxed social gathering to unwind and meet new people.',
      'Non-alcoholic options are always available.',
      'Dress is casual; smiles are required.',
    ],
    venues: ['restaurant', 'cafe', 'hall'],
    online: 'never',
  },
  {
    titles: ['Farmers Market Stroll', 'Market Morning & Brunch'],
    sentences: [
      'Wander the market stalls together, sample local treats and chat with growers.',
      'Bring a tote bag for your produce.',
      'We wrap up with a coffee or brunch nearby.',
    ],
    venues: ['market'],
    online: 'never',
  },
  {
    titles: [
      'Family History & Genealogy Help',
      'Getting Started with Ancestry Research',
      'Genealogy Club: Breaking Brick Walls',
    ],
    sentences: [
      'Curious about your roots? Learn how to start tracing your family tree.',
      'We cover free records, census data and how to organize what you find.',
      'Experienced researchers share the tricks that helped them break through.',
      'Bring any names, dates or old documents you already have.',
    ],
    venues: ['library'],
    online: 'maybe',
  },
  {
    titles: [
      'Mindfulness & Meditation Circle',
      'Guided Relaxation Hour',
      'Gratitude Journaling Group',
    ],
    sentences: [
      'Take an hour to slow down, breathe and reset.',
      'Our host guides a short meditation suitable for complete beginners.',
      'We finish with a few minutes of quiet conversation.',
      'Chairs and cushions are both available.',
    ],
    venues: ['community', 'garden'],
    online: 'maybe',
  },
  {
    titles: ['Lakeside Fishing Morning', 'Fly Fishing Basics'],
    sentences: [
      'Enjoy a peaceful morning by the water with fellow anglers.',
      'Beginners are welcome; a few spare rods are available.',
      'Please bring your own fishing license.',
    ],
    venues: ['lake'],
    online: 'never',
  },
  {
    titles: ['Easy Bike Ride on the Greenway', 'E-Bike Social Ride'],
    sentences: [
      'A leisurely ride of about ten miles on a flat, car-free path.',
      'Regular bikes, e-bikes and tricycles are all welcome.',
      'Helmets are required, and we stop for a snack halfway.',
    ],
    venues: ['park'],
    online: 'never',
  },
  {
    titles: [
      "Grandparents' Chat: Staying Close Across the Miles",
      'Understanding Medicare: Q&A',
      'Downsizing & Decluttering Tips',
      'Planning Your Next Chapter',
    ],
    sentences: [
      'A friendly discussion where members share experiences and practical ideas.',
      'Our host brings a few tips, but the best advice usually comes from the group.',
      'There is time for questions at the end.',
      'Come with an open mind and maybe a cup of tea.',
    ],
    venues: ['library', 'community'],
    online: 'maybe',
  },
]

const onlineTemplates = templates.filter((t) => t.online !== 'never')
const inPersonTemplates = templates.filter((t) => t.online !== 'only')

// ---------------------------------------------------------------------------------------------
// Helpers

function kebab(text: string) {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

function jitter(random: Random, city: City, maxMiles: number) {
  const distance = maxMiles * Math.sqrt(random.next())
  const angle = random.next() * 2 * Math.PI
  const lat = city.lat + (distance * Math.cos(angle)) / 69
  const lng = city.lng + (distance * Math.sin(angle)) / (69 * Math.cos((city.lat * Math.PI) / 180))
  return { lat: Math.round(lat * 1e6) / 1e6, lng: Math.round(lng * 1e6) / 1e6 }
}

function isoDate(ms: number) {
  return new Date(ms).toISOString().slice(0, 10)
}

/** A date of birth making the member exactly `age` today (UTC calendar). */
function dobForAge(now: Date, age: number, daysBeforeBirthday: number) {
  const birthday = Date.UTC(now.getUTCFullYear() - age, now.getUTCMonth(), now.getUTCDate())
  return isoDate(birthday - daysBeforeBirthday * DAY)
}

function between(random: Random, from: number, to: number) {
  if (to <= from) return new Date(from)
  return new Date(from + Math.floor(random.next() * (to - from)))
}

async function insertInBatches<T>(rows: readonly T[], insert: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH))
}

// ---------------------------------------------------------------------------------------------
// Generation

interface SeedUser {
  row: Insertable<UsersTable> & { id: string }
  city: City
}

interface SeedExperience {
  row: Insertable<ExperiencesTable> & { id: string; start_at: Date; created_at: Date }
  city: City
  upcoming: boolean
  attendees: Set<string>
  forced: string[]
  waitlist: string[]
  full: boolean
  canceled: boolean
}

function generateUsers(random: Random, now: Date) {
  const slugs = new Set<string>()
  const users: SeedUser[] = []
  const team: SeedUser[] = []
  const make = (
    email: string,
    options: {
      first?: string
      last?: string
      gender?: Gender
      city?: City
      role?: StaffRole
      age?: number
    },
    into = users,
    from = random,
  ) => {
    const gender: Gender =
      options.gender ?? (from.chance(0.04) ? 'other' : from.chance(0.55) ? 'woman' : 'man')
    const first =
      options.first ??
      from.pick(gender === 'woman' ? womenNames : gender === 'man' ? menNames : otherNames)
    const last = options.last ?? from.pick(lastNames)
    const city = options.city ?? homeCity
    const id = from.uuid()
    let slug = ''
    do slug = `${kebab(first)}-${kebab(last).slice(0, 1)}-${from.hex(4)}`
    while (slugs.has(slug))
    slugs.add(slug)
    const reasons = joinReasonOptions
    let joinReasons: JoinReason[] = reasons.filter(() => from.chance(0.45))
    if (joinReasons.length === 0) joinReasons = [from.pick(reasons)]
    const age = options.age ?? from.int(55, 89)
    const dob = dobForAge(now, age, from.int(1, 360))
    const createdAt = new Date(
      now.getTime() - from.int(30, 720) * DAY - from.int(0, 86_399) * 1000,
    )
    const onboardedAt = new Date(createdAt.getTime() + from.int(3, 40) * MINUTE)
    const home = jitter(from, city, 5)
    into.push({
      city,
      row: {
        id,
        auth_subject: id,
        slug,
        email,
        phone: `+1${city.areaCode}55501${String(from.int(0, 99)).padStart(2, '0')}`,
        first_name: first,
        last_name: last,
        name: `${first} ${last}`,
        formatted_name: null,
        dob,
        gender,
        join_reasons: joinReasons,
        staff_role: options.role ?? null,
        state: 'active',
        lat: home.lat,
        long: home.lng,
        city: city.name,
        region: city.state,
        locale: 'en',
        onboarded_at: onboardedAt,
        created_at: createdAt,
        updated_at: onboardedAt,
      },
    })
  }
  make('member@demo.test', { first: 'Margaret', last: 'Ellis', gender: 'woman', age: 68 })
  make('host@demo.test', { first: 'Walter', last: 'Brooks', gender: 'man', age: 71 })
  make('admin@demo.test', {
    first: 'Diane',
    last: 'Okafor',
    gender: 'woman',
    age: 61,
    role: 'admin',
  })
  for (let i = 1; i <= MEMBER_COUNT; i++) {
    // Every city gets at least one member; the demo accounts' city gets a larger share.
    const city =
      i <= cities.length
        ? (cities[i - 1] as City)
        : random.chance(0.12)
          ? homeCity
          : random.pick(cities)
    make(`member${i}@demo.test`, { city })
  }
  // The team's other roles last, from their own sequence: the members drawn above, and the
  // activities and attendance drawn from `random` after them, stay what they were before.
  const teamRandom = createRandom(SEED + 90)
  make(teamDemoAccounts.moderator, { first: 'Rosa', last: 'Delgado', gender: 'woman', age: 58, role: 'moderator' }, team, teamRandom)
  make(teamDemoAccounts.support, { first: 'Sam', last: 'Rivera', gender: 'man', age: 57, role: 'support' }, team, teamRandom)
  make(teamDemoAccounts.finance, { first: 'Priya', last: 'Natarajan', gender: 'woman', age: 60, role: 'finance' }, team, teamRandom)
  return { users, team }
}


function generateExperiences(random: Random, now: Date, users: SeedUser[]) {
  const [, host] = users as [SeedUser, SeedUser, SeedUser, ...SeedUser[]]
  const members = users.slice(3)
  // A pool of regular hosts: some members host several activities, most host none.
  const hostPool = random.shuffle(members).slice(0, 110)
  const homeHosts = hostPool.filter((u) => u.city === homeCity)
  const slugs = new Set<string>()
  const experiences: SeedExperience[] = []

  // Exact shares among the other activities: 30% past overall, 20% online, 5% hostless.
  const others = random.shuffle(
    Array.from({ length: EXPERIENCE_COUNT - HOST_EXPERIENCES }, (_, k) => k + HOST_EXPERIENCES),
  )
  const pastCount = Math.round(EXPERIENCE_COUNT * 0.3) - (HOST_EXPERIENCES - 15)
  const past = new Set(others.slice(0, pastCount))
  const onlineSet = new Set(random.shuffle(others).slice(0, Math.round(others.length * 0.2)))
  const hostlessSet = new Set(random.shuffle(others).slice(0, Math.round(others.length * 0.05)))

  for (let i = 0; i < EXPERIENCE_COUNT; i++) {
    const byDemoHost = i < HOST_EXPERIENCES
    const upcoming = byDemoHost ? i < 15 : !past.has(i)
    const hostless = hostlessSet.has(i)
    const hostUser = byDemoHost
      ? host
      : hostless
        ? undefined
        : random.chance(0.2) && homeHosts.length > 0
          ? random.pick(homeHosts)
          : random.pick(hostPool)
    const city = byDemoHost
      ? homeCity
      : (hostUser?.city ?? (random.chance(0.2) ? homeCity : random.pick(cities)))
    const online = byDemoHost ? i % 8 === 7 : onlineSet.has(i)
    const template = random.pick(online ? onlineTemplates : inPersonTemplates)
    const title = random.pick(template.titles).replace('{city}', city.name)
    const [lead, ...rest] = template.sentences
    const extra = random.int(1, Math.min(3, rest.length))
    const chosen = new Set(random.shuffle(rest.map((_, index) => index)).slice(0, extra))
    const description = [lead, ...rest.filter((_, index) => chosen.has(index))].join(' ')

    // Day 1..59 before or after today in the city's calendar, 9:00–18:55 local.
    const date = localDate(now, city.timeZone, upcoming ? random.int(1, 59) : -random.int(1, 59))
    const startAt = zonedTime(
      date.year,
      date.month,
      date.day,
      random.int(9, 18),
      random.int(0, 11) * 5,
      city.timeZone,
    )
    const endAt = new Date(startAt.getTime() + random.int(6, 12) * 15 * MINUTE)
    const createdAt = upcoming
      ? new Date(now.getTime() - random.int(2, 30) * DAY - random.int(0, 23) * HOUR)
      : new Date(startAt.getTime() - random.int(7, 30) * DAY - random.int(0, 23) * HOUR)

    let slug = ''
    do slug = `${kebab(title).slice(0, 60).replace(/-$/, '')}-${random.base36(5)}`
    while (slugs.has(slug))
    slugs.add(slug)

    const maxAttendees = random.chance(0.25) ? null : random.int(4, 20)
    const ticketUrl = random.chance(0.06)
      ? `https://tickets.example.com/e/${random.base36(8)}`
      : null
    const fee = random.chance(0.15) ? random.int(10, 30) * 50 : null
    const premium = random.chance(0.1)

    let venue: Pick<
      Insertable<ExperiencesTable>,
      | 'venue_type'
      | 'latitude'
      | 'longitude'
      | 'formatted_address'
      | 'place_id'
      | 'city'
      | 'region'
      | 'url'
    >
    if (online) {
      venue = {
        venue_type: 'online',
        latitude: null,
        longitude: null,
        formatted_address: null,
        place_id: null,
        city: null,
        region: null,
        url: `https://meet.example.com/${random.base36(3)}-${random.base36(4)}-${random.base36(3)}`,
      }
    } else {
      const point = jitter(random, city, 8)
      const venueName = random.pick(venues[random.pick(template.venues)])
      venue = {
        venue_type: 'in_person',
        latitude: point.lat,
        longitude: point.lng,
        formatted_address: `${venueName}, ${random.int(10, 2999)} ${random.pick(streets)}, ${city.name}, ${city.state} ${city.zip}`,
        place_id: `us-${city.state.toLowerCase()}-${kebab(city.name)}`,
        city: city.name,
        region: city.state,
        url: null,
      }
    }

    experiences.push({
      city,
      upcoming,
      attendees: new Set(),
      forced: [],
      waitlist: [],
      full: false,
      canceled: false,
      row: {
        id: random.uuid(),
        slug,
        host_id: hostUser?.row.id ?? null,
        title,
        description,
        max_attendees: maxAttendees,
        start_at: startAt,
        end_at: endAt,
        timezone: city.timeZone,
        ...venue,
        ticket_url: ticketUrl,
        no_show_fee_cents: fee,
        is_hostless: hostless,
        is_premium: premium,
        canceled_at: null,
        created_at: createdAt,
        updated_at: createdAt,
      },
    })
  }
  return experiences
}

function planAttendance(
  random: Random,
  now: Date,
  users: SeedUser[],
  experiences: SeedExperience[],
) {
  const [member, host, admin] = users as [SeedUser, SeedUser, SeedUser, ...SeedUser[]]
  const nearMember = (e: SeedExperience) => e.city === homeCity || e.row.venue_type === 'online'
  const hostedByMember = (e: SeedExperience) => e.row.host_id === member.row.id

  // Full activities: at least 30 upcoming ones with a limit, including three the demo member
  // is on the notify list of.
  const limited = random.shuffle(
    experiences.filter((e) => e.upcoming && e.row.max_attendees != null && !hostedByMember(e)),
  )
  const memberWaitlisted = limited.filter(nearMember).slice(0, 3)
  const full = [
    ...memberWaitlisted,
    ...limited.filter((e) => !memberWaitlisted.includes(e)).slice(0, 29),
  ]
  for (const e of full) e.full = true
  for (const e of memberWaitlisted) e.waitlist.push(member.row.id)

  // The demo member attends six upcoming and six past activities near home.
  const open = (e: SeedExperience) =>
    !e.full && !hostedByMember(e) && (e.row.max_attendees ?? 99) >= 4
  const upcomingPicks = random
    .shuffle(experiences.filter((e) => e.upcoming && nearMember(e) && open(e)))
    .slice(0, 6)
  const pastPicks = random
    .shuffle(experiences.filter((e) => !e.upcoming && nearMember(e) && open(e)))
    .slice(0, 6)
  for (const e of [...upcomingPicks, ...pastPicks]) e.forced.push(member.row.id)

  // Five cancellations among activities the demo member has no stake in.
  const cancelable = random.shuffle(experiences.filter((e) => !e.full && e.forced.length === 0))
  for (const e of [
    ...cancelable.filter((e) => e.upcoming).slice(0, 4),
    ...cancelable.filter((e) => !e.upcoming).slice(0, 1),
  ]) {
    e.canceled = true
    const latest = Math.min(now.getTime(), e.row.start_at.getTime()) - HOUR
    const canceledAt = between(random, e.row.created_at.getTime() + DAY, latest)
    e.row.canceled_at = canceledAt
    e.row.updated_at = canceledAt
  }

  // Random members fill the seats: mostly people from the same city, some from anywhere.
  const excluded = new Set([member.row.id, host.row.id])
  const others = users.filter((u) => !excluded.has(u.row.id))
  const byCity = new Map<City, SeedUser[]>()
  for (const u of others) byCity.set(u.city, [...(byCity.get(u.city) ?? []), u])

  const attendeeRows: Insertable<ExperienceAttendeesTable>[] = []
  const waitlistRows: Insertable<WaitlistEntriesTable>[] = []
  for (const e of experiences) {
    const max = e.row.max_attendees ?? null
    let target: number
    if (e.full && max != null) target = max
    else if (e.canceled) target = random.int(0, 3)
    else if (max != null) target = random.int(Math.min(1, max - 1), max - 1)
    else target = random.int(2, 16)
    target = Math.max(target, e.forced.length)

    const local = e.row.venue_type === 'online' ? others : (byCity.get(e.city) ?? others)
    for (const id of e.forced) e.attendees.add(id)
    let guard = 0
    while (e.attendees.size < target && guard++ < 10_000) {
      const candidate = random.chance(0.7) ? random.pick(local) : random.pick(others)
      if (candidate.row.id === e.row.host_id) continue
      if (candidate.row.id === admin.row.id && !random.chance(0.3)) continue
      e.attendees.add(candidate.row.id)
    }

    const from = e.row.created_at.getTime() + 10 * MINUTE
    const until = e.upcoming ? now.getTime() - 6 * HOUR : e.row.start_at.getTime() - HOUR
    const times = [...e.attendees]
      .map(() => between(random, from, until).getTime())
      .sort((a, b) => a - b)
    ;[...e.attendees].forEach((userId, index) =>
      attendeeRows.push({
        experience_id: e.row.id,
        user_id: userId,
        created_at: new Date(times[index] ?? from),
      }),
    )

    if (e.full) {
      const size = random.int(Math.max(1, e.waitlist.length), 5)
      let guardWaitlist = 0
      while (e.waitlist.length < size && guardWaitlist++ < 1_000) {
        const candidate = random.chance(0.7) ? random.pick(local) : random.pick(others)
        const id = candidate.row.id
        if (id === e.row.host_id || e.attendees.has(id) || e.waitlist.includes(id)) continue
        e.waitlist.push(id)
      }
      const ordered = random.shuffle(e.waitlist)
      // Notify-list entries come after the activity filled up, strictly increasing, before now.
      const filledAt = times[times.length - 1] ?? from
      const span = now.getTime() - HOUR - filledAt
      ordered.forEach((userId, index) => {
        const at =
          filledAt + Math.floor((span * (index + 1 - random.next() * 0.5)) / (ordered.length + 1))
        waitlistRows.push({ experience_id: e.row.id, user_id: userId, created_at: new Date(at) })
      })
    }
  }
  return { attendeeRows, waitlistRows }
}

// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------
// Profiles (issue 13 §3): interests, a few prompts and privacy choices, so that Members has
// people to show. A random stream of its own, so the members and activities above stay as they were.

const demoInterests = ['walking', 'gardening', 'book_club', 'chess', 'cooking', 'live_music', 'birdwatching', 'volunteering', 'painting', 'bridge'] as const
const demoPrompts = [
  ['perfect_sunday', 'A long walk, a good breakfast and a phone call with the grandchildren.'],
  ['always_up_for', 'A game of cards and a cup of coffee.'],
  ['learning_now', 'Spanish, slowly but surely.'],
  ['ask_me_about', 'The thirty years I spent teaching science.'],
] as const

function generateProfiles(users: SeedUser[], team: SeedUser[]) {
  const random = createRandom(SEED + 13)
  const interests: Insertable<Database['user_interests']>[] = []
  const profiles: Insertable<Database['profiles']>[] = []
  const prompts: Insertable<Database['profile_prompts']>[] = []
  const [member, host, admin] = users as [SeedUser, SeedUser, SeedUser, ...SeedUser[]]
  // The demo accounts, fixed for the end-to-end tests: Walter shows his age by decade and shares
  // walking with Margaret; Diane chooses to be listed to nobody.
  const fixed = new Map<string, { interests: string[]; showAge: boolean; visibility: 'everyone' | 'nobody' }>([
    [member.row.id, { interests: ['walking', 'gardening', 'book_club'], showAge: false, visibility: 'everyone' }],
    [host.row.id, { interests: ['walking', 'chess', 'live_music'], showAge: true, visibility: 'everyone' }],
    [admin.row.id, { interests: ['walking', 'book_club'], showAge: true, visibility: 'nobody' }],
    ...team.map((user): [string, { interests: string[]; showAge: boolean; visibility: 'nobody' }] => [user.row.id, { interests: ['book_club'], showAge: false, visibility: 'nobody' }]),
  ])
  // The team last: its rows draw after the members', which stay as they were.
  for (const user of [...users, ...team]) {
    const chosen = fixed.get(user.row.id)
    const keys = chosen?.interests ?? random.shuffle(demoInterests).slice(0, random.int(1, 3))
    keys.forEach((interest, position) => interests.push({ user_id: user.row.id, interest: interest as never, position }))
    profiles.push({
      user_id: user.row.id,
      show_age: chosen?.showAge ?? random.chance(0.5),
      nearby_visibility: chosen?.visibility ?? (random.chance(0.1) ? 'attended' : 'everyone'),
      employment: random.chance(0.7) ? 'retired' : random.pick(['part_time', 'full_time', 'other'] as const),
      relationship: random.chance(0.6) ? random.pick(['single', 'widowed', 'divorced', 'in_relationship', 'married'] as const) : null,
      family: random.chance(0.5) ? ['grandchildren'] : [],
    })
    if (chosen || random.chance(0.3)) {
      const [prompt, answer] = random.pick(demoPrompts)
      prompts.push({ user_id: user.row.id, prompt, answer, position: 0 })
    }
  }
  return { interests, profiles, prompts }
}

/** The demo's Medicare agency: fictional, and it says so in every field members read. */
export const demoMedicarePartner = {
  name: 'Example Senior Benefits (demo agency)',
  license: 'Demo license 0000000 — not a real agency',
  phone: '+15035550100',
  disclaimer: 'This agency is made up for the Circle 55 demo. It does not exist and will never call anyone.',
  organization_count: 3,
  plan_count: 12,
  callback_days: 2,
  active: true,
  // Stop notices (decision 086) go to an address on a reserved domain (RFC 2606): nobody receives them.
  notices_email: 'stops@example-senior-benefits.example',
}

export async function seedDemoData(
  db: Kysely<Database>,
  options: { now?: Date; log?: (msg: string) => void } = {},
): Promise<{ seeded: boolean }> {
  const log = options.log ?? (() => {})
  const hasUsers = async (executor: Kysely<Database>) =>
    Boolean(await executor.selectFrom('users').select('id').limit(1).executeTakeFirst())
  if (await hasUsers(db)) {
    log('Demo data skipped: the database already has users')
    return { seeded: false }
  }

  const now = options.now ?? new Date()
  const random = createRandom(SEED)
  const { users, team } = generateUsers(random, now)
  const everyone = [...users, ...team]
  const experiences = generateExperiences(random, now, users)
  const { attendeeRows, waitlistRows } = planAttendance(random, now, users, experiences)
  const passwordHash = await hash(demoPassword)

  const seeded = await db.transaction().execute(async (trx) => {
    // Two processes seeding at once: the second waits, then sees the users and stops.
    await sql`SELECT pg_advisory_xact_lock(550055)`.execute(trx)
    if (await hasUsers(trx)) return false
    await insertInBatches(everyone, (batch) =>
      trx
        .insertInto('users')
        .values(batch.map((u) => u.row))
        .execute(),
    )
    await insertInBatches(everyone, (batch) =>
      trx
        .insertInto('credentials')
        .values(
          batch.map((u) => ({
            user_id: u.row.id,
            password_hash: passwordHash,
            updated_at: u.row.created_at,
          })),
        )
        .execute(),
    )
    const profiles = generateProfiles(users, team)
    await insertInBatches(profiles.profiles, (batch) => trx.insertInto('profiles').values(batch).execute())
    await insertInBatches(profiles.interests, (batch) => trx.insertInto('user_interests').values(batch).execute())
    await insertInBatches(profiles.prompts, (batch) => trx.insertInto('profile_prompts').values(batch).execute())
    await insertInBatches(experiences, (batch) =>
      trx
        .insertInto('experiences')
        .values(batch.map((e) => e.row))
        .execute(),
    )
    await insertInBatches(attendeeRows, (batch) =>
      trx.insertInto('experience_attendees').values(batch).execute(),
    )
    await insertInBatches(waitlistRows, (batch) =>
      trx.insertInto('waitlist_entries').values(batch).execute(),
    )
    await sql`
      UPDATE experiences e
      SET attendees_count = (SELECT count(*) FROM experience_attendees a WHERE a.experience_id = e.id)
    `.execute(trx)
    // As creating them through the API does (decision 060): each activity whose chat is still open
    // has its group chat, its host in it. (Activities that ended more than a week ago have none.)
    await sql`
      INSERT INTO message_channels (kind, experience_id, created_by, created_at)
      SELECT 'experience', e.id, e.host_id, e.created_at FROM experiences e
      WHERE e.host_id IS NOT NULL
        AND coalesce(least(e.canceled_at, coalesce(e.end_at, e.start_at + interval '120 minutes')) + interval '7 days' > ${now}, true)
    `.execute(trx)
    await sql`
      INSERT INTO channel_memberships (channel_id, user_id, is_accepted)
      SELECT ch.id, e.host_id, true FROM message_channels ch JOIN experiences e ON e.id = ch.experience_id
    `.execute(trx)
    // Medicare calls (decision 086): a made-up agency, so the demo and the end-to-end journeys have
    // one to agree to. Its number is one of the 555-01xx numbers reserved for fiction; nobody calls.
    await trx.insertInto('medicare_partners').values(demoMedicarePartner).execute()
    return true
  })

  if (seeded) {
    log(
      `Demo data seeded: ${users.length} members, ${experiences.length} activities, ` +
        `${attendeeRows.length} attendees, ${waitlistRows.length} notify-list entries ` +
        `(password for ${[...demoAccounts, ...Object.values(teamDemoAccounts)].join(', ')}: ${demoPassword})`,
    )
  } else {
    log('Demo data skipped: the database already has users')
  }
  return { seeded }
}
