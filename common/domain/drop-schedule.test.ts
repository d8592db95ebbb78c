import { describe, expect, test } from 'vitest';
import { dropBoundaries, dropMoment, dropsAtText, heroDrop, listDrops, newestDropsFirst } from './drop-schedule';

const timing = { raffleMinutes: 10, windowMinutes: 60 };
const NOW = Date.parse('2026-11-27T17:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const MIN = 60_000;
const p = (id: string, releaseInMin: number | null, soldOut = false) => ({
  id,
  releaseAt: releaseInMin === null ? null : iso(NOW + releaseInMin * MIN),
  soldOutAt: soldOut ? iso(NOW) : null,
});

describe('dropMoment', () => {
  test('upcoming until the room opens, live through the window, past after it or once sold out', () => {
    expect(dropMoment(p('a', null), NOW, timing)).toBeNull();
    expect(dropMoment(p('a', 11), NOW, timing)).toBe('upcoming');
    expect(dropMoment(p('a', 10), NOW, timing)).toBe('live'); // the room opens 10 min before
    expect(dropMoment(p('a', -59), NOW, timing)).toBe('live');
    expect(dropMoment(p('a', -60), NOW, timing)).toBe('past');
    expect(dropMoment(p('a', -5, true), NOW, timing)).toBe('past');
  });
});

describe('heroDrop', () => {
  test('a live drop beats an upcoming one; an upcoming one shows only within a day', () => {
    expect(heroDrop([p('soon', 60), p('live', -5)], NOW, timing)).toEqual({ kind: 'live', product: p('live', -5) });
    expect(heroDrop([p('later', 25 * 60), p('soon', 23 * 60)], NOW, timing)?.product.id).toBe('soon');
    expect(heroDrop([p('later', 25 * 60)], NOW, timing)).toBeNull();
    expect(heroDrop([p('plain', null), p('gone', -5, true)], NOW, timing)).toBeNull();
  });
});

test('listDrops: live newest first, upcoming soonest first, past (with plain sold-out editions) newest first', () => {
  const plainSoldOut = { id: 'plain', releaseAt: null, soldOutAt: iso(NOW - 5 * MIN) };
  const l = listDrops([p('u2', 300), p('u1', 100), p('l', -1), p('old', -600), p('x', null), plainSoldOut], NOW, timing);
  expect(l.upcoming.map((x) => x.id)).toEqual(['u1', 'u2']);
  expect(l.live.map((x) => x.id)).toEqual(['l']);
  expect(l.past.map((x) => x.id)).toEqual(['plain', 'old']);
});

test('newestDropsFirst: drops by newest release, then the rest in their order', () => {
  const list = [p('plain1', null), p('old', -600), p('plain2', null), p('new', -1)];
  expect(newestDropsFirst(list).map((x) => x.id)).toEqual(['new', 'old', 'plain1', 'plain2']);
});

test('dropBoundaries: a day before, room opens, release, window ends', () => {
  expect(dropBoundaries([p('a', 0), p('b', null)], timing)).toEqual([
    NOW - 24 * 60 * MIN,
    NOW - 10 * MIN,
    NOW,
    NOW + 60 * MIN,
  ]);
});

test("dropsAtText: 'Drops Friday 6:00 PM'", () => {
  expect(dropsAtText('2026-11-27T18:00:00Z', { timeZone: 'UTC' })).toBe('Drops Friday 6:00 PM');
  expect(dropsAtText('2026-11-27T18:00:00Z', { timeZone: 'America/New_York', zoneName: true })).toBe('Drops Friday 1:00 PM EST');
});
