// Order numbers are printed on parcels and read over the phone: no 0/O or 1/I, and random enough
// (32^8 ≈ 10^12 per shop) that nobody can guess another shopper's order from their own.

export const ORDER_NUMBER_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const ORDER_NUMBER_PATTERN = /^FIFTY-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;

export type RandomBytes = (length: number) => Uint8Array;

/** Cryptographically strong bytes (Web Crypto: Node 20 and browsers alike). */
export const secureRandomBytes: RandomBytes = (length) =>
  globalThis.crypto.getRandomValues(new Uint8Array(length));

/** `FIFTY-7K3Q-9XZ2`. The alphabet has 32 letters, so `byte & 31` is unbiased. */
export function generateOrderNumber(random: RandomBytes = secureRandomBytes): string {
  const bytes = random(8);
  let chars = '';
  for (let i = 0; i < 8; i++) chars += ORDER_NUMBER_ALPHABET[bytes[i]! & 31];
  return `FIFTY-${chars.slice(0, 4)}-${chars.slice(4)}`;
}

export function isOrderNumber(value: string): boolean {
  return ORDER_NUMBER_PATTERN.test(value);
}
