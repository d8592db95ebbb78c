// Newsletter welcome codes: one single-use 10 % code per new subscriber (docs/product.md §9).

export const WELCOME_PERCENT = 10;
export const WELCOME_PREFIX = 'WELCOME-';
/** No 0/O or 1/I/L, so a code read aloud or copied by hand survives. */
export const WELCOME_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const WELCOME_LENGTH = 6;

/** Maps random bytes to "WELCOME-XXXXXX"; needs at least WELCOME_LENGTH bytes. */
export function formatWelcomeCode(bytes: Uint8Array): string {
  if (bytes.length < WELCOME_LENGTH) throw new Error(`Need ${WELCOME_LENGTH} random bytes`);
  let out = '';
  for (let i = 0; i < WELCOME_LENGTH; i++) out += WELCOME_ALPHABET[bytes[i] % WELCOME_ALPHABET.length];
  return WELCOME_PREFIX + out;
}
