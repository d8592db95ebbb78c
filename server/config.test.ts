import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from './config';

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
    expect(c.isProduction).toBe(true);
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

  test('a session secret of 32+ characters is accepted', () => {
    expect(loadConfig({ SESSION_SECRET: 'x'.repeat(32) }).SESSION_SECRET).toHaveLength(32);
  });
});
