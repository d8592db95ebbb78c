// The draw's verifiable ranking (docs/draw.md, ADR 018). Before the entry window opens the shop publishes
// a commitment, SHA-256 of a secret seed; after it closes it reveals the seed, and anyone can recompute
// every entry's place from the seed and the published list of public ids and weights. Nobody — not the
// shop either — can steer the order once the commitment is out: changing the seed changes the commitment.
//
// The method, exactly (scripts/verify-draw.mjs re-implements it from this description alone):
//   seed        32 random bytes, written as 64 lowercase hex characters
//   commitment  SHA-256 of the seed's 32 bytes (not of its hex text), as 64 lowercase hex characters
//   digest      HMAC-SHA256 with the seed's 32 bytes as key and the public id's UTF-8 bytes as message
//   u           the digest's first 52 bits (its first 13 hex characters) as an integer n; u = (n + 0.5) / 2^52,
//               a uniform number strictly between 0 and 1
//   key         -ln(u) / weight (weight ≥ 1): Efraimidis–Spirakis weighted sampling without replacement —
//               an entry of weight 3 is three times as likely as one of weight 1 to come before any given
//               other entry
//   order       ascending key; equal keys by public id (plain code-unit order, not locale order)
//
// Pure: Web Crypto (`globalThis.crypto.subtle`, in every browser and in Node ≥ 20) is the default hash, and
// a caller may inject its own (the server passes node:crypto's, synchronous).

/** 32 bytes as 64 hex characters. */
export const SEED_PATTERN = /^[0-9a-f]{64}$/;
/** A SHA-256 as 64 hex characters. */
export const COMMITMENT_PATTERN = SEED_PATTERN;
/** Public ids: 32 lowercase hex characters (128 random bits), never derived from anything personal. */
export const PUBLIC_ID_PATTERN = /^[0-9a-f]{32}$/;

const TWO_POW_52 = 2 ** 52;

/** HMAC-SHA256(key = the bytes of `keyHex`, message = UTF-8 of `message`) as lowercase hex. */
export type HmacSha256 = (keyHex: string, message: string) => string | Promise<string>;
/** SHA-256 of the bytes of `hex`, as lowercase hex. */
export type Sha256 = (hex: string) => string | Promise<string>;

export interface DrawEntryInput {
  publicId: string;
  /** ≥ 1; 1 for everyone unless the draw's loyalty rule gives more (common/domain/draw-fairness.ts). */
  weight: number;
}

export interface RankedEntry extends DrawEntryInput {
  /** 1 = first. */
  rank: number;
  /** The HMAC digest the place comes from (hex). */
  digest: string;
  u: number;
  key: number;
}

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex)) throw new Error('not a hex string');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function bytesToHex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error('Web Crypto is not available here: pass a hash function');
  return s;
}

/** SHA-256 through Web Crypto. */
export const webCryptoSha256: Sha256 = async (hex) => bytesToHex(await subtle().digest('SHA-256', hexToBytes(hex)));

/** HMAC-SHA256 through Web Crypto (one imported key per seed, reused across entries). */
export function webCryptoHmac(): HmacSha256 {
  const keys = new Map<string, Promise<CryptoKey>>();
  return async (keyHex, message) => {
    let key = keys.get(keyHex);
    if (!key) {
      key = subtle().importKey('raw', hexToBytes(keyHex), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      keys.set(keyHex, key);
    }
    return bytesToHex(await subtle().sign('HMAC', await key, new TextEncoder().encode(message)));
  };
}

export function isSeed(value: string): boolean {
  return SEED_PATTERN.test(value);
}

/** The commitment published before the window opens: SHA-256 of the seed's bytes. */
export async function commitmentOf(seedHex: string, sha256: Sha256 = webCryptoSha256): Promise<string> {
  if (!isSeed(seedHex)) throw new Error('a seed is 64 lowercase hex characters');
  return sha256(seedHex);
}

/** Whether a revealed seed is the one committed to. */
export async function seedMatchesCommitment(
  seedHex: string,
  commitment: string,
  sha256: Sha256 = webCryptoSha256,
): Promise<boolean> {
  if (!isSeed(seedHex) || !COMMITMENT_PATTERN.test(commitment)) return false;
  return (await sha256(seedHex)) === commitment;
}

/** The digest's first 52 bits as a uniform number strictly inside (0, 1). */
export function uniformFromDigest(digestHex: string): number {
  if (!/^[0-9a-f]{13}/.test(digestHex)) throw new Error('a digest is lowercase hex, at least 13 characters');
  const n = parseInt(digestHex.slice(0, 13), 16);
  return (n + 0.5) / TWO_POW_52;
}

/** Efraimidis–Spirakis: -ln(u) / w; the smallest key comes first. */
export function rankKey(u: number, weight: number): number {
  if (!(u > 0 && u < 1)) throw new Error('u must be inside (0, 1)');
  if (!Number.isFinite(weight) || weight < 1) throw new Error('a weight is a finite number ≥ 1');
  return -Math.log(u) / weight;
}

/** Ascending key, then public id (code-unit order): a total order, the same on every machine. */
export function compareRanked(a: { key: number; publicId: string }, b: { key: number; publicId: string }): number {
  if (a.key !== b.key) return a.key < b.key ? -1 : 1;
  return a.publicId < b.publicId ? -1 : a.publicId > b.publicId ? 1 : 0;
}

/** Orders entries whose digests are known (pure and synchronous; `rankEntries` computes the digests). */
export function orderByDigest(entries: ReadonlyArray<DrawEntryInput & { digest: string }>): RankedEntry[] {
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.publicId)) throw new Error(`public id ${e.publicId} appears twice`);
    seen.add(e.publicId);
  }
  return entries
    .map((e) => {
      const u = uniformFromDigest(e.digest);
      return { publicId: e.publicId, weight: e.weight, digest: e.digest, u, key: rankKey(u, e.weight), rank: 0 };
    })
    .sort(compareRanked)
    .map((e, i) => ({ ...e, rank: i + 1 }));
}

/** The whole ranking of a draw from its revealed seed: first place first. */
export async function rankEntries(
  seedHex: string,
  entries: readonly DrawEntryInput[],
  hmac: HmacSha256 = webCryptoHmac(),
): Promise<RankedEntry[]> {
  if (!isSeed(seedHex)) throw new Error('a seed is 64 lowercase hex characters');
  const digests = await Promise.all(entries.map((e) => hmac(seedHex, e.publicId)));
  return orderByDigest(entries.map((e, i) => ({ ...e, digest: digests[i]! })));
}
