import type { AdminDraw, PublicDraw } from '../../../common/contracts/draws';

// The owner's figures for a draw, from its entries per status (AdminDraw.counts; the statuses and their moves
// are common/domain/draw-lifecycle.ts). Pure, so the Draws tab and its test read them alike.

const n = (counts: Record<string, number>, ...statuses: string[]) =>
  statuses.reduce((sum, s) => sum + (counts[s] ?? 0), 0);

export interface DrawFigures {
  /** Every entry made, whatever became of it. */
  entries: number;
  /** Entries whose e-mail link was used (still confirmed, or moved on at the draw). */
  confirmed: number;
  /** Confirmed entries removed before the draw as a second entry of the same person. */
  duplicatesRemoved: number;
  /** Entries ranked in the draw. */
  inDraw: number;
  /** Entries drawn for a piece: being charged, charged, or declined. */
  drawn: number;
  /** Cards charged: the winners. */
  captured: number;
  /** Drawn entries whose card was declined: their pieces went to the next entrant who wanted that size. */
  failed: number;
  /** Authorisations released without a charge (withdrawn, never confirmed, removed, declined, not drawn, cancelled). */
  released: number;
  /** Entries still waiting for a piece to come their way. */
  waiting: number;
}

export function drawFigures(counts: AdminDraw['counts']): DrawFigures {
  const ranked = ['selected', 'waiting', 'won', 'capture_failed', 'lost'];
  return {
    entries: Object.values(counts).reduce((a, b) => a + b, 0),
    confirmed: n(counts, 'confirmed', 'removed', ...ranked),
    duplicatesRemoved: n(counts, 'removed'),
    inDraw: n(counts, ...ranked),
    drawn: n(counts, 'selected', 'won', 'capture_failed'),
    captured: n(counts, 'won'),
    failed: n(counts, 'capture_failed'),
    released: n(counts, 'withdrawn', 'lapsed', 'removed', 'capture_failed', 'lost', 'cancelled'),
    waiting: n(counts, 'waiting'),
  };
}

/** What the owner may do with a draw now: run it (once the window has closed) or cancel it (before it runs). */
export function drawActions(
  draw: Pick<AdminDraw, 'status' | 'closesAt'>,
  nowMs: number,
): { run: boolean; cancel: boolean; winners: boolean } {
  const beforeDraw = draw.status === 'scheduled' || draw.status === 'open' || draw.status === 'closed';
  return {
    run: draw.status === 'closed' || (beforeDraw && nowMs >= Date.parse(draw.closesAt)),
    cancel: beforeDraw,
    winners: draw.status === 'drawn' || draw.status === 'settled',
  };
}

export const DRAW_STATUS_LABEL: Record<AdminDraw['status'], string> = {
  scheduled: 'Scheduled',
  open: 'Entries open',
  closed: 'Entries closed',
  drawn: 'Drawn: settling',
  settled: 'Settled',
  cancelled: 'Cancelled',
};

/** The winners as CSV (public id, size, rank), for the owner's records: no personal data is public. */
export function winnersCsv(draw: Pick<PublicDraw, 'entries' | 'winners'>): string {
  const rankOf = new Map(draw.entries.map((e) => [e.publicId, e.rank]));
  const rows = draw.winners.map((w) => [w.publicId, w.size ?? '', String(rankOf.get(w.publicId) ?? '')]);
  return [['public_id', 'size', 'rank'], ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

function csvCell(value: string): string {
  // A cell starting with = + - @ would be a formula in a spreadsheet: quote it with a leading apostrophe.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
