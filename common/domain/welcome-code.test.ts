import { describe, expect, test } from 'vitest';
import { formatWelcomeCode, WELCOME_ALPHABET } from './welcome-code';

describe('formatWelcomeCode', () => {
  test('prefix plus six characters from the unambiguous alphabet', () => {
    const code = formatWelcomeCode(new Uint8Array([0, 1, 2, 3, 4, 255]));
    expect(code).toMatch(/^WELCOME-[2-9A-HJKMNP-Z]{6}$/);
    expect(code).toBe(`WELCOME-2345${WELCOME_ALPHABET[4]}${WELCOME_ALPHABET[255 % WELCOME_ALPHABET.length]}`);
  });

  test('never uses look-alike characters', () => {
    for (const c of '01OIL') expect(WELCOME_ALPHABET).not.toContain(c);
  });

  test('refuses too few bytes', () => {
    expect(() => formatWelcomeCode(new Uint8Array(3))).toThrow();
  });
});
