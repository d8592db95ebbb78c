import { describe, expect, test } from 'vitest';
import { allocateInRankOrder, choicesOf, nextAlternate, wantsSize, type AllocationEntry } from './draw-allocation';

/** An in-memory shelf: pieces per size (sizes as typed; the rule compares them case-insensitively). */
function shelf(stock: Record<string, number>) {
  const left = new Map(Object.entries(stock).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    take: (size: string | null) => {
      const k = (size ?? '').toLowerCase();
      const n = left.get(k) ?? 0;
      if (n <= 0) return false;
      left.set(k, n - 1);
      return true;
    },
    left,
  };
}

const e = (id: string, size: string | null, secondSize: string | null = null): AllocationEntry => ({ id, size, secondSize });

describe('allocating a draw’s pieces in rank order', () => {
  test('first choice while it lasts, then the second, else an alternate', async () => {
    const s = shelf({ M: 1, L: 1 });
    const ranked = [e('1', 'M', 'L'), e('2', 'M', 'L'), e('3', 'M', 'L'), e('4', 'L')];
    const got = await allocateInRankOrder(ranked, s.take);
    expect(got.selected).toEqual([
      { id: '1', size: 'M', choice: 'first' },
      { id: '2', size: 'L', choice: 'second' },
    ]);
    expect(got.waiting).toEqual(['3', '4']);
    expect([...s.left.values()]).toEqual([0, 0]);
  });

  test('a better-ranked entry is never passed over for a worse-ranked one of the same size', async () => {
    const s = shelf({ s: 2 });
    const got = await allocateInRankOrder([e('a', 'XL'), e('b', 'S'), e('c', 'S'), e('d', 'S')], s.take);
    expect(got.selected.map((x) => x.id)).toEqual(['b', 'c']);
    expect(got.waiting).toEqual(['a', 'd']);
  });

  test('a draw of some of the pieces stops at its count: the rest stay on the shelf, nothing more is asked', async () => {
    const s = shelf({ M: 3, L: 3 });
    const asked: string[] = [];
    const take = (size: string | null, entry: AllocationEntry) => {
      asked.push(entry.id);
      return s.take(size);
    };
    const got = await allocateInRankOrder([e('1', 'M'), e('2', 'L'), e('3', 'M'), e('4', 'L')], take, 2);
    expect(got.selected.map((x) => x.id)).toEqual(['1', '2']);
    expect(got.waiting).toEqual(['3', '4']);
    expect(asked).toEqual(['1', '2']);
    expect([...s.left.values()]).toEqual([2, 2]);
  });

  test('one pool (no sizes): size null throughout', async () => {
    const s = shelf({ '': 2 });
    const got = await allocateInRankOrder([e('a', null), e('b', null), e('c', null)], s.take);
    expect(got.selected).toEqual([
      { id: 'a', size: null, choice: 'first' },
      { id: 'b', size: null, choice: 'first' },
    ]);
    expect(got.waiting).toEqual(['c']);
  });

  test('a freed piece goes to the best-ranked alternate wanting that size, first or second choice', () => {
    const waiting = [e('3', 'S'), e('4', 'XL', 'm'), e('5', 'M')];
    expect(nextAlternate(waiting, 'M')?.id).toBe('4');
    expect(nextAlternate(waiting, 'S')?.id).toBe('3');
    expect(nextAlternate(waiting, 'L')).toBeNull();
    expect(nextAlternate([e('x', null)], null)?.id).toBe('x');
  });

  test('a second choice equal to the first is asked once; sizes compare case-insensitively', () => {
    expect(choicesOf(e('a', 'M', 'm'))).toEqual([{ size: 'M', choice: 'first' }]);
    expect(wantsSize(e('a', 'S', 'xl'), 'XL')).toBe(true);
    expect(wantsSize(e('a', 'S', null), null)).toBe(false);
  });
});
