import { expect, test } from 'vitest';
import { dropsAtText } from '../../../common/domain/drop-schedule';
import { cardNote, editionLine } from './card-note';

const piece = { editionSize: 50, releaseAt: null, soldOutAt: null, sellOutSeconds: null };
const now = Date.parse('2026-11-23T12:00:00Z');
const opts = { now, released: true, local: true, timeZone: 'UTC' };

test("the edition's own size, grouped: 'Edition of 50', 'Edition of 1,000', a one-off", () => {
  expect(editionLine(50)).toBe('Edition of 50');
  expect(editionLine(3)).toBe('Edition of 3');
  expect(editionLine(1000)).toBe('Edition of 1,000');
  expect(editionLine(1)).toBe('One of one');
  expect(cardNote({ ...piece, editionSize: 3 }, opts)).toEqual({ kind: 'edition', text: 'Edition of 3' });
});

test('a release this week by its weekday, a later one by its date, in the given zone', () => {
  const soon = { ...piece, releaseAt: '2026-11-27T18:00:00Z' };
  expect(cardNote(soon, { ...opts, released: false })).toEqual({
    kind: 'drop',
    text: dropsAtText(soon.releaseAt, { timeZone: 'UTC' }),
  });
  expect(cardNote(soon, { ...opts, released: false }).text).toMatch(/^Drops Friday /);
  const later = { ...piece, releaseAt: '2026-12-11T18:00:00Z' };
  expect(cardNote(later, { ...opts, released: false }).text).toMatch(/^Drops .*Dec 11/);
});

test("before the shopper's clock is known, and once released, the line is the edition", () => {
  const soon = { ...piece, releaseAt: '2026-11-27T18:00:00Z' };
  expect(cardNote(soon, { ...opts, released: false, local: false }).kind).toBe('edition');
  expect(cardNote(soon, opts).kind).toBe('edition');
});

test('a sold-out edition tells how fast it went', () => {
  const gone = { ...piece, soldOutAt: '2026-11-20T18:03:00Z', sellOutSeconds: 180 };
  expect(cardNote(gone, opts)).toEqual({ kind: 'sold-out', text: 'All 50 sold in 3 min' });
});
