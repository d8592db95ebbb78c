import { expect, test } from 'vitest';
import type { AdminDrop } from '../../../common/contracts/drops';
import { sizedSellOutStory } from '../../../common/domain/size-run';
import { adminClient } from '../../../tests/support/admin-session';
import { describeEachDb, type TestApp } from '../../../tests/support/build-test-app';
import { createDrop } from '../../../tests/support/drops';
import { holdVariant, replaceSizeRun, sellVariant } from '../inventory/variants.repository';

// The owner's Drops view of an edition split into sizes (ADR 015): held / sold / left per size, and the
// sell-out line that names the size that went first. A drop in one pool answers exactly as before.

async function sizedDrop(t: TestApp, name: string, releaseInMs: number) {
  const id = await createDrop(t, releaseInMs, { name, stock: 50 });
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
  return { id, size: (label: string) => ids.get(label)! };
}

/** Holds `held` pieces of a size and sells `sold` of them. */
async function move(t: TestApp, productId: string, variantId: string, held: number, sold = held): Promise<void> {
  await t.database.db.transaction(async (tx) => {
    expect(await holdVariant(tx, productId, variantId, held)).toBe(true);
    if (sold > 0) expect(await sellVariant(tx, productId, variantId, sold)).not.toBeNull();
  });
  t.services.catalog.invalidate();
}

async function ownerRow(t: TestApp, productId: string): Promise<AdminDrop> {
  const admin = await adminClient(t);
  const res = await admin.get('/api/admin/drops');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as AdminDrop[]).find((d) => d.productId === productId)!;
}

describeEachDb("the owner's Drops view per size (ADR 015)", (t) => {
  test('a live split drop shows held / sold / left per size, in run order, adding up to the drop', async () => {
    const { id, size } = await sizedDrop(t(), 'Owner Sized Tee', -60_000);
    await move(t(), id, size('M'), 2, 1); // one M sold, one held in a checkout
    await move(t(), id, size('L'), 5);
    const row = await ownerRow(t(), id);
    expect(row.sizes).toEqual([
      { size: 'S', colour: null, held: 0, sold: 0, left: 10 },
      { size: 'M', colour: null, held: 1, sold: 1, left: 0 },
      { size: 'L', colour: null, held: 0, sold: 5, left: 33 },
    ]);
    expect({ held: row.held, sold: row.sold, left: row.left }).toEqual({ held: 1, sold: 6, left: 43 });
    // M has a piece held, so it has not sold out yet.
    expect(row.firstSoldOut).toBeNull();
  });

  test('sold out: the sell-out line names the size that went first, timed from the release', async () => {
    const { id, size } = await sizedDrop(t(), 'Owner Sold Tee', -30_000);
    await move(t(), id, size('M'), 2);
    await move(t(), id, size('S'), 10);
    await move(t(), id, size('L'), 38);
    await t().services.drops.tick();
    const row = await ownerRow(t(), id);
    expect(row.phase).toBe('sold_out');
    expect(row.sizes?.map((s) => [s.size, s.sold, s.left])).toEqual([
      ['S', 10, 0],
      ['M', 2, 0],
      ['L', 38, 0],
    ]);
    expect(row.firstSoldOut?.size).toBe('M');
    // Released about 30 s ago; M's last piece sold just now, and the edition's last after it.
    expect(row.firstSoldOut!.seconds).toBeGreaterThanOrEqual(25);
    expect(row.firstSoldOut!.seconds).toBeLessThan(120);
    expect(row.sellOutSeconds).toBeGreaterThanOrEqual(row.firstSoldOut!.seconds!);
    expect(sizedSellOutStory(row.editionSize, row.sellOutSeconds, row.firstSoldOut!)).toMatch(
      /^All 50 sold in .+ — M first, in .+ s$/,
    );
  });

  test('a drop in one pool carries no sizes (its row is as before)', async () => {
    const id = await createDrop(t(), -60_000, { name: 'Owner Pool Tee', stock: 5 });
    const row = await ownerRow(t(), id);
    expect(row).not.toHaveProperty('sizes');
    expect(row).not.toHaveProperty('firstSoldOut');
    expect({ held: row.held, sold: row.sold, left: row.left }).toEqual({ held: 0, sold: 0, left: 5 });
  });
});
