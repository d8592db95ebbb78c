import { expect, test } from 'vitest';
import { describeEachDb, type TestApp } from '../../../tests/support/build-test-app';
import { createDrop, dropStatus, joinDrop } from '../../../tests/support/drops';
import { holdVariant, replaceSizeRun, sellVariant } from '../inventory/variants.repository';

// The waiting room of a drop split into sizes (ADR 015): the status carries what is left of each size, and
// a sold-out drop names the size that sold out first.

async function sizedDrop(t: TestApp, releaseInMs: number): Promise<{ id: string; size: (label: string) => string }> {
  const id = await createDrop(t, releaseInMs, { name: 'Sized Drop Tee', stock: 50 });
  const run = await t.database.db.transaction((tx) =>
    replaceSizeRun(tx, id, [
      { size: 'S', pieces: 10 },
      { size: 'M', pieces: 2 },
      { size: 'L', pieces: 38 },
    ]),
  );
  if (!run.ok) throw new Error(run.message);
  t.services.catalog.invalidate();
  const ids = new Map(run.sizes.map((s) => [s.size, s.variantId]));
  return { id, size: (label) => ids.get(label)! };
}

async function sell(t: TestApp, productId: string, variantId: string, qty: number): Promise<void> {
  await t.database.db.transaction(async (tx) => {
    expect(await holdVariant(tx, productId, variantId, qty)).toBe(true);
    expect(await sellVariant(tx, productId, variantId, qty)).not.toBeNull();
  });
  t.services.catalog.invalidate();
}

describeEachDb('drops split into sizes (ADR 015)', (t) => {
  test('the status carries each size with what is left, in run order, live as pieces sell', async () => {
    const { id, size } = await sizedDrop(t(), -60_000);
    const shopper = t().client();
    expect((await joinDrop(shopper, id, { ip: '10.77.0.1' })).statusCode).toBe(201);
    const before = await dropStatus(shopper, id);
    expect(before.sizes).toEqual([
      { size: 'S', colour: null, left: 10 },
      { size: 'M', colour: null, left: 2 },
      { size: 'L', colour: null, left: 38 },
    ]);
    expect(before.firstSoldOut).toBeUndefined();

    await sell(t(), id, size('M'), 2);
    await t().services.drops.tick();
    const after = await dropStatus(shopper, id);
    expect(after.sizes?.map((s) => [s.size, s.left])).toEqual([
      ['S', 10],
      ['M', 0],
      ['L', 38],
    ]);
    expect(after.left).toBe(48);
  });

  test('sold out: the status names the size that sold out first, timed from the release', async () => {
    const { id, size } = await sizedDrop(t(), -30_000);
    await sell(t(), id, size('M'), 2);
    await sell(t(), id, size('S'), 10);
    await sell(t(), id, size('L'), 38);
    await t().services.drops.tick();
    const status = await dropStatus(t().client(), id);
    expect(status.phase).toBe('sold_out');
    expect(status.firstSoldOut?.size).toBe('M');
    // Released about 30 s ago, M's last piece sold just now.
    expect(status.firstSoldOut?.seconds).toBeGreaterThanOrEqual(25);
    expect(status.firstSoldOut?.seconds).toBeLessThan(120);
  });

  test('a drop not split into sizes carries no sizes', async () => {
    const id = await createDrop(t(), -60_000, { stock: 5 });
    const status = await dropStatus(t().client(), id);
    expect(status.sizes).toBeUndefined();
    expect(status.firstSoldOut).toBeUndefined();
  });
});
