import type { Db, DbOrTx, Tx } from '../../db/client';
import type { LiveStock } from '../../../common/contracts/catalog';
import { sellOutSeconds } from '../../../common/domain/sell-out';
import { EDITION_SIZE, editionNumbersFor, isAvailable, quantitiesByProduct } from '../../../common/domain/stock';
import {
  addSoldUnits,
  findLiveStock,
  returnSoldUnits,
  findEditionRoom,
  findEditionRooms,
  findStock,
  finishHolds,
  insertHolds,
  moveStock,
  setStockLevels,
  sumHeldUnits,
} from './inventory.repository';

/** Units per product id. */
export type Units = ReadonlyMap<string, number>;

const byId = ([a]: [string, number], [b]: [string, number]) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Inventory: stock, holds, sold counts and edition numbers — the drop core, and the only writer of
 * products.stock / held_count / sold_count / edition_size. Stock is decided by the database, one
 * conditional UPDATE per product, rows always taken in product-id order (common/domain/stock.ts), so
 * concurrent checkouts never deadlock. Writes that must join a caller's transaction take its `tx`.
 */
export function createInventoryService(deps: { db: Db }) {
  const { db } = deps;

  /**
   * Gives back `release` and takes `take` units, product by product in id order, each in the one
   * conditional update. Returns the id of the first product that had too few units (nothing is
   * taken for it; the caller's transaction rolls the rest back), or null when everything moved.
   */
  async function moveUnits(tx: Tx, release: Units, take: Units): Promise<string | null> {
    const productIds = [...new Set([...release.keys(), ...take.keys()])].sort();
    const refilled: string[] = [];
    for (const productId of productIds) {
      const moved = await moveStock(tx, productId, release.get(productId) ?? 0, take.get(productId) ?? 0);
      if (!moved.moved) return productId;
      if (moved.refilled) refilled.push(productId);
    }
    if (refilled.length > 0) await unitsReturned(tx, refilled);
    return null;
  }

  /** Units came back to products that had none left: listeners (restock alerts) act in the same transaction. */
  const returnListeners: Array<(tx: Tx, productIds: string[]) => Promise<void>> = [];
  async function unitsReturned(tx: Tx, productIds: string[]): Promise<void> {
    for (const listener of returnListeners) await listener(tx, productIds);
  }

  return {
    moveUnits,

    /**
     * `listener` runs inside the transaction that gave units back to sold-out products (an expired,
     * cancelled or refunded hold, a refunded sale), after their rows are locked in id order.
     */
    onUnitsReturned(listener: (tx: Tx, productIds: string[]) => Promise<void>): void {
      returnListeners.push(listener);
    },

    /**
     * A sold piece comes back (a refunded order): sold no more, on the shelf again, and the edition no
     * longer sold out. False when there is no such product or it has not sold that many.
     */
    async returnSold(tx: Tx, productId: string, quantity: number): Promise<boolean> {
      const row = await returnSoldUnits(tx, productId, quantity);
      if (row && row.stock === quantity) await unitsReturned(tx, [productId]);
      return row !== null;
    },

    /** What shoppers see of these products' stock, live ('7 of 50 left'; 'All 50 sold in 3 min 12 s'). */
    async liveStock(productIds: readonly string[]): Promise<LiveStock[]> {
      return (await findLiveStock(db, productIds)).map((row) => ({
        productId: row.id,
        left: row.stock,
        editionSize: row.editionSize,
        inStock: isAvailable(row),
        soldOutAt: row.soldOutAt ? row.soldOutAt.toISOString() : null,
        sellOutSeconds: sellOutSeconds(row),
      }));
    },

    /** Records what a checkout now holds (the units were taken by moveUnits in the same transaction). */
    async recordHolds(tx: Tx, checkoutId: string, take: Units): Promise<void> {
      await insertHolds(tx, checkoutId, [...take].sort(byId));
    },

    /** Ends the holds of these checkouts; returns the units to give back (moveUnits does it). */
    async releaseHolds(tx: Tx, checkoutIds: readonly string[]): Promise<Map<string, number>> {
      const released = new Map<string, number>();
      for (const hold of await finishHolds(tx, checkoutIds, 'released'))
        released.set(hold.productId, (released.get(hold.productId) ?? 0) + hold.quantity);
      return released;
    },

    /** A paid checkout's holds become its sale (sell moves the units from held to sold). */
    async consumeHolds(tx: Tx, checkoutIds: readonly string[]): Promise<void> {
      await finishHolds(tx, checkoutIds, 'consumed');
    },

    /** Units of each product still held for these checkouts (a shopper's own holds come back on replace). */
    async heldFor(checkoutIds: readonly string[]): Promise<Map<string, number>> {
      const rows = await sumHeldUnits(db, checkoutIds);
      return new Map(rows.map((r) => [r.productId, r.quantity]));
    },

    /**
     * Held units become sold units, and each line gets its edition numbers, in line order
     * ("No. 17 of 50"): sold_count moves with the sale.
     */
    async sell(
      tx: Tx,
      lines: ReadonlyArray<{ productId: string; quantity: number }>,
    ): Promise<Array<{ numbers: number[]; editionSize: number }>> {
      const pool = new Map<string, { numbers: number[]; editionSize: number }>();
      for (const [productId, quantity] of quantitiesByProduct(lines)) {
        const sold = await addSoldUnits(tx, productId, quantity);
        // A product deleted since the hold keeps its order, without numbers.
        pool.set(
          productId,
          sold
            ? { numbers: editionNumbersFor(sold.soldCount, quantity), editionSize: sold.editionSize }
            : { numbers: [], editionSize: EDITION_SIZE },
        );
      }
      return lines.map((line) => {
        const entry = pool.get(line.productId)!;
        return { numbers: entry.numbers.splice(0, line.quantity), editionSize: entry.editionSize };
      });
    },

    /** The live stock of a product (the cart checks it; only a checkout's hold reserves). */
    stockOf(productId: string, tx: DbOrTx = db): Promise<{ stock: number; inStock: boolean } | null> {
      return findStock(tx, productId);
    },

    /** The owner restocks or resizes an edition; null when the edition has no room for it (or no product). */
    setLevels(
      tx: DbOrTx,
      productId: string,
      levels: { stock: number; editionSize?: number },
    ): Promise<{ stock: number; editionSize: number } | null> {
      return setStockLevels(tx, productId, levels);
    },

    /** Edition size, stock, sold and held units (one read): a refused restock is explained with them, a drop paced by them. */
    editionRoom(productId: string): Promise<{ editionSize: number; stock: number; sold: number; held: number } | null> {
      return findEditionRoom(db, productId);
    },

    /** editionRoom of several products, one query. */
    async editionRooms(productIds: readonly string[]): Promise<Map<string, { editionSize: number; stock: number; sold: number; held: number }>> {
      return new Map((await findEditionRooms(db, productIds)).map(({ id, ...room }) => [id, room]));
    },
  };
}

export type InventoryService = ReturnType<typeof createInventoryService>;
