import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { commitmentOf, rankEntries } from '../common/domain/draw';
import { rankDraw, verifyDraw } from './verify-draw.mjs';

const script = path.join(import.meta.dirname, 'verify-draw.mjs');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fifty-verify-draw-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(draw: unknown, via: 'file' | 'stdin' = 'file') {
  const json = JSON.stringify(draw);
  if (via === 'stdin') return spawnSync(process.execPath, [script, '-'], { input: json, encoding: 'utf8' });
  const file = path.join(dir, `draw-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, json);
  return spawnSync(process.execPath, [script, file], { encoding: 'utf8' });
}

const SEED = 'c0ffee'.repeat(10) + 'c0fe';
const ids = Array.from({ length: 12 }, (_, i) => (i + 1).toString(16).padStart(2, '0').repeat(16));
const sizes = ['S', 'M', 'L'];

/** A published draw as the shop answers GET /api/draws/:id, ranked by the shop's own code (common/domain/draw.ts). */
async function publishedDraw() {
  const entries = ids.map((publicId, i) => ({ publicId, weight: i % 4 === 0 ? 2 : 1, size: sizes[i % 3]!, secondSize: i % 2 ? 'L' : null }));
  const ranked = await rankEntries(SEED, entries);
  const rankOf = new Map(ranked.map((r) => [r.publicId, r.rank]));
  // One M and one L: the first-ranked entry wanting each wins it, everyone else lost.
  const winners: Array<{ publicId: string; size: string }> = [];
  for (const size of ['M', 'L']) {
    const w = ranked.map((r) => entries.find((e) => e.publicId === r.publicId)!).find(
      (e) => (e.size === size || e.secondSize === size) && !winners.some((x) => x.publicId === e.publicId),
    )!;
    winners.push({ publicId: w.publicId, size });
  }
  return {
    commitment: await commitmentOf(SEED),
    seed: SEED,
    entries: entries.map((e) => ({
      ...e,
      rank: rankOf.get(e.publicId)!,
      outcome: winners.some((w) => w.publicId === e.publicId) ? 'won' : 'lost',
    })),
    winners,
  };
}

describe('scripts/verify-draw.mjs', () => {
  test('the independent re-implementation ranks exactly as common/domain/draw.ts', async () => {
    const entries = ids.map((publicId, i) => ({ publicId, weight: 1 + (i % 3) }));
    const ours = await rankEntries(SEED, entries);
    expect(rankDraw(SEED, entries).map((r) => [r.publicId, r.rank, r.key])).toEqual(ours.map((r) => [r.publicId, r.rank, r.key]));
  });

  test('a genuine draw prints OK and exits 0 (from a file and from stdin)', async () => {
    const draw = await publishedDraw();
    expect(verifyDraw(draw)).toEqual([]);
    const res = run(draw);
    expect(res.status, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^OK: the seed matches the commitment, and the 12 entries and 2 winners follow from it\./);
    expect(run(draw, 'stdin').status).toBe(0);
  });

  test('a seed that is not the committed one is caught', async () => {
    const draw = { ...(await publishedDraw()), seed: 'c0ffee'.repeat(10) + 'c0ff' };
    const res = run(draw);
    expect(res.status).toBe(1);
    expect(res.stdout).toMatch(/DIFFERS: The seed does not match the commitment/);
  });

  test('a published rank that the seed does not give is named', async () => {
    const draw = await publishedDraw();
    const [a, b] = [draw.entries.find((e) => e.rank === 1)!, draw.entries.find((e) => e.rank === 2)!];
    [a.rank, b.rank] = [2, 1];
    const res = run(draw);
    expect(res.status).toBe(1);
    expect(res.stdout).toContain(`DIFFERS: Entry ${a.publicId} is published at rank 2; the seed puts it at rank 1.`);
  });

  test('a winner who jumped a better-ranked entry wanting the same size is named; so is a winner not in the list', async () => {
    const draw = await publishedDraw();
    const mWinner = draw.winners.find((w) => w.size === 'M')!;
    const rankOfWinner = draw.entries.find((e) => e.publicId === mWinner.publicId)!.rank;
    const worse = draw.entries
      .filter((e) => e.rank > rankOfWinner && e.size === 'M' && e.outcome === 'lost')
      .sort((x, y) => x.rank - y.rank)[0]!;
    // Hand the M to a worse-ranked entry instead.
    draw.winners = draw.winners.map((w) => (w.size === 'M' ? { publicId: worse.publicId, size: 'M' } : w));
    for (const e of draw.entries) {
      if (e.publicId === worse.publicId) e.outcome = 'won';
      if (e.publicId === mWinner.publicId) e.outcome = 'lost';
    }
    draw.winners.push({ publicId: 'ab'.repeat(16), size: 'S' });
    const problems = verifyDraw(draw);
    expect(problems).toContain(
      `Entry ${mWinner.publicId} (rank ${rankOfWinner}) wanted size M and won nothing, while ${worse.publicId} (rank ${worse.rank}) won it.`,
    );
    expect(problems).toContain(`Winner ${'ab'.repeat(16)} is not in the list of entries.`);
    expect(run(draw).status).toBe(1);
  });

  test('before the draw (no seed) it says the draw cannot be checked yet; unreadable input exits 2', async () => {
    const draw = { ...(await publishedDraw()), seed: null };
    const res = run(draw);
    expect(res.status).toBe(1);
    expect(res.stdout).toMatch(/seed has not been revealed yet/);
    const bad = spawnSync(process.execPath, [script, '-'], { input: '{not json', encoding: 'utf8' });
    expect(bad.status).toBe(2);
  });
});
