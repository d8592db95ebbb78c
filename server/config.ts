import { z } from 'zod';
import path from 'node:path';

// The only reader of process.env: everything else receives a validated Config.
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
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: postgresUrl.optional(),
  ADMIN_PASSWORD: z.string().min(1).optional(),
  SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_API_HOST: z.string().optional(),
  STRIPE_API_PORT: z.coerce.number().int().optional(),
  STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
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
  PUBLIC_URL: httpUrl.optional(),
  FREE_SHIPPING_THRESHOLD: money.default(6000),
  TAX_RATE: z.coerce.number().min(0).max(1).default(0),
  SHIPPING_STANDARD: money.default(899),
  SHIPPING_EXPRESS: money.default(1599),
  SHIPPING_INTERNATIONAL: money.default(2499),
  HOLD_MINUTES: z.coerce.number().positive().default(10),
  /** Where the built storefront lives (default dist/client). */
  CLIENT_DIR: z.string().optional(),
  /** Which proxies may set X-Forwarded-*: 'loopback' (default), 'true', or a comma list of addresses/CIDRs. */
  TRUST_PROXY: z.string().default('loopback'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, 'DATA_DIR'> {
  DATA_DIR: string;
  isProduction: boolean;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const cfg = parsed.data;
  return { ...cfg, DATA_DIR: path.resolve(cfg.DATA_DIR), isProduction: cfg.NODE_ENV === 'production' };
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
