import { expect, test } from 'vitest';
import { drawCardPhase } from './draw-card-action';

// A drawn piece's card (docs/draw.md, "Product cards"): the server's status says what it last did, the clock
// which part of the window the shopper is in.

const window = { opensAt: '2030-01-01T10:00:00.000Z', closesAt: '2030-01-02T10:00:00.000Z' };
const at = (iso: string) => Date.parse(iso);

test('a scheduled or open draw turns by the clock: before, during and after its window', () => {
  for (const status of ['scheduled', 'open'] as const) {
    const sale = { ...window, status };
    expect(drawCardPhase(sale, at('2030-01-01T09:59:59.999Z'))).toBe('upcoming');
    expect(drawCardPhase(sale, at('2030-01-01T10:00:00.000Z'))).toBe('open');
    expect(drawCardPhase(sale, at('2030-01-02T09:59:59.999Z'))).toBe('open');
    expect(drawCardPhase(sale, at('2030-01-02T10:00:00.000Z'))).toBe('closed');
  }
});

test('closed and drawn are what the server says, whatever the clock', () => {
  expect(drawCardPhase({ ...window, status: 'closed' }, at('2030-01-01T12:00:00.000Z'))).toBe('closed');
  expect(drawCardPhase({ ...window, status: 'drawn' }, at('2030-01-01T12:00:00.000Z'))).toBe('drawn');
});
