// Live stock and how an edition ended (ADR 011; docs/product.md §9): 'N of 50 left' while pieces remain, and the
// sell-out story 'All 50 sold in 3 min 12 s' once the last one went.

/**
 * None left to take while some are held in checkouts: never 'Sold out', since a lapsed hold or a refund puts a
 * piece back (docs/product.md §9, Drops).
 */
export const IN_CHECKOUTS_TEXT = 'All pieces are in checkouts — one may come back';

/** 'N of 50 left': `left` is what a shopper can take now (held pieces are already out). */
export function stockLeftText(left: number, editionSize: number): string {
  return `${Math.max(0, left)} of ${editionSize} left`;
}

/**
 * Seconds from the drop's start to the sale of its last piece. The start is the release time; a product
 * without one has been on sale since it was created, so that is its start (docs/product.md §9, Live stock).
 * null while not sold out (or when the clocks disagree, e.g. the product was re-dated after selling out).
 */
export function sellOutSeconds(p: { soldOutAt: Date | null; releaseAt: Date | null; createdAt: Date }): number | null {
  if (!p.soldOutAt) return null;
  const start = p.releaseAt ?? p.createdAt;
  const ms = p.soldOutAt.getTime() - start.getTime();
  return ms >= 0 ? Math.round(ms / 1000) : null;
}

/** 45 → '45 s'; 192 → '3 min 12 s'; 7500 → '2 h 5 min'; 183600 → '2 d 3 h': two units at most, zeros left out. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const units: Array<[number, string]> = [
    [Math.floor(s / 86_400), 'd'],
    [Math.floor((s % 86_400) / 3_600), 'h'],
    [Math.floor((s % 3_600) / 60), 'min'],
    [s % 60, 's'],
  ];
  const first = units.findIndex(([n]) => n > 0);
  if (first < 0) return '0 s';
  return units
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n} ${unit}`)
    .join(' ');
}

/** 'All 50 sold in 3 min 12 s'; without a known duration, 'All 50 sold'. */
export function sellOutStory(editionSize: number, seconds: number | null): string {
  return seconds === null ? `All ${editionSize} sold` : `All ${editionSize} sold in ${formatDuration(seconds)}`;
}

/**
 * The size of a split edition whose last piece sold first, and when, in seconds from the drop's start
 * (`startMs`, the release): the '— M first, in 41 s' of the sell-out story (size-run.ts sizedSellOutStory).
 * The one run (size null: pieces sold before the split) is no size. null while no size has sold out;
 * seconds null when the clocks disagree (sold out before the start, e.g. the drop was re-dated).
 */
export function firstSizeSoldOut(
  sizes: ReadonlyArray<{ size: string | null; soldOutAt: Date | null }>,
  startMs: number,
): { size: string; seconds: number | null } | null {
  let first: { size: string; soldOutAt: Date } | null = null;
  for (const s of sizes)
    if (s.size !== null && s.soldOutAt && (!first || s.soldOutAt.getTime() < first.soldOutAt.getTime()))
      first = { size: s.size, soldOutAt: s.soldOutAt };
  if (!first) return null;
  const ms = first.soldOutAt.getTime() - startMs;
  return { size: first.size, seconds: ms >= 0 ? Math.round(ms / 1000) : null };
}

/** Spoken updates of a live number: at most one per this many ms, so a falling count does not chatter. */
export const STOCK_ANNOUNCE_MIN_MS = 5_000;
