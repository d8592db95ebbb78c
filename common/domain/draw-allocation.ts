// How a draw's pieces go to its ranked entries (docs/draw.md, "Pieces"): in rank order, each entry gets
// its first-choice size when a piece of it is left, else its second choice, else it waits as an
// alternate. A winner whose card cannot be captured passes the piece on to the best-ranked alternate who
// wants that size (first or second choice). Pure: the inventory is reached through the injected `take`,
// so the server's conditional stock statements and a test's in-memory shelf run the same rule.
import { sizeKey } from './size-run';

export interface AllocationEntry {
  id: string;
  /** null: a product not split into sizes (one pool). */
  size: string | null;
  secondSize: string | null;
}

export interface Allocation {
  /** Entries that got a piece, in rank order, with the size they got. */
  selected: Array<{ id: string; size: string | null; choice: 'first' | 'second' }>;
  /** Entries without a piece, in rank order: the alternates. */
  waiting: string[];
}

/** The sizes an entry would take, best first (a second choice equal to the first is not asked twice). */
export function choicesOf(entry: AllocationEntry): Array<{ size: string | null; choice: 'first' | 'second' }> {
  const out: Array<{ size: string | null; choice: 'first' | 'second' }> = [{ size: entry.size, choice: 'first' }];
  if (entry.secondSize !== null && (entry.size === null || sizeKey(entry.secondSize) !== sizeKey(entry.size))) {
    out.push({ size: entry.secondSize, choice: 'second' });
  }
  return out;
}

/** Whether the entry would take a piece of `size` (first or second choice; sizes compared as the size run does). */
export function wantsSize(entry: AllocationEntry, size: string | null): boolean {
  return choicesOf(entry).some((c) => (c.size === null || size === null ? c.size === size : sizeKey(c.size) === sizeKey(size)));
}

/** The most pieces a draw can give out (an edition's largest size). */
export const DRAW_PIECES_MAX = 10_000;

/**
 * Walks the ranking once: `take(size, entry)` tries to take one piece of that size for the entry and says
 * whether it did. `ranked` must be in rank order (first place first). `pieces` caps the winners (a draw of
 * some of the pieces, the rest sold after it); null: as many as `take` gives.
 */
export async function allocateInRankOrder<E extends AllocationEntry>(
  ranked: readonly E[],
  take: (size: string | null, entry: E) => boolean | Promise<boolean>,
  pieces: number | null = null,
): Promise<Allocation> {
  const selected: Allocation['selected'] = [];
  const waiting: string[] = [];
  for (const entry of ranked) {
    let got: { size: string | null; choice: 'first' | 'second' } | null = null;
    const full = pieces !== null && selected.length >= pieces;
    for (const c of full ? [] : choicesOf(entry)) {
      if (await take(c.size, entry)) {
        got = c;
        break;
      }
    }
    if (got) selected.push({ id: entry.id, ...got });
    else waiting.push(entry.id);
  }
  return { selected, waiting };
}

/** The alternate a freed piece of `size` goes to: the best-ranked waiting entry that wants that size. */
export function nextAlternate<E extends AllocationEntry>(waitingInRankOrder: readonly E[], size: string | null): E | null {
  return waitingInRankOrder.find((e) => wantsSize(e, size)) ?? null;
}
