import { describe, expect, it } from 'vitest'
import { ConfigError, envSchema, parseEnv as parseProcessEnv } from './env.ts'

/** parseEnv with plain variables (NodeJS.ProcessEnv insists on a typed NODE_ENV). */
function parseEnv(variables: Record<string, string>) {
  return parseProcessEnv(variables as NodeJS.ProcessEnv)
}

const secret = 'x'.repeat(40)
/** Everything production needs with the built-in identity provider. */
const production = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://circle55.example',
  SESSION_SECRET: secret,
  SMTP_URL: 'smtp://mail.example:587',
  OIDC_COOKIE_KEYS: 'key-one,key-two',
  OIDC_JWKS: '{"keys":[]}',
  OIDC_CLIENT_SECRET: secret,
  STRIPE_SECRET_KEY: 'sk_live_circle55',
  STRIPE_WEBHOOK_SECRET: 'whsec_circle55',
}

function configError(source: Record<string, string>): ConfigError {
  try {
    parseEnv(source)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return error as ConfigError
  }
  throw new Error('parseEnv accepted the configuration')
}

describe('parseEnv', () => {
  it('names the variable when PORT is not a port number', () => {
    for (const PORT of ['abc', '70000', '-1', '3000.5']) {
      expect(configError({ PORT }).message).toMatch(/\bPORT\b/)
    }
  })

  it('names each bad variable', () => {
    const message = configError({
      NODE_ENV: 'staging',
      LOG_LEVEL: 'loud',
      DATABASE_URL: 'not a url',
    }).message
    expect(message).toMatch(/NODE_ENV/)
    expect(message).toMatch(/LOG_LEVEL/)
    expect(message).toMatch(/DATABASE_URL/)
  })

  it('rejects a short session secret, naming it', () => {
    expect(configError({ SESSION_SECRET: 'short' }).message).toMatch(/SESSION_SECRET.*32/)
  })

  it('applies the development defaults', () => {
    const env = parseEnv({})
    expect(env).toMatchObject({
      NODE_ENV: 'development',
      PORT: 3000,
      PUBLIC_URL: 'http://localhost:3000',
      API_AUDIENCE: 'http://localhost:3000/api/',
      auth: 'builtin',
      isProduction: false,
      SEED_DEMO_DATA: true,
      LOG_LEVEL: 'info',
      TRUST_PROXY: 0,
    })
    expect(Object.isFrozen(env)).toBe(true)
  })

  it('gives the database 5 s to connect and 10 s per statement unless told otherwise', () => {
    expect(parseEnv({})).toMatchObject({ DATABASE_CONNECT_TIMEOUT_MS: 5_000, DATABASE_STATEMENT_TIMEOUT_MS: 10_000 })
    expect(parseEnv({ DATABASE_CONNECT_TIMEOUT_MS: '2000', DATABASE_STATEMENT_TIMEOUT_MS: '0' })).toMatchObject({
      DATABASE_CONNECT_TIMEOUT_MS: 2_000,
      DATABASE_STATEMENT_TIMEOUT_MS: 0,
    })
    for (const value of ['-1', 'soon', '1.5']) {
      expect(configError({ DATABASE_CONNECT_TIMEOUT_MS: value }).message).toMatch(/DATABASE_CONNECT_TIMEOUT_MS/)
      expect(configError({ DATABASE_STATEMENT_TIMEOUT_MS: value }).message).toMatch(/DATABASE_STATEMENT_TIMEOUT_MS/)
    }
  })

  it('derives PUBLIC_URL and API_AUDIENCE from PORT', () => {
    const env = parseEnv({ PORT: '4100' })
    expect(env.PORT).toBe(4100)
    expect(env.PUBLIC_URL).toBe('http://localhost:4100')
    expect(env.API_AUDIENCE).toBe('http://localhost:4100/api/')
  })

  it('drops a trailing slash from PUBLIC_URL and derives the audience from it', () => {
    const env = parseEnv({ PUBLIC_URL: 'https://circle55.example/' })
    expect(env.PUBLIC_URL).toBe('https://circle55.example')
    expect(env.API_AUDIENCE).toBe('https://circle55.example/api/')
  })

  it('treats empty strings as unset', () => {
    const env = parseEnv({ PORT: '', PUBLIC_URL: '', DATABASE_URL: '', SEED_DEMO_DATA: '' })
    expect(env.PORT).toBe(3000)
    expect(env.PUBLIC_URL).toBe('http://localhost:3000')
    expect(env.DATABASE_URL).toBeUndefined()
  })

  it('takes each outside link from its variable, its default when unset, and none when set empty (decision 088)', () => {
    expect(parseEnv({}).outsideLinks).toEqual({
      blog: null,
      helpCenter: '/help',
      hostsProgram: '/help/hosting-an-activity',
      marketingSite: null,
      badgeInfo: '/help/safety-and-scams#verified-badge',
      appStore: null,
    })
    const set = parseEnv({ BLOG_URL: 'https://blog.circle55.example/', HELP_CENTER_URL: '', APP_STORE_URL: 'https://apps.apple.com/us/app/circle-55/id1', HOSTS_PROGRAM_URL: '/company/about' }).outsideLinks
    expect(set).toEqual({
      blog: 'https://blog.circle55.example/',
      helpCenter: null,
      hostsProgram: '/company/about',
      marketingSite: null,
      badgeInfo: '/help/safety-and-scams#verified-badge',
      appStore: 'https://apps.apple.com/us/app/circle-55/id1',
    })
    expect(configError({ BLOG_URL: 'javascript:alert(1)' }).message).toMatch(/BLOG_URL: must be an http\(s\) URL or a path/)
    expect(configError({ BADGE_INFO_URL: '//evil.example' }).message).toMatch(/BADGE_INFO_URL/)
  })

  it('reads booleans', () => {
    expect(parseEnv({ SEED_DEMO_DATA: 'false' }).SEED_DEMO_DATA).toBe(false)
    expect(parseEnv({ SEED_DEMO_DATA: 'no' }).SEED_DEMO_DATA).toBe(false)
    expect(parseEnv({ SEED_DEMO_DATA: '1' }).SEED_DEMO_DATA).toBe(true)
    expect(configError({ SEED_DEMO_DATA: 'maybe' }).message).toMatch(/SEED_DEMO_DATA/)
  })

  it('serves the dev outbox to this machine only unless DEV_OUTBOX says otherwise', () => {
    expect(parseEnv({}).DEV_OUTBOX).toBe('loopback')
    expect(parseEnv({ DEV_OUTBOX: 'open' }).DEV_OUTBOX).toBe('open')
    expect(parseEnv({ DEV_OUTBOX: 'off' }).DEV_OUTBOX).toBe('off')
    expect(configError({ DEV_OUTBOX: 'yes' }).message).toMatch(/DEV_OUTBOX/)
  })

  it('keeps an explicit API_AUDIENCE', () => {
    expect(parseEnv({ API_AUDIENCE: 'circle55-api' }).API_AUDIENCE).toBe('circle55-api')
  })

  it('switches to Auth0 when all three Auth0 variables are set', () => {
    const env = parseEnv({
      AUTH0_DOMAIN: 'circle55.us.auth0.com',
      AUTH0_CLIENT_ID: 'client',
      AUTH0_CLIENT_SECRET: 'secret',
      AUTH0_AUDIENCE: 'https://api.circle55.example',
    })
    expect(env.auth).toBe('auth0')
    expect(env.API_AUDIENCE).toBe('https://api.circle55.example')
  })

  it('refuses a partial Auth0 configuration, naming the variables', () => {
    const message = configError({ AUTH0_DOMAIN: 'circle55.us.auth0.com' }).message
    expect(message).toMatch(/AUTH0_DOMAIN/)
    expect(message).toMatch(/AUTH0_CLIENT_ID/)
    expect(message).toMatch(/AUTH0_CLIENT_SECRET/)
  })

  it('takes a VAPID key pair only whole and well-formed, and a mailto: or https subject', () => {
    const publicKey = `B${'a'.repeat(86)}`
    const privateKey = 'k'.repeat(43)
    const env = parseEnv({ VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey, VAPID_SUBJECT: 'mailto:push@circle55.example' })
    expect([env.VAPID_PUBLIC_KEY, env.VAPID_PRIVATE_KEY, env.VAPID_SUBJECT]).toEqual([publicKey, privateKey, 'mailto:push@circle55.example'])
    expect(configError({ VAPID_PUBLIC_KEY: publicKey }).message).toMatch(/VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY/)
    expect(configError({ VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: privateKey }).message).toMatch(/VAPID_PUBLIC_KEY/)
    expect(configError({ VAPID_SUBJECT: 'http://circle55.example' }).message).toMatch(/VAPID_SUBJECT/)
  })

  it('takes the built-in flags unless FLAGS_PROVIDER names GrowthBook, which needs its host and client key', () => {
    expect(parseEnv({})).toMatchObject({ FLAGS_PROVIDER: 'builtin', FLAGS_REFRESH_SECONDS: 30 })
    expect(configError({ FLAGS_PROVIDER: 'growthbook' }).message).toMatch(/FLAGS_PROVIDER=growthbook needs GROWTHBOOK_API_HOST .* and GROWTHBOOK_CLIENT_KEY/)
    expect(configError({ FLAGS_PROVIDER: 'growthbook', GROWTHBOOK_CLIENT_KEY: 'sdk-abc' }).message).toMatch(/GROWTHBOOK_API_HOST/)
    expect(configError({ FLAGS_PROVIDER: 'unleash' }).message).toMatch(/FLAGS_PROVIDER/)
    expect(configError({ FLAGS_PROVIDER: 'growthbook', GROWTHBOOK_API_HOST: 'not a url', GROWTHBOOK_CLIENT_KEY: 'sdk-abc' }).message).toMatch(/GROWTHBOOK_API_HOST/)
    expect(parseEnv({ FLAGS_PROVIDER: 'growthbook', GROWTHBOOK_API_HOST: 'https://cdn.growthbook.io', GROWTHBOOK_CLIENT_KEY: 'sdk-abc', FLAGS_REFRESH_SECONDS: '10' })).toMatchObject({
      FLAGS_PROVIDER: 'growthbook',
      GROWTHBOOK_API_HOST: 'https://cdn.growthbook.io',
      FLAGS_REFRESH_SECONDS: 10,
    })
  })

  it('needs the Twilio sid and token together, and a sender with them', () => {
    expect(configError({ TWILIO_ACCOUNT_SID: 'AC123' }).message).toMatch(/TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN/)
    expect(configError({ TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'token' }).message).toMatch(/TWILIO_FROM_NUMBER or TWILIO_MESSAGING_SERVICE_SID/)
    expect(parseEnv({ TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'token', TWILIO_FROM_NUMBER: '+15035550100' })).toMatchObject({ TWILIO_FROM_NUMBER: '+15035550100' })
  })

  it('takes Stripe’s key with the payments webhook secret, the Identity one or both, and neither secret alone', () => {
    expect(parseEnv({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' })).toMatchObject({ PAYMENTS: 'on', STRIPE_WEBHOOK_SECRET: 'whsec_1' })
    expect(parseEnv({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_IDENTITY_WEBHOOK_SECRET: 'whsec_2' }).STRIPE_WEBHOOK_SECRET).toBeUndefined()
    for (const alone of [{ STRIPE_SECRET_KEY: 'sk_test_1' }, { STRIPE_WEBHOOK_SECRET: 'whsec_1' }, { STRIPE_IDENTITY_WEBHOOK_SECRET: 'whsec_2' }] as Record<string, string>[]) {
      expect(configError(alone).message).toMatch(/STRIPE_SECRET_KEY must be set together with STRIPE_WEBHOOK_SECRET/)
    }
  })

  describe('in production', () => {
    it('starts with every secret set', () => {
      const env = parseEnv(production)
      expect(env).toMatchObject({
        isProduction: true,
        auth: 'builtin',
        SEED_DEMO_DATA: false,
        PUBLIC_URL: 'https://circle55.example',
        API_AUDIENCE: 'https://circle55.example/api/',
      })
    })

    it('refuses to start without secrets, naming each missing one', () => {
      const message = configError({ NODE_ENV: 'production' }).message
      expect(message).toMatch(/production/i)
      for (const name of [
        'SESSION_SECRET',
        'PUBLIC_URL',
        'SMTP_URL',
        'OIDC_COOKIE_KEYS',
        'OIDC_JWKS',
        'OIDC_CLIENT_SECRET',
      ]) {
        expect(message).toContain(name)
      }
    })

    it('refuses to start with payments on and no Stripe keys (the built-in bank takes only test cards), and starts with payments off', () => {
      const { STRIPE_SECRET_KEY: _key, STRIPE_WEBHOOK_SECRET: _secret, ...withoutStripe } = production
      expect(configError(withoutStripe).message).toMatch(/STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: required in production while PAYMENTS is on/)
      expect(parseEnv({ ...withoutStripe, PAYMENTS: 'off' })).toMatchObject({ PAYMENTS: 'off', isProduction: true })
    })

    it('refuses to start when only the session secret is missing', () => {
      const { SESSION_SECRET: _omitted, ...withoutSecret } = production
      const message = configError(withoutSecret).message
      expect(message).toContain('SESSION_SECRET')
      expect(message).not.toContain('SMTP_URL')
    })

    it('never serves the dev outbox, and refuses a DEV_OUTBOX that asks for it', () => {
      expect(parseEnv(production).DEV_OUTBOX).toBe('off')
      expect(parseEnv({ ...production, DEV_OUTBOX: 'off' }).DEV_OUTBOX).toBe('off')
      for (const DEV_OUTBOX of ['open', 'loopback']) {
        expect(configError({ ...production, DEV_OUTBOX }).message).toMatch(/DEV_OUTBOX/)
      }
    })

    it('refuses to load demo data', () => {
      const message = configError({ ...production, SEED_DEMO_DATA: 'true' }).message
      expect(message).toContain('SEED_DEMO_DATA')
    })

    it('does not require the built-in provider secrets with Auth0', () => {
      const { OIDC_COOKIE_KEYS: _a, OIDC_JWKS: _b, OIDC_CLIENT_SECRET: _c, ...rest } = production
      const env = parseEnv({
        ...rest,
        AUTH0_DOMAIN: 'circle55.us.auth0.com',
        AUTH0_CLIENT_ID: 'client',
        AUTH0_CLIENT_SECRET: 'secret',
      })
      expect(env.auth).toBe('auth0')
      expect(env.API_AUDIENCE).toBe('https://circle55.example/api/')
    })

    it('never prints secret values in its errors', () => {
      const message = configError({
        ...production,
        SEED_DEMO_DATA: 'true',
        SESSION_SECRET: 'y'.repeat(40),
      }).message
      expect(message).not.toContain('y'.repeat(40))
    })
  })
})

describe('documentation', () => {
  it('documents every variable in .env.example and the README', async () => {
    const { readFile } = await import('node:fs/promises')
    const example = await readFile(new URL('../.env.example', import.meta.url), 'utf8')
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8')
    const undocumented = Object.keys(envSchema.shape).filter(
      (name) => !new RegExp(`^#? ?${name}=`, 'm').test(example) || !readme.includes(`\`${name}\``),
    )
    expect(undocumented).toEqual([])
  })
})
