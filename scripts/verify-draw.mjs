#!/usr/bin/env node
// An independent verifier of a Fifty draw (docs/draw.md, "How to verify"). It shares no code with the shop:
// it re-implements the published method from its description, with Node's own crypto, so a bug in the
// shop's ranking cannot hide itself here.
//
//   node scripts/verify-draw.mjs draw.json
//   node scripts/verify-draw.mjs https://shop.example/api/draws/<id>
//   curl -s https://shop.example/api/draws/<id> | node scripts/verify-draw.mjs -
//
// Prints "OK" and exits 0 when everything checks; otherwise prints every difference and exits 1
// (2 when the input cannot be read at all).
import crypto from 'node:crypto';
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

const HEX64 = /^[0-9a-f]{64}$/;

/** Sizes name the same size when equal after trimming, collapsing spaces and lower-casing ('xl' = 'XL'). */
const sizeKey = (s) => (s === null || s === undefined ? null : String(s).trim().replace(/\s+/g, ' ').toLowerCase());

function wants(entry, size) {
  const want = sizeKey(size);
  return sizeKey(entry.size ?? null) === want || (entry.secondSize != null && sizeKey(entry.secondSize) === want);
}

/**
 * The order the method gives: u = (first 52 bits of HMAC-SHA256(seed bytes, public id) + 0.5) / 2^52,
 * key = -ln(u) / weight, ascending key, then public id in code-unit order.
 */
export function rankDraw(seedHex, entries) {
  const key = Buffer.from(seedHex, 'hex');
  return entries
    .map((e) => {
      const digest = crypto.createHmac('sha256', key).update(String(e.publicId), 'utf8').digest('hex');
      const u = (parseInt(digest.slice(0, 13), 16) + 0.5) / 2 ** 52;
      return { publicId: e.publicId, weight: e.weight, key: -Math.log(u) / e.weight };
    })
    .sort((a, b) => (a.key !== b.key ? a.key - b.key : a.publicId < b.publicId ? -1 : a.publicId > b.publicId ? 1 : 0))
    .map((e, i) => ({ ...e, rank: i + 1 }));
}

/** Checks a published draw; returns the list of problems found (empty: it verifies). */
export function verifyDraw(draw) {
  const problems = [];
  if (!draw || typeof draw !== 'object') return ['The input is not a JSON object.'];
  const { commitment, seed } = draw;
  const entries = Array.isArray(draw.entries) ? draw.entries : null;
  if (!HEX64.test(String(commitment))) problems.push('The commitment is not 64 lowercase hex characters.');
  if (seed === null || seed === undefined) {
    problems.push('The seed has not been revealed yet: the draw cannot be checked before it runs.');
    return problems;
  }
  if (!HEX64.test(String(seed))) return [...problems, 'The seed is not 64 lowercase hex characters.'];
  const recomputed = crypto.createHash('sha256').update(Buffer.from(seed, 'hex')).digest('hex');
  if (recomputed !== commitment) {
    problems.push(`The seed does not match the commitment: SHA-256 of the seed is ${recomputed}, the commitment is ${commitment}.`);
  }
  if (!entries) return [...problems, 'There is no list of entries.'];

  const ids = new Set();
  for (const [i, e] of entries.entries()) {
    if (typeof e?.publicId !== 'string' || e.publicId === '') problems.push(`Entry ${i + 1} has no public id.`);
    else if (ids.has(e.publicId)) problems.push(`Public id ${e.publicId} is listed twice.`);
    else ids.add(e.publicId);
    if (typeof e?.weight !== 'number' || !Number.isFinite(e.weight) || e.weight < 1) {
      problems.push(`Entry ${e?.publicId ?? i + 1} has weight ${JSON.stringify(e?.weight)}; a weight is a number ≥ 1.`);
    }
  }
  if (problems.length > 0) return problems;

  const ranked = rankDraw(seed, entries);
  const rankOf = new Map(ranked.map((r) => [r.publicId, r.rank]));
  for (const e of entries) {
    if (e.rank !== undefined && e.rank !== null && e.rank !== rankOf.get(e.publicId)) {
      problems.push(`Entry ${e.publicId} is published at rank ${e.rank}; the seed puts it at rank ${rankOf.get(e.publicId)}.`);
    }
  }

  // Winners: each is an entry, and no better-ranked entry that wanted the same size went without a piece
  // (pieces go in rank order; a failed capture passes its piece to the best-ranked alternate wanting it).
  const winners = Array.isArray(draw.winners) ? draw.winners : [];
  const byId = new Map(entries.map((e) => [e.publicId, e]));
  const winnerIds = new Set(winners.map((w) => w?.publicId));
  for (const w of winners) {
    const entry = byId.get(w?.publicId);
    if (!entry) {
      problems.push(`Winner ${w?.publicId} is not in the list of entries.`);
      continue;
    }
    if (!wants(entry, w.size ?? null)) problems.push(`Winner ${w.publicId} got size ${w.size}, which it did not ask for.`);
    // Only a declined capture (outcome capture_failed) lets a better-ranked entry go without a piece it wanted.
    const passedOver = entries.filter(
      (e) =>
        !winnerIds.has(e.publicId) &&
        e.outcome !== 'capture_failed' &&
        rankOf.get(e.publicId) < rankOf.get(w.publicId) &&
        wants(e, w.size ?? null),
    );
    for (const e of passedOver) {
      problems.push(
        `Entry ${e.publicId} (rank ${rankOf.get(e.publicId)}) wanted size ${w.size ?? '(one size)'} and won nothing, while ${w.publicId} (rank ${rankOf.get(w.publicId)}) won it.`,
      );
    }
  }
  return problems;
}

async function readInput(arg) {
  if (!arg || arg === '-') {
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  }
  if (/^https?:\/\//.test(arg)) {
    const res = await fetch(arg, { headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`${arg} answered ${res.status}`);
    return res.text();
  }
  return fs.readFileSync(arg, 'utf8');
}

async function main() {
  let draw;
  try {
    draw = JSON.parse(await readInput(process.argv[2]));
  } catch (err) {
    console.error(`Cannot read the draw: ${err.message}`);
    process.exit(2);
  }
  const problems = verifyDraw(draw);
  if (problems.length === 0) {
    const n = Array.isArray(draw.entries) ? draw.entries.length : 0;
    console.log(`OK: the seed matches the commitment, and the ${n} entries and ${draw.winners?.length ?? 0} winners follow from it.`);
    return;
  }
  for (const p of problems) console.log(`DIFFERS: ${p}`);
  process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
