import { z } from 'zod';
import { isKnownCountry } from '../common/domain/address-format';
import path from 'node:path';
import { isTimeZone } from './lib/shop-time';

// The only reader of process.env: everything else receives a validated Config.

/** Admin passwords shorter than this are refused everywhere (ADMIN_PASSWORD, the password script). */
export const ADMIN_PASSWORD_MIN_LENGTH = 12;

const money = z
  .string()
  .regex(/^\d+(\.\d{1,2})?$/, 'must be a dollar amount like 60 or 60.00')
  .transform((v) => Math.round(Number(v) * 100));

/** A URL with one of the given schemes; one readable message whatever is wrong with it. */
function urlWith(pattern: RegExp, message: string) {
  return z.string().refine((v) => {
    try {
      return pattern.test(new URL(v).protocol);
    } catch {
      return false;
    }
  }, message);
}
const httpUrl = urlWith(/^https?:$/, 'must be an http:// or https:// URL');
const postgresUrl = urlWith(/^postgres(ql)?:$/, 'must be a postgres:// or postgresql:// URL');

const envSchema = z.object({
  // Unset is not production: `npm install && npm start` opens the demo shop; the strict checks below
  // apply only when an operator sets NODE_ENV=production explicitly.
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: postgresUrl.optional(),
  ADMIN_PASSWORD: z.string().min(ADMIN_PASSWORD_MIN_LENGTH, `ADMIN_PASSWORD must be at least ${ADMIN_PASSWORD_MIN_LENGTH} characters`).optional(),
  SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  /** 'offline' takes test payments only (the built-in gateway); default: Stripe when its key is set. */
  PAYMENTS: z.enum(['stripe', 'offline']).optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  // TEST ONLY: point the Stripe SDK at a local fake (tests/support/fake-stripe-server.ts). Never set in
  // production, where they would send card payments to another host: refused there (crossChecks).
  TEST_STRIPE_API_HOST: z.string().optional(),
  TEST_STRIPE_API_PORT: z.coerce.number().int().optional(),
  TEST_STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: httpUrl.optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Public base URL of the bucket's objects (CDN, R2 public domain); defaults to S3_ENDPOINT/S3_BUCKET. */
  S3_PUBLIC_URL: z.string().url().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('FIFTY <orders@fifty.local>'),
  SHOP_NAME: z.string().min(1).default('FIFTY'),
  /** The time zone the mails write times in ('kept until 18:05 CET'): an IANA name; default UTC. */
  SHOP_TIME_ZONE: z
    .string()
    .default('UTC')
    .refine(isTimeZone, 'must be an IANA time zone name such as Europe/Berlin or America/New_York'),
  /** The support inbox shown on every page (Contact, policies, size guide). */
  SUPPORT_EMAIL: z.string().email('SUPPORT_EMAIL must be an e-mail address').default('support@fifty.local'),
  /** Social profile links in the footer; each is hidden when unset. */
  SOCIAL_INSTAGRAM_URL: httpUrl.optional(),
  SOCIAL_TIKTOK_URL: httpUrl.optional(),
  SOCIAL_X_URL: httpUrl.optional(),
  PUBLIC_URL: httpUrl.optional(),
  /**
   * The shop's home country (ISO 3166-1 alpha-2, one we ship to): standard and express shipping there, the
   * international rate everywhere else (docs/decisions/023-international-addresses.md).
   */
  SHOP_COUNTRY: z
    .string()
    .trim()
    .toUpperCase()
    .default('US')
    .refine(isKnownCountry, 'must be the two-letter code of a country the shop ships to, such as US, GB or FR'),
  FREE_SHIPPING_THRESHOLD: money.default(6000),
  TAX_RATE: z.coerce.number().min(0).max(1).default(0),
  SHIPPING_STANDARD: money.default(899),
  SHIPPING_EXPRESS: money.default(1599),
  SHIPPING_INTERNATIONAL: money.default(2499),
  HOLD_MINUTES: z.coerce.number().positive().default(10),
  /** How long a returned piece is kept for the first 'Notify me' subscriber mailed about it (ADR 011). */
  ALERT_RESERVE_MINUTES: z.coerce.number().positive().max(1440).default(15),
  /**
   * Open event streams one instance serves, the waiting room's and live stock's together (one hub,
   * server/lib/event-stream-hub.ts); more are answered 503 + Retry-After. Default 10,000.
   */
  STREAMS_PER_INSTANCE: z.coerce.number().int().min(1).max(100_000).optional(),
  /** The older name of STREAMS_PER_INSTANCE (it capped live stock alone); read when that is not set. */
  LIVE_STOCK_MAX_STREAMS: z.coerce.number().int().min(1).max(100_000).optional(),
  /**
   * Open event streams (waiting room and live stock together) one network address holds on one instance
   * (IPv6 by IPV6_PREFIX); more are answered 429 + Retry-After. 50 shoppers behind one NAT each get one.
   */
  STREAMS_PER_ADDRESS: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').max(100_000, 'must be at most 100000').default(50),
  /** Where the built storefront lives (default dist/client). */
  CLIENT_DIR: z.string().optional(),
  /**
   * Which proxies may set X-Forwarded-*: 'loopback' (default), 'true', or a comma list of addresses/CIDRs.
   * Their sockets are also exempt from the cap of open sockets per address (plugins/http-limits.ts): they
   * carry many clients, and the proxy caps those itself (docs/operations.md, "In front of the shop").
   */
  TRUST_PROXY: z.string().default('loopback'),
  /** Route rate limits (docs/security.md): 'off' when a proxy or CDN in front does the limiting. */
  RATE_LIMITS: z.enum(['on', 'off'], { message: 'must be on or off' }).default('on'),
  /** Multiplies every per-address rate limit (one address for many shoppers: a large NAT, a load test). */
  RATE_LIMIT_ADDRESS_FACTOR: z.coerce.number().positive().max(10_000).default(1),
  /**
   * IPv6 addresses count per network of this prefix (rate limits, raffle places and rounds, stream caps):
   * a subscriber is delegated a whole /48–/56, so per address or per /64 one person is thousands (docs/security.md).
   */
  IPV6_PREFIX: z.coerce
    .number({ message: 'must be a whole number' })
    .int('must be a whole number')
    .min(16, 'must be at least 16')
    .max(128, 'must be at most 128')
    .default(48),
  /** Proof-of-work size: tries a solve takes on average (ADR 009). Lower only for load tests. */
  POW_TRIES: z.coerce.number().int().min(2).max(1_000_000).default(2000),
  /** The waiting room of a drop opens this long before its release; everyone who joins before the release is in its raffle (ADR 010). */
  DROP_RAFFLE_MINUTES: z.coerce.number({ message: 'must be a number of minutes' }).positive('must be more than 0').max(24 * 60, 'must be at most 1440').default(10),
  /** After a release, an admission pass is needed to buy until the edition sells out or this long has passed. */
  DROP_WINDOW_MINUTES: z.coerce.number({ message: 'must be a number of minutes' }).positive('must be more than 0').max(7 * 24 * 60, 'must be at most 10080').default(60),
  /** Waiting-room places one network address (IPv6 by /64) may take per drop: 50 shoppers behind one NAT all get in. */
  DROP_PLACES_PER_ADDRESS: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').max(100_000, 'must be at most 100000').default(50),
  /** How long an admission pass works after the shopper is let in. */
  DROP_PASS_MINUTES: z.coerce.number({ message: 'must be a number of minutes' }).positive('must be more than 0').max(24 * 60, 'must be at most 1440').default(10),
  /** Share of admitted shoppers expected never to buy: live admissions may reach free pieces × (1 + this) (ADR 010). */
  DROP_OVERBOOKING: z.coerce.number({ message: 'must be a number' }).min(0, 'must be at least 0').max(5, 'must be at most 5').default(0.2),
  /** Test-only: this instance's own clock runs this many ms off (the clock-skew bench); refused in production. */
  TEST_CLOCK_OFFSET_MS: z.coerce.number({ message: 'must be a whole number of ms' }).int('must be a whole number of ms').default(0),
  /** Test-only: a file holding ms the shop's drop-day clock is moved forward by, read at each use (browser tests that must not wait out a pass or a draw's window); refused in production. */
  TEST_CLOCK_FILE: z.string().min(1).max(4096).optional(),
  /** Test-only: after the provider refunds, the refund's id is written here and the refund waits for ever, before the ledger write (the refund crash test); refused in production. */
  TEST_REFUND_PAUSE_FILE: z.string().min(1).max(4096).optional(),
  /** Test-only: the refund reconciliation runs this often and takes refunds at least this old (ms; else a minute); refused in production. */
  TEST_REFUND_RECONCILE_MS: z.coerce.number({ message: 'must be a whole number of ms' }).int('must be a whole number of ms').positive('must be more than 0').optional(),
  /** Seed the demo catalogue and the FALL15 code on a fresh database (default: true unless production). */
  DEMO_DATA: z.enum(['true', 'false'], { message: 'must be true or false' }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, 'DATA_DIR' | 'PAYMENTS' | 'DEMO_DATA'> {
  DATA_DIR: string;
  /** The gateway in use: 'offline' is the built-in test gateway (orders are marked as test orders). */
  PAYMENTS: 'stripe' | 'offline';
  DEMO_DATA: boolean;
  isProduction: boolean;
}

type RawEnv = Record<string, string | undefined>;
const isSet = (v: string | undefined) => v !== undefined && v !== '';

const TEST_ONLY_SETTINGS = ['TEST_STRIPE_API_HOST', 'TEST_STRIPE_API_PORT', 'TEST_STRIPE_API_PROTOCOL', 'TEST_CLOCK_OFFSET_MS', 'TEST_CLOCK_FILE', 'TEST_REFUND_PAUSE_FILE', 'TEST_REFUND_RECONCILE_MS'];

/** Rules that span several variables; one `NAME: message` line each, listed with the schema's. */
function crossChecks(env: RawEnv): string[] {
  const problems: string[] = [];
  if (env.PAYMENTS === 'stripe' && !isSet(env.STRIPE_SECRET_KEY))
    problems.push('PAYMENTS: stripe needs STRIPE_SECRET_KEY');
  if (env.NODE_ENV !== 'production') return problems;
  for (const k of TEST_ONLY_SETTINGS)
    if (isSet(env[k])) problems.push(`${k}: a test-only setting; unset it in production`);
  if (!isSet(env.PUBLIC_URL))
    problems.push(
      "PUBLIC_URL: required when NODE_ENV=production: the shop's own address, e.g. https://shop.example; links, sitemap and the allowed Origin are built from it",
    );
  if (env.PAYMENTS !== 'offline') {
    const missing = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'].filter((k) => !isSet(env[k]));
    if (missing.length > 0)
      problems.push(
        `${missing[0]}: production takes real payments: set ${missing.join(', ')}; or set PAYMENTS=offline to run on test payments only`,
      );
  }
  return problems;
}

export function loadConfig(env: RawEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)),
    ...crossChecks(env),
  ];
  if (!parsed.success || problems.length > 0) {
    throw new Error(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  const cfg = parsed.data;
  const isProduction = cfg.NODE_ENV === 'production';
  return {
    ...cfg,
    DATA_DIR: path.resolve(cfg.DATA_DIR),
    PAYMENTS: cfg.PAYMENTS ?? (cfg.STRIPE_SECRET_KEY ? 'stripe' : 'offline'),
    DEMO_DATA: cfg.DEMO_DATA === undefined ? !isProduction : cfg.DEMO_DATA === 'true',
    isProduction,
  };
}

/** Start-up warnings for settings that are allowed but risky (logged loudly at boot). */
export function configWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (config.PAYMENTS === 'offline')
    warnings.push(
      config.isProduction
        ? 'PAYMENTS=offline in production: the built-in TEST gateway takes orders that are never charged (card 4242…). Every order is marked as a test order. Set the STRIPE_* keys to take real payments.'
        : 'Payments run on the built-in offline TEST gateway: orders are never charged and are marked as test orders. Set the STRIPE_* keys to take real payments.',
    );
  if (config.TRUST_PROXY.trim() === 'true')
    warnings.push(
      'TRUST_PROXY=true trusts X-Forwarded-For from any peer: a client can pick its own address and escape the login slow-down. Name your proxy instead (e.g. TRUST_PROXY=10.0.0.2).',
    );
  return warnings;
}

/** For entry points: a bad environment prints its readable message (no stack trace) and exits. */
export function loadConfigOrExit(env: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}
