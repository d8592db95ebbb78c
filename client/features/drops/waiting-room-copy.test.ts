import { describe, expect, it } from 'vitest';
import type { DropStatus, DropTicket } from '../../../common/contracts/drops';
import { allHeldText, announcement, describePassLeft, drawInText, formatPassLeft, formatWait, passWarning, roomView } from './waiting-room-copy';

const ticket = (t: Partial<DropTicket>): DropTicket => ({
  id: 't1',
  status: 'waiting',
  raffle: false,
  position: 37,
  estimatedWaitSeconds: 120,
  passExpiresAt: null,
  ...t,
});
const status = (s: Partial<DropStatus>): DropStatus => ({
  productId: 'p1',
  releaseAt: '2026-11-27T18:00:00.000Z',
  roomOpensAt: '2026-11-27T17:45:00.000Z',
  phase: 'open',
  paused: false,
  queueLength: 40,
  left: 50,
  editionSize: 50,
  ticket: null,
  ...s,
});

describe('waiting room copy', () => {
  it('estimates in whole minutes, under a minute as such, unknown as null', () => {
    expect(formatWait(120)).toBe('About 2 min');
    expect(formatWait(89)).toBe('About 1 min');
    expect(formatWait(59)).toBe('Less than a minute');
    expect(formatWait(null)).toBeNull();
  });

  it("counts the pass down in mm:ss and says it in minutes", () => {
    expect(formatPassLeft(552_000)).toBe('09:12');
    expect(formatPassLeft(-5)).toBe('00:00');
    expect(describePassLeft(552_000)).toBe('Your turn ends in 10 minutes');
    expect(describePassLeft(30_000)).toBe('Your turn ends in 30 seconds');
  });

  it('picks the view from the phase, then the ticket', () => {
    expect(roomView(status({ phase: 'not_open' })).kind).toBe('none');
    expect(roomView(status({ phase: 'ended', ticket: ticket({}) })).kind).toBe('none');
    expect(roomView(status({ phase: 'raffle' })).kind).toBe('join');
    expect(roomView(status({ phase: 'open', ticket: ticket({ status: 'left' }) })).kind).toBe('join');
    expect(roomView(status({ phase: 'raffle', ticket: ticket({ raffle: true, position: null }) })).kind).toBe('draw');
    expect(roomView(status({ phase: 'open', ticket: ticket({ raffle: true, position: null }) })).kind).toBe('draw');
    expect(roomView(status({ phase: 'open', ticket: ticket({}) }))).toEqual({
      kind: 'line',
      position: 37,
      wait: 'About 2 min',
      paused: false,
    });
    expect(roomView(status({ phase: 'open', ticket: ticket({ status: 'admitted', position: null }) })).kind).toBe(
      'admitted',
    );
    expect(roomView(status({ phase: 'open', ticket: ticket({ status: 'sold_out' }) })).kind).toBe('sold_out');
    expect(roomView(status({ phase: 'sold_out', ticket: ticket({}) })).kind).toBe('sold_out');
  });

  it('announces the line with the position and the wait, or that the shop paused it', () => {
    expect(announcement(roomView(status({ ticket: ticket({}) })))).toBe("You're number 37 in line. About 2 min.");
    expect(announcement(roomView(status({ paused: true, ticket: ticket({}) })))).toBe(
      "You're number 37 in line. Paused by the shop.",
    );
  });

  it('warns at 60 s and 30 s left on the pass, not before and not once it has lapsed', () => {
    expect(passWarning(61_000)).toBeNull();
    expect(passWarning(60_000)).toBe('Less than a minute left on your turn — add it to your cart now.');
    expect(passWarning(30_000)).toBe('30 seconds left on your turn — add it to your cart now.');
    expect(passWarning(0)).toBeNull();
  });

  it('says the last pieces are in checkouts, and the time to the draw', () => {
    expect(allHeldText(10)).toBe('All pieces are in checkouts — some may come back within 10 min. Stay in line.');
    expect(drawInText(252_000)).toBe('Places are drawn in 04:12');
    expect(drawInText(3_725_000)).toBe('Places are drawn in 1:02:05');
  });

  it('never says "you can add now" for a turn: it says when the pass ends', () => {
    const said = announcement({ kind: 'admitted', passExpiresAt: '2026-11-27T18:10:00.000Z' });
    expect(said).toMatch(/^It's your turn\. Your pass ends at \d{1,2}:\d\d [AP]M\.$/);
    expect(said).not.toMatch(/add/);
  });
});
