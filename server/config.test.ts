import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { configWarnings, loadConfig } from './config';

describe('loadConfig', () => {
  test('an empty environment runs offline with the documented defaults', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.HOST).toBe('0.0.0.0');
    expect(c.DATA_DIR).toBe(path.resolve('./data'));
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.SHOP_NAME).toBe('FIFTY');
    expect(c.FREE_SHIPPING_THRESHOLD).toBe(6000);
    expect(c.TAX_RATE).toBe(0);
    expect([c.SHIPPING_STANDARD, c.SHIPPING_EXPRESS, c.SHIPPING_INTERNATIONAL]).toEqual([899, 1599, 2499]);
    // Unset NODE_ENV is not production: a fresh clone opens the full demo shop on test payments.
    expect(c.NODE_ENV).toBe('development');
    expect(c.isProduction).toBe(false);
    expect(c.PAYMENTS).toBe('offline');
    expect(c.DEMO_DATA).toBe(true);
    expect(c.STRIPE_SECRET_KEY).toBeUndefined();
    expect(c.SMTP_URL).toBeUndefined();
    expect(c.S3_BUCKET).toBeUndefined();
  });

  test('values are parsed into their types', () => {
    const c = loadConfig({
      PORT: '8080',
      DATA_DIR: '/tmp/fifty-data',
      DATABASE_URL: 'postgres://u:p@db:5432/shop',
      FREE_SHIPPING_THRESHOLD: '75.50',
      TAX_RATE: '0.0825',
      SHOP_NAME: 'Fifty Test',
      PUBLIC_URL: 'https://fifty.example',
      NODE_ENV: 'development',
    });
    expect(c.PORT).toBe(8080);
    expect(c.DATA_DIR).toBe('/tmp/fifty-data');
    expect(c.DATABASE_URL).toBe('postgres://u:p@db:5432/shop');
    expect(c.FREE_SHIPPING_THRESHOLD).toBe(7550);
    expect(c.TAX_RATE).toBeCloseTo(0.0825);
    expect(c.SHOP_NAME).toBe('Fifty Test');
    expect(c.isProduction).toBe(false);
  });

  test.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['DATABASE_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://u@db/shop'],
    ['SESSION_SECRET', 'short'],
    ['FREE_SHIPPING_THRESHOLD', '$60'],
    ['FREE_SHIPPING_THRESHOLD', '-5'],
    ['FREE_SHIPPING_THRESHOLD', '60.999'],
    ['TAX_RATE', '8%'],
    ['TAX_RATE', '1.5'],
    ['PUBLIC_URL', 'fifty.example'],
    ['PUBLIC_URL', 'javascript:alert(1)'],
    ['S3_ENDPOINT', 'localhost:9000'],
    ['NODE_ENV', 'staging'],
    ['LOG_LEVEL', 'loud'],
    ['HOLD_MINUTES', '0'],
    ['SHOP_NAME', ''],
    ['ADMIN_PASSWORD', 'x'],
    ['ADMIN_PASSWORD', '12345678901'],
    ['PAYMENTS', 'paypal'],
    ['PAYMENTS', 'stripe'],
    ['DEMO_DATA', 'yes'],
    ['DROP_RAFFLE_MINUTES', '0'],
    ['DROP_WINDOW_MINUTES', 'an hour'],
    ['DROP_PLACES_PER_ADDRESS', '2.5'],
    ['DROP_PLACES_PER_ADDRESS', '0'],
    ['DROP_PASS_MINUTES', '-1'],
  ])('%s=%j is refused with a readable message naming the variable', (name, value) => {
    let message = '';
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^Invalid configuration:/);
    expect(message).toContain(`${name}:`);
    // Readable: one line per problem, no JSON dump of zod internals.
    expect(message).not.toMatch(/[{}[\]]/);
  });

  test('SHOP_TIME_ZONE: UTC by default, an IANA name taken, an unknown one refused with a message', () => {
    expect(loadConfig({}).SHOP_TIME_ZONE).toBe('UTC');
    expect(loadConfig({ SHOP_TIME_ZONE: 'Europe/Berlin' }).SHOP_TIME_ZONE).toBe('Europe/Berlin');
    expect(() => loadConfig({ SHOP_TIME_ZONE: 'Mars/Olympus_Mons' })).toThrow(
      /SHOP_TIME_ZONE: must be an IANA time zone name such as Europe\/Berlin or America\/New_York/,
    );
  });

  test('SHOP_COUNTRY: US by default, a country we ship to taken in any case, any other refused with a message', () => {
    expect(loadConfig({}).SHOP_COUNTRY).toBe('US');
    expect(loadConfig({ SHOP_COUNTRY: ' gb ' }).SHOP_COUNTRY).toBe('GB');
    expect(() => loadConfig({ SHOP_COUNTRY: 'ZZ' })).toThrow(
      /SHOP_COUNTRY: must be the two-letter code of a country the shop ships to/,
    );
  });

  test('every problem is listed at once', () => {
    expect(() => loadConfig({ PORT: 'x', TAX_RATE: 'y', DATABASE_URL: 'z' })).toThrow(
      /PORT:[\s\S]*TAX_RATE:|TAX_RATE:[\s\S]*PORT:/,
    );
    try {
      loadConfig({ PORT: 'x', TAX_RATE: 'y', DATABASE_URL: 'z' });
    } catch (err) {
      expect((err as Error).message.split('\n').filter((l) => l.startsWith('  '))).toHaveLength(3);
    }
  });

  test('the waiting room settings default to 10 / 60 / 50 / 10 and take other values', () => {
    const d = loadConfig({});
    expect([d.DROP_RAFFLE_MINUTES, d.DROP_WINDOW_MINUTES, d.DROP_PLACES_PER_ADDRESS, d.DROP_PASS_MINUTES]).toEqual([10, 60, 50, 10]);
    const c = loadConfig({ DROP_RAFFLE_MINUTES: '5', DROP_WINDOW_MINUTES: '0.5', DROP_PLACES_PER_ADDRESS: '200', DROP_PASS_MINUTES: '15' });
    expect([c.DROP_RAFFLE_MINUTES, c.DROP_WINDOW_MINUTES, c.DROP_PLACES_PER_ADDRESS, c.DROP_PASS_MINUTES]).toEqual([5, 0.5, 200, 15]);
  });

  test('a session secret of 32+ characters is accepted', () => {
    expect(loadConfig({ SESSION_SECRET: 'x'.repeat(32) }).SESSION_SECRET).toHaveLength(32);
  });

  test('ADMIN_PASSWORD needs 12 characters, with a message that says so', () => {
    expect(() => loadConfig({ ADMIN_PASSWORD: 'short-pass1' })).toThrow(
      'ADMIN_PASSWORD: ADMIN_PASSWORD must be at least 12 characters',
    );
    expect(loadConfig({ ADMIN_PASSWORD: 'twelve-chars' }).ADMIN_PASSWORD).toBe('twelve-chars');
  });
});

describe('loadConfig with NODE_ENV=production', () => {
  const stripe = { STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_PUBLISHABLE_KEY: 'pk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
  const base = { NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example' };
  const messageOf = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return '';
    } catch (err) {
      return (err as Error).message;
    }
  };

  test('refuses to start on the offline test gateway unless PAYMENTS=offline says so', () => {
    const message = messageOf(base);
    expect(message).toMatch(/^Invalid configuration:/);
    expect(message).toContain('STRIPE_SECRET_KEY: production takes real payments');
    expect(message).toContain('PAYMENTS=offline');
    // Half a Stripe setup is refused too, naming what is missing.
    expect(messageOf({ ...base, STRIPE_SECRET_KEY: 'sk_live_x' })).toContain(
      'STRIPE_PUBLISHABLE_KEY: production takes real payments: set STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET',
    );
    expect(loadConfig({ ...base, ...stripe }).PAYMENTS).toBe('stripe');
    const offline = loadConfig({ ...base, PAYMENTS: 'offline' });
    expect(offline.PAYMENTS).toBe('offline');
    expect(offline.isProduction).toBe(true);
  });

  test('requires PUBLIC_URL', () => {
    const message = messageOf({ NODE_ENV: 'production', ...stripe });
    expect(message).toMatch(/^Invalid configuration:\n {2}PUBLIC_URL: required when NODE_ENV=production/);
    expect(message).not.toMatch(/[{}[\]]/);
  });

  test('every problem is listed at once, schema and production rules together', () => {
    const message = messageOf({ NODE_ENV: 'production', ADMIN_PASSWORD: 'short', PORT: 'x' });
    const lines = message.split('\n').filter((l) => l.startsWith('  '));
    expect(lines.map((l) => l.trim().split(':')[0]).sort()).toEqual(
      ['ADMIN_PASSWORD', 'PORT', 'PUBLIC_URL', 'STRIPE_SECRET_KEY'].sort(),
    );
  });

  test('the demo catalogue is off by default in production and can be asked for', () => {
    expect(loadConfig({ ...base, ...stripe }).DEMO_DATA).toBe(false);
    expect(loadConfig({ ...base, ...stripe, DEMO_DATA: 'true' }).DEMO_DATA).toBe(true);
    expect(loadConfig({ DEMO_DATA: 'false' }).DEMO_DATA).toBe(false);
  });

  test('refuses the test-only Stripe API override, which would send payments to another host', () => {
    expect(messageOf({ ...base, ...stripe, TEST_STRIPE_API_HOST: 'evil.example' })).toContain(
      'TEST_STRIPE_API_HOST: a test-only setting; unset it in production',
    );
    expect(loadConfig({ ...stripe, TEST_STRIPE_API_HOST: '127.0.0.1' }).TEST_STRIPE_API_HOST).toBe('127.0.0.1');
  });

  test('refuses a movable clock in production: nobody may move a real shop through its drops', () => {
    expect(messageOf({ ...base, ...stripe, TEST_CLOCK_FILE: '/tmp/shift' })).toContain(
      'TEST_CLOCK_FILE: a test-only setting; unset it in production',
    );
    expect(loadConfig({ TEST_CLOCK_FILE: '/tmp/shift' }).TEST_CLOCK_FILE).toBe('/tmp/shift');
  });

  test('PAYMENTS=offline wins over Stripe keys; Stripe keys alone choose Stripe', () => {
    expect(loadConfig({ ...stripe }).PAYMENTS).toBe('stripe');
    expect(loadConfig({ ...stripe, PAYMENTS: 'offline' }).PAYMENTS).toBe('offline');
  });
});

describe('configWarnings', () => {
  test('warns loudly about test payments and about trusting every proxy', () => {
    expect(configWarnings(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://s.example', PAYMENTS: 'offline' }))).toEqual([
      expect.stringMatching(/^PAYMENTS=offline in production: the built-in TEST gateway/),
    ]);
    expect(configWarnings(loadConfig({ TRUST_PROXY: 'true', STRIPE_SECRET_KEY: 'sk' }))).toEqual([
      expect.stringMatching(/^TRUST_PROXY=true trusts X-Forwarded-For from any peer/),
    ]);
    expect(
      configWarnings(loadConfig({ STRIPE_SECRET_KEY: 'sk', STRIPE_PUBLISHABLE_KEY: 'pk', STRIPE_WEBHOOK_SECRET: 'wh' })),
    ).toEqual([]);
  });
});
