import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createKeyService } from './keys';
import { createOrderLinks } from '../modules/orders/order-links';
import { createPassSigner } from '../modules/drops/admission-pass';

const SECRET = 'test-session-secret-test-session-secret-0123';

describe('key service', () => {
  it('derives HMAC-SHA256(secret, purpose), one key per purpose, the same in every instance', () => {
    const a = createKeyService(SECRET);
    const b = createKeyService(SECRET);
    expect(a.derive('fifty:order-links').equals(b.derive('fifty:order-links'))).toBe(true);
    expect(a.derive('fifty:order-links').equals(a.derive('fifty:drop-address'))).toBe(false);
    expect(createKeyService('another-shop-secret').derive('fifty:order-links').equals(a.derive('fifty:order-links'))).toBe(false);
    expect(a.derive('x').equals(crypto.createHmac('sha256', SECRET).update('x').digest())).toBe(true);
  });

  it('keeps every key the shop derived before it (stored hashes, mailed links, issued cookies stay valid)', () => {
    const keys = createKeyService(SECRET);
    // Computed with each module's own formula before the key service existed.
    const pinned: Record<string, string> = {
      'purchase-limit identities': 'f44ea1ef543c617582d7675bd3067da1e9f24edbf9bc23091aa7d0f91ea0b107',
      'newsletter mailboxes': '036e438f82fcf39aae6160bd528b29eb03d529080b8d9b9efe4738b9237ae2b4',
      'store-credit owners': '9aa021260c7edad08807d9d8439039845bcc9fdefcd2ed1fd3f7b6238c828ca5',
      'alert mailboxes': '6976631dd4bd28780bf4e58dcc855028ab750677eadca98d68b24a0f4ac34ff1',
      'fifty:drop-address': 'e2280fffa0e2142def14d9d2c0d9b5169e3317ce5ea25455f880d4ecf0773635',
      'fifty:drop-admission-pass': '6354b28d86f13bb70e29ba335310719b41db303a42a2ce725a7251efee2726e7',
      'fifty:order-links': '0156f4aefef3fdab3c0b3703cd3f68990b4e40d2ff14955a19f50d70e905147d',
      'fifty:turn-mail-link': 'b0d60ffccaa8d90d6733da67831b1f223982a260e7bac5687f458507834100df',
      'fifty:pow:signature': '97389711b29dfef36bd4dc82e578976d4b5fa56a0009770aff728b91866dc15f',
    };
    for (const [purpose, hex] of Object.entries(pinned)) expect(keys.derive(purpose).toString('hex'), purpose).toBe(hex);
    // What reaches a buyer: an order link already mailed and an admission pass already issued still verify.
    expect(createOrderLinks(keys).viewKey('1001')).toBe('U0dPOz0NCJkKl5LIei0svA');
    const pass = 'v1.p1.t1.1800000000000.7rUnR-NZMgFAW3P0e8sJK4rUvG0C07r25lHjz54TCQs';
    expect(createPassSigner(keys).sign({ productId: 'p1', ticketId: 't1', expiresAtMs: 1_800_000_000_000 }, 's1')).toBe(pass);
    expect(createPassSigner(keys).verify(pass, 'p1', 's1', 1_700_000_000_000)).toMatchObject({ ticketId: 't1' });
    // The draw's mailed entry links are keyed with the secret itself (kept so they still open).
    expect(keys.drawEntrySecret()).toBe(SECRET);
  });

  it('refuses to run without a secret (no per-process fallback)', () => {
    expect(() => createKeyService('')).toThrow();
  });

  it('hands out copies: a caller cannot change another caller’s key', () => {
    const keys = createKeyService(SECRET);
    keys.derive('p').fill(0);
    expect(keys.derive('p').equals(crypto.createHmac('sha256', SECRET).update('p').digest())).toBe(true);
  });
});
