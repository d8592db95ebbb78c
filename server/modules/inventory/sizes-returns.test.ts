import { and, asc, eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { adminClient } from '../../../tests/support/admin-session';
import { confirmOffline, createProduct, readyShopper } from '../../../tests/support/shop-fixtures';
import { HttpError } from '../../lib/http-error';
import { products } from '../catalog/catalog.tables';
import { orderItems, orders } from '../orders/orders.tables';
import { productVariants } from './variants.tables';
import { replaceSizeRun } from './variants.repository';
import { splitLevelMessages } from './inventory.service';

/**
 * Refunds, returned pieces and restock of a product split into sizes (ADR 015, amendment), on the real
 * buying path and the real database: a returned order line's piece goes back to its size in the same
 * transaction as the product's totals, and a level change never leaves the product apart from its sizes.
 */
describeEachDb('returns and restock per size', (t) => {
  const db = () => t().database.db;

  /** A tee of `edition` split into the given run. */
  async function splitTee(name: string, run: Array<{ size: string; pieces: number }>): Promise<string> {
    const edition = run.reduce((a, r) => a + r.pieces, 0);
    const id = await createProduct(db(), { name, stock: edition, sizes: run.map((r) => r.size) });
    await db().update(products).set({ editionSize: edition }).where(eq(products.id, id));
    const split = await db().transaction((tx) => replaceSizeRun(tx, id, run));
    expect(split.ok).toBe(true);
    return id;
  }

  /** Counts per size (the one run as ''), after checking the product row is their sum within its edition. */
  async function state(id: string) {
    const [p] = await db()
      .select({ stock: products.stock, held: products.heldCount, sold: products.soldCount, edition: products.editionSize })
      .from(products)
      .where(eq(products.id, id));
    const sizes = await db()
      .select({
        size: productVariants.size,
        stock: productVariants.stock,
        held: productVariants.heldCount,
        sold: productVariants.soldCount,
        soldOutAt: productVariants.soldOutAt,
      })
      .from(productVariants)
      .where(eq(productVariants.productId, id))
      .orderBy(asc(productVariants.position));
    const sum = (k: 'stock' | 'held' | 'sold') => sizes.reduce((a, s) => a + s[k], 0);
    expect({ stock: p!.stock, held: p!.held, sold: p!.sold }).toEqual({ stock: sum('stock'), held: sum('held'), sold: sum('sold') });
    expect(p!.stock + p!.held + p!.sold).toBeLessThanOrEqual(p!.edition);
    return Object.fromEntries(sizes.map((s) => [s.size ?? '', { stock: s.stock, held: s.held, sold: s.sold }]));
  }

  /** One shopper buys `quantity` of `size` through the API; returns the order line as the order records it. */
  async function buy(id: string, size: string | null, quantity = 1) {
    const shopper = await readyShopper(t(), id, { size, quantity });
    const res = await shopper.post('/api/create-payment-intent', {});
    expect(res.statusCode, res.body).toBe(200);
    const intent = res.json() as { clientSecret: string; paymentIntentId: string };
    expect((await confirmOffline(shopper, intent.clientSecret)).statusCode).toBe(200);
    const done = await shopper.post('/api/payment-success', { paymentIntentId: intent.paymentIntentId });
    expect(done.statusCode, done.body).toBe(200);
    const [line] = await db()
      .select({
        productId: orderItems.productId,
        size: orderItems.selectedSize,
        colour: orderItems.selectedColor,
        quantity: orderItems.quantity,
        editionNumbers: orderItems.editionNumbers,
        checkoutId: orders.checkoutId,
      })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(eq(orders.stripePaymentIntentId, intent.paymentIntentId));
    return { ...line!, productId: line!.productId! };
  }

  const returnLine = (line: Awaited<ReturnType<typeof buy>>, quantity = line.quantity) =>
    db().transaction((tx) => t().services.inventory.returnSold(tx, { ...line, quantity, editionNumbers: line.editionNumbers.slice(0, quantity) }));

  test('a refunded M goes back on the M shelf: M no longer sold out, the product is the sum, L untouched', async () => {
    const id = await splitTee('Return Tee', [
      { size: 'M', pieces: 1 },
      { size: 'L', pieces: 3 },
    ]);
    const m = await buy(id, 'M');
    const l = await buy(id, 'L');
    expect([m.editionNumbers, l.editionNumbers]).toEqual([[1], [2]]);
    const [soldOutM] = await db()
      .select()
      .from(productVariants)
      .where(and(eq(productVariants.productId, id), eq(productVariants.size, 'M')));
    expect(soldOutM!.soldOutAt).not.toBeNull();
    expect(await state(id)).toEqual({ M: { stock: 0, held: 0, sold: 1 }, L: { stock: 2, held: 0, sold: 1 } });

    const returned: string[] = [];
    t().services.inventory.onUnitsReturned(async (_tx, ids) => void returned.push(...ids));
    expect(await returnLine(m)).toBe(true);
    expect(await state(id)).toEqual({ M: { stock: 1, held: 0, sold: 0 }, L: { stock: 2, held: 0, sold: 1 } });
    const [back] = await db().select().from(productVariants).where(eq(productVariants.id, soldOutM!.id));
    expect(back!.soldOutAt).toBeNull();
    // M had none left: the waiting list is offered the piece (restock alerts), in the same transaction.
    expect(returned).toEqual([id]);

    // The M is on sale again and buyable, and the piece keeps its number: the next buyer gets No. 1 again.
    expect((await buy(id, 'M')).editionNumbers).toEqual([1]);
    // Returning more than was sold of the size is refused and moves nothing.
    expect(
      await db().transaction((tx) =>
        t().services.inventory.returnSold(tx, { ...m, quantity: 2, editionNumbers: [1, 2] }),
      ),
    ).toBe(false);
    expect(await state(id)).toEqual({ M: { stock: 0, held: 0, sold: 1 }, L: { stock: 2, held: 0, sold: 1 } });
  });

  test('a returned piece keeps its edition number: the next sales take the returned numbers, no number is given twice or past the edition', async () => {
    const id = await createProduct(db(), { name: 'Numbered Pool Tee', stock: 4 });
    await db().update(products).set({ editionSize: 4 }).where(eq(products.id, id));
    const first: Array<Awaited<ReturnType<typeof buy>>> = [];
    for (let i = 0; i < 4; i++) first.push(await buy(id, 'M'));
    expect(first.map((line) => line.editionNumbers)).toEqual([[1], [2], [3], [4]]);
    const returnNumbers = (editionNumbers: number[]) =>
      db().transaction((tx) => t().services.inventory.returnSold(tx, id, editionNumbers));
    // No. 4 and No. 2 come back; they wait, lowest first.
    expect(await returnNumbers([4])).toBe(true);
    expect(await returnNumbers([2])).toBe(true);
    const [row] = await db().select({ sold: products.soldCount, waiting: products.returnedNumbers }).from(products).where(eq(products.id, id));
    expect(row).toEqual({ sold: 2, waiting: [2, 4] });
    // A number never given, or one already back, is refused and moves nothing.
    expect(await returnNumbers([5])).toBe(false);
    expect(await returnNumbers([2])).toBe(false);
    expect(await state(id)).toEqual({ '': { stock: 2, held: 0, sold: 2 } });
    // Two buyers at once get the two returned pieces, each its own number; none is No. 5.
    const again = await Promise.all([buy(id, 'M'), buy(id, 'M')]);
    expect(again.flatMap((line) => line.editionNumbers).sort()).toEqual([2, 4]);
    const numbers = await db().select({ n: orderItems.editionNumbers }).from(orderItems).where(eq(orderItems.productId, id));
    // Every order line of the design: the four first sales and the two resales (2 and 4 twice: returned, then sold again).
    expect(numbers.flatMap((r) => r.n).sort()).toEqual([1, 2, 2, 3, 4, 4]);
    const [after] = await db().select({ sold: products.soldCount, waiting: products.returnedNumbers }).from(products).where(eq(products.id, id));
    expect(after).toEqual({ sold: 4, waiting: [] });
    // A returned number must be named once per piece: a programming error, refused before anything moves.
    await expect(db().transaction((tx) => t().services.inventory.returnSold(tx, { ...first[0]!, quantity: 1, editionNumbers: [] }))).rejects.toThrow(/edition number/);
  });

  test('a piece sold before the split, returned as an M, leaves the one run and goes on the M shelf', async () => {
    const id = await createProduct(db(), { name: 'Old Tee', stock: 4, sizes: ['M', 'L'] });
    await db().update(products).set({ editionSize: 4 }).where(eq(products.id, id));
    const old = await buy(id, 'M');
    expect(await state(id)).toEqual({ '': { stock: 3, held: 0, sold: 1 } });
    // The owner splits the rest: the one run keeps its sold piece ("sold before sizes").
    const split = await db().transaction((tx) =>
      replaceSizeRun(tx, id, [
        { size: 'M', pieces: 1 },
        { size: 'L', pieces: 2 },
      ]),
    );
    expect(split.ok).toBe(true);
    expect(await state(id)).toEqual({ '': { stock: 0, held: 0, sold: 1 }, M: { stock: 1, held: 0, sold: 0 }, L: { stock: 2, held: 0, sold: 0 } });

    expect(await returnLine(old)).toBe(true);
    expect(await state(id)).toEqual({ '': { stock: 0, held: 0, sold: 0 }, M: { stock: 2, held: 0, sold: 0 }, L: { stock: 2, held: 0, sold: 0 } });
    // The edition cap holds across sizes: the pieces still add up to the edition of 4.
    const [p] = await db().select().from(products).where(eq(products.id, id));
    expect(p!.stock + p!.heldCount + p!.soldCount).toBe(4);
  });

  test('a line whose size is no longer in the run goes back to the variant that sold it', async () => {
    const id = await createProduct(db(), { name: 'Gone Size Tee', stock: 3, sizes: ['S', 'M'] });
    await db().update(products).set({ editionSize: 3 }).where(eq(products.id, id));
    const s = await buy(id, 'S');
    const split = await db().transaction((tx) => replaceSizeRun(tx, id, [{ size: 'M', pieces: 2 }]));
    expect(split.ok).toBe(true);
    expect(await returnLine(s)).toBe(true);
    // No S in the run: the piece is back on the one run (never lost, never sold twice).
    expect(await state(id)).toEqual({ '': { stock: 1, held: 0, sold: 0 }, M: { stock: 2, held: 0, sold: 0 } });
  });

  test('one pool: a return moves the product row and its one run together', async () => {
    const id = await createProduct(db(), { name: 'Pool Tee', stock: 2 });
    const line = await buy(id, 'M');
    expect(await returnLine(line)).toBe(true);
    expect(await state(id)).toEqual({ '': { stock: 2, held: 0, sold: 0 } });
    // The short form (id and quantity) is for one pool only; it has nothing left to return now.
    expect(await db().transaction((tx) => t().services.inventory.returnSold(tx, id, [1]))).toBe(false);
  });

  test("an owner's restock of a split product must go through its sizes: a product-level stock is a 400, nothing written", async () => {
    const id = await splitTee('Restock Tee', [
      { size: 'M', pieces: 2 },
      { size: 'L', pieces: 3 },
    ]);
    await buy(id, 'M');
    const before = await state(id);
    const inventory = t().services.inventory;
    const attempt = db().transaction((tx) => inventory.setLevels(tx, id, { stock: 6 }));
    await expect(attempt).rejects.toThrow(splitLevelMessages.stock);
    await expect(attempt).rejects.toBeInstanceOf(HttpError);
    await expect(db().transaction((tx) => inventory.setLevels(tx, id, { stock: 4, editionSize: 9 }))).rejects.toThrow(
      splitLevelMessages.edition(9),
    );
    // The sum of its sizes is the one level it accepts (a save of the unchanged form).
    expect(await db().transaction((tx) => inventory.setLevels(tx, id, { stock: 4 }))).toEqual({ stock: 4, editionSize: 5 });
    expect(await state(id)).toEqual(before);

    // Through the owner's API too: the answer is a 4xx { message }, never a 500.
    const admin = await adminClient(t());
    const patch = (payload: object) =>
      admin.request({ method: 'PATCH', url: `/api/admin/products/${id}`, payload, headers: { 'content-type': 'application/json' } });
    const res = await patch({ stock: 10 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: expect.stringContaining('split into sizes') });

    // The size run restocks it: a bigger edition, spread over the sizes; the product's stock is their sum.
    const restock = await patch({
      editionSize: 8,
      sizeRun: [
        { size: 'M', pieces: 4 },
        { size: 'L', pieces: 4 },
      ],
    });
    expect(restock.statusCode, restock.body).toBe(200);
    expect(await state(id)).toEqual({ M: { stock: 3, held: 0, sold: 1 }, L: { stock: 4, held: 0, sold: 0 } });
  });

  test("an unsplit product's restock moves its one run with it", async () => {
    const id = await createProduct(db(), { name: 'Restock Pool Tee', stock: 2 });
    await buy(id, 'M');
    expect(await db().transaction((tx) => t().services.inventory.setLevels(tx, id, { stock: 7 }))).toEqual({ stock: 7, editionSize: 50 });
    expect(await state(id)).toEqual({ '': { stock: 7, held: 0, sold: 1 } });
  });
});
