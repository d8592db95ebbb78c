import type { Db, DbOrTx, Tx } from '../../db/client';
import type { LiveStock } from '../../../common/contracts/catalog';
import { MAX_EDITION_SIZE } from '../../../common/contracts/admin';
import { sellOutSeconds } from '../../../common/domain/sell-out';
import { EDITION_SIZE, editionNumbersFor, isAvailable, quantitiesByProduct } from '../../../common/domain/stock';
import {
  addSoldUnits,
  findLiveStock,
  findEditionRoom,
  findEditionRooms,
  findStock,
  finishHolds,
  insertHolds,
  moveStock,
  setStockLevels,
  sumConsumedHolds,
  sumHeldUnits,
} from './inventory.repository';
import { sizeKey } from '../../../common/domain/size-run';
import {
  ensureOneRun,
  listVariantKeys,
  moveVariantHeld,
  readSizeStock,
  replaceSizeRun,
  returnToVariant,
  sellVariant,
  syncOneRunVariants,
  type ReplaceSizeRunResult,
  type SizeStock,
} from './variants.repository';
import type { SizeRunEntry } from '../../../common/domain/size-run';
import { badRequest } from '../../lib/http-error';

/** Units per product id. */
export type Units = ReadonlyMap<string, number>;

/** A line to hold: its product, size and colour as the cart names them (ADR 015). */
export interface SizedLine {
  productId: string;
  size: string | null;
  colour?: string | null;
  quantity: number;
}

/** Units held of one product's size variant (null: held through the product row alone, before size runs). */
export interface HeldUnits {
  productId: string;
  variantId: string | null;
  quantity: number;
}

/** The outcome of a per-size move: the first product (and size) short, or what was taken, per variant. */
export type SizedMove =
  | { short: { productId: string; size: string | null }; taken?: undefined }
  | { short: null; taken: HeldUnits[] };

/**
 * A sold order line that comes back (a refund, a returned piece): its product, the size and colour the
 * order line records, and the checkout that bought it (its consumed holds name the variant that sold it).
 */
export interface ReturnedLine {
  productId: string;
  quantity: number;
  /** The returned pieces' edition numbers (from the order line): one per piece, each back for the next sale. */
  editionNumbers: readonly number[];
  size?: string | null;
  colour?: string | null;
  /** The order's checkout: the variant its holds were sold from is the one whose sold count goes down. */
  checkoutId?: string | null;
}

/**
 * Refusals of a level change on a product split into sizes (ADR 015, amendment): its stock is the sum of
 * its sizes, so only the size run changes it. The owner's product flow checks first with the same words.
 */
export const splitLevelMessages = {
  stock: 'This product is split into sizes: change the pieces per size (sizeRun), not the stock.',
  edition: (size: number) =>
    `This product is split into sizes: send the pieces per size (sizeRun) adding up to the new edition of ${size}.`,
} as const;

type VariantKey = { id: string; size: string | null; colour: string | null };

const isOneRun = (v: { size: string | null; colour: string | null }) => v.size === null && v.colour === null;
const isSplitRun = (run: ReadonlyArray<{ size: string | null; colour: string | null }>) => run.some((v) => !isOneRun(v));

/**
 * The variant a line takes from: a split product's variant with that size (and colour where colours
 * are stocked apart; case-insensitive), an unsplit one's one run (size null). Null: no such size.
 */
function variantForLine(variants: readonly VariantKey[], line: { size: string | null; colour?: string | null }): string | null {
  const sized = variants.filter((v) => v.size !== null);
  if (sized.length === 0) return variants.find((v) => v.size === null && v.colour === null)?.id ?? null;
  if (!line.size) return null;
  const key = sizeKey(line.size);
  const colour = (line.colour ?? '').trim().toLowerCase();
  return (
    sized.find((v) => sizeKey(v.size!) === key && (v.colour === null || v.colour.toLowerCase() === colour))?.id ?? null
  );
}

/**
 * The variant whose sold count a returned line leaves: the one its checkout's consumed holds were sold from,
 * else the size on the line (a sale on the per-size path), else the one run (a sale before the split) —
 * the first of those that has sold that many. Null: none has.
 */
async function soldVariantOf(
  tx: DbOrTx,
  line: ReturnedLine,
  run: readonly SizeStock[],
  shelf: string | null,
): Promise<string | null> {
  const candidates: string[] = [];
  if (line.checkoutId)
    for (const h of await sumConsumedHolds(tx, line.checkoutId))
      if (h.productId === line.productId && h.variantId) candidates.push(h.variantId);
  // The line's own size first among the checkout's (a checkout of an M and an L of one product).
  candidates.sort((a, b) => Number(b === shelf) - Number(a === shelf));
  if (shelf) candidates.push(shelf);
  const oneRun = run.find(isOneRun)?.variantId;
  if (oneRun) candidates.push(oneRun);
  const sold = new Map(run.map((v) => [v.variantId, v.sold]));
  return candidates.find((id) => (sold.get(id) ?? 0) >= line.quantity) ?? null;
}

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

  /**
   * The per-size move (ADR 015): gives back the `release`d holds to their variants and takes each `take`
   * line from its variant, product by product in id order, each product's row locked first and its
   * variants then moved in id order, the product's totals by the same amount in the same transaction.
   * A line whose size has too few left (or is not in the run) stops the move: `short` names it and the
   * caller's transaction rolls back whatever moved. A product without variant rows gets its one run first.
   */
  async function moveSizes(tx: Tx, release: readonly HeldUnits[], take: readonly SizedLine[]): Promise<SizedMove> {
    const productIds = [...new Set([...release.map((r) => r.productId), ...take.map((t) => t.productId)])].sort();
    const refilled: string[] = [];
    const taken: HeldUnits[] = [];
    for (const productId of productIds) {
      const takes = take.filter((t) => t.productId === productId && t.quantity > 0);
      const releases = release.filter((r) => r.productId === productId && r.quantity > 0);
      const takeTotal = takes.reduce((a, t) => a + t.quantity, 0);
      const releaseTotal = releases.reduce((a, r) => a + r.quantity, 0);
      // The product's row first: its lock orders every writer of its variants (ADR 015).
      const current = await findStock(tx, productId, { lock: true });
      if (!current) {
        if (takeTotal > 0) return { short: { productId, size: takes[0]!.size } };
        continue;
      }
      let variants = await listVariantKeys(tx, productId);
      if (variants.length === 0) {
        await ensureOneRun(tx, productId);
        variants = await listVariantKeys(tx, productId);
      } else if (variants.length === 1 && variants[0]!.size === null && variants[0]!.colour === null) {
        // An unsplit product's one run follows its row (the owner's restock moves the row alone).
        await syncOneRunVariants(tx, [productId]);
      }
      const known = new Set(variants.map((v) => v.id));
      const oneRun = variants.find((v) => v.size === null && v.colour === null)?.id ?? null;
      const deltas = new Map<string, number>();
      const add = (id: string, d: number) => deltas.set(id, (deltas.get(id) ?? 0) + d);
      for (const r of releases) {
        // A hold whose variant is gone (or that predates size runs) gives back to the one run, else to the row alone.
        const id = r.variantId && known.has(r.variantId) ? r.variantId : oneRun;
        if (id) add(id, r.quantity);
      }
      const sizeOf = new Map<string, string | null>();
      for (const t of takes) {
        const id = variantForLine(variants, t);
        if (!id) return { short: { productId, size: t.size } };
        add(id, -t.quantity);
        // The size as the run names it (null for a one run: the refusal then names only the product).
        sizeOf.set(id, variants.find((v) => v.id === id)!.size);
        const same = taken.find((h) => h.variantId === id);
        if (same) same.quantity += t.quantity;
        else taken.push({ productId, variantId: id, quantity: t.quantity });
      }
      for (const id of [...deltas.keys()].sort()) {
        if (!(await moveVariantHeld(tx, id, deltas.get(id)!)))
          return { short: { productId, size: sizeOf.get(id) ?? null } };
      }
      const moved = await moveStock(tx, productId, releaseTotal, takeTotal);
      if (!moved.moved) {
        const only = takes.length === 1 ? variantForLine(variants, takes[0]!) : null;
        return { short: { productId, size: only ? (sizeOf.get(only) ?? null) : null } };
      }
      if (moved.refilled) refilled.push(productId);
    }
    if (refilled.length > 0) await unitsReturned(tx, refilled);
    return { short: null, taken };
  }

  /** Units came back to products that had none left: listeners (restock alerts) act in the same transaction. */
  const returnListeners: Array<(tx: Tx, productIds: string[]) => Promise<void>> = [];
  async function unitsReturned(tx: Tx, productIds: string[]): Promise<void> {
    for (const listener of returnListeners) await listener(tx, productIds);
  }

  return {
    moveUnits,
    moveSizes,

    /**
     * `listener` runs inside the transaction that gave units back to sold-out products (an expired,
     * cancelled or refunded hold, a refunded sale), after their rows are locked in id order.
     */
    onUnitsReturned(listener: (tx: Tx, productIds: string[]) => Promise<void>): void {
      returnListeners.push(listener);
    },

    /**
     * A sold piece comes back (a refunded or returned order line; ADR 015): sold no more, on the shelf
     * again, the edition and its size no longer sold out, variant and product in this one transaction.
     * The piece leaves the sold count of the variant that sold it (the checkout's consumed holds say which;
     * else the line's size, else the one run it was sold from before the split) and goes on the shelf of
     * the size on its order line, matched as the buying path matches a cart line; when the run no longer
     * has that size, back on the variant that sold it. Each piece keeps its edition number, which the
     * next sale of the design takes first (docs/product.md, "Edition numbers"). A product in one pool may
     * be named by id and the returned numbers alone. False when there is no such product, it has not sold
     * that many, or a number was never given or is already back.
     */
    async returnSold(tx: Tx, lineOrProductId: ReturnedLine | string, editionNumbers?: readonly number[]): Promise<boolean> {
      const line: ReturnedLine =
        typeof lineOrProductId === 'string'
          ? { productId: lineOrProductId, quantity: editionNumbers?.length ?? 0, editionNumbers: editionNumbers ?? [] }
          : lineOrProductId;
      const qty = line.quantity;
      if (!Number.isInteger(qty) || qty <= 0) throw new Error(`returnSold: quantity must be a positive integer, not ${qty}`);
      const numbers = line.editionNumbers;
      if (
        numbers.length !== qty ||
        new Set(numbers).size !== qty ||
        !numbers.every((n) => Number.isInteger(n) && n >= 1 && n <= MAX_EDITION_SIZE)
      )
        throw new Error(`returnSold: name each returned piece's edition number once (${qty} pieces, got [${numbers.join(', ')}])`);
      const { productId } = line;
      // The product's row first, then its variants (the lock order of ADR 015).
      if (!(await findStock(tx, productId, { lock: true }))) return false;
      let run = (await readSizeStock(tx, [productId])).get(productId) ?? [];
      if (run.length === 0) {
        await ensureOneRun(tx, productId);
        run = (await readSizeStock(tx, [productId])).get(productId) ?? [];
      } else if (run.length === 1 && isOneRun(run[0]!)) {
        // An unsplit product's one run follows its row (older paths moved the row alone).
        if ((await syncOneRunVariants(tx, [productId])) > 0) run = (await readSizeStock(tx, [productId])).get(productId) ?? [];
      }
      const keys = run.map((v) => ({ id: v.variantId, size: v.size, colour: v.colour }));
      const split = isSplitRun(run);
      if (split && typeof lineOrProductId === 'string')
        throw new Error(`returnSold: product ${productId} is split into sizes; name the order line's size`);
      const shelf = variantForLine(keys, { size: line.size ?? null, colour: line.colour ?? null });
      const soldFrom = await soldVariantOf(tx, line, run, shelf);
      if (!soldFrom) return false;
      const moved = await returnToVariant(tx, {
        productId,
        soldVariantId: soldFrom,
        shelfVariantId: shelf ?? soldFrom,
        editionNumbers: numbers,
      });
      if (!moved) return false;
      // A size or the edition had none left: the waiting list for that size (or any size) is offered the piece.
      if (moved.productRefilled || moved.sizeRefilled) await unitsReturned(tx, [productId]);
      return true;
    },

    /** What shoppers see of these products' stock, live ('7 of 50 left'; 'All 50 sold in 3 min 12 s'). */
    async liveStock(productIds: readonly string[]): Promise<LiveStock[]> {
      const [rows, sizes] = await Promise.all([findLiveStock(db, productIds), readSizeStock(db, productIds)]);
      return rows.map((row) => {
        // A product split into sizes says what is left of each (ADR 015), so its page greys a size the
        // moment it sells out; one pool (only the one-run row, size null) says nothing more than `left`.
        const run = sizes.get(row.id) ?? [];
        const split = run.some((v) => v.size !== null);
        return {
          productId: row.id,
          left: row.stock,
          editionSize: row.editionSize,
          inStock: isAvailable(row),
          soldOutAt: row.soldOutAt ? row.soldOutAt.toISOString() : null,
          sellOutSeconds: sellOutSeconds(row),
          inCheckouts: row.stock === 0 && row.heldCount > 0,
          ...(split ? { sizeStock: run.map((v) => ({ size: v.size, colour: v.colour, left: v.left })) } : {}),
        };
      });
    },

    /** Records what a checkout now holds, per size (the units were taken by moveSizes in the same transaction). */
    async recordHolds(tx: Tx, checkoutId: string, taken: readonly HeldUnits[]): Promise<void> {
      await insertHolds(tx, checkoutId, taken);
    },

    /** Ends the holds of these checkouts; returns the units to give back to their sizes (moveSizes does it). */
    async releaseHolds(tx: Tx, checkoutIds: readonly string[]): Promise<HeldUnits[]> {
      return finishHolds(tx, checkoutIds, 'released');
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
     * ("No. 17 of 50"): sold_count moves with the sale. The units sold are exactly the checkout's consumed
     * holds, each from the size variant it was held on (held → sold there and on the product; ADR 015);
     * edition numbers stay per design (products.sold_count), whatever the size.
     */
    async sell(
      tx: Tx,
      lines: ReadonlyArray<{ productId: string; quantity: number }>,
      checkoutId: string,
    ): Promise<Array<{ numbers: number[]; editionSize: number }>> {
      const holds = await sumConsumedHolds(tx, checkoutId);
      const pool = new Map<string, { numbers: number[]; editionSize: number }>();
      for (const [productId, quantity] of quantitiesByProduct(lines)) {
        const entry = { numbers: [] as number[], editionSize: EDITION_SIZE };
        let gone = false;
        let rest = quantity;
        // Variants of one product in id order (the product's row is locked by the first statement).
        const own = holds
          .filter((h) => h.productId === productId && h.variantId !== null)
          .sort((a, b) => (a.variantId! < b.variantId! ? -1 : 1));
        for (const hold of own) {
          const qty = Math.min(hold.quantity, rest);
          if (qty <= 0) break;
          const sold = await sellVariant(tx, productId, hold.variantId!, qty);
          rest -= qty;
          if (!sold) { gone = true; break; }
          entry.numbers.push(...sold.numbers);
          entry.editionSize = sold.editionSize;
        }
        // Units held through the product row alone (before size runs): the row moves alone, as before.
        if (!gone && rest > 0) {
          const sold = await addSoldUnits(tx, productId, rest);
          if (sold) {
            entry.numbers.push(...editionNumbersFor(sold.soldCount, rest, sold.reused));
            entry.editionSize = sold.editionSize;
          } else gone = true;
        }
        // A product deleted since the hold keeps its order, without numbers.
        pool.set(productId, gone ? { numbers: [], editionSize: EDITION_SIZE } : entry);
      }
      return lines.map((line) => {
        const entry = pool.get(line.productId)!;
        return { numbers: entry.numbers.splice(0, line.quantity), editionSize: entry.editionSize };
      });
    },

    /**
     * Pieces left of one size of a product (the cart refuses a sold-out size): null when the product is not
     * split into sizes (one pool: stockOf decides) or has no such size.
     */
    async sizeLeft(productId: string, size: string | null, colour: string | null): Promise<{ size: string; left: number } | null> {
      const run = (await readSizeStock(db, [productId])).get(productId) ?? [];
      const id = variantForLine(
        run.map((v) => ({ id: v.variantId, size: v.size, colour: v.colour })),
        { size, colour },
      );
      const row = run.find((v) => v.variantId === id);
      if (!row || row.size === null) return null;
      return { size: row.size, left: row.left };
    },

    /** The live stock of a product (the cart checks it; only a checkout's hold reserves). */
    stockOf(productId: string, tx: DbOrTx = db): Promise<{ stock: number; inStock: boolean } | null> {
      return findStock(tx, productId);
    },

    /**
     * The owner restocks or resizes an edition; null when the edition has no room for it (or no product).
     * A product split into sizes keeps its stock equal to the sum of its sizes (ADR 015, amendment): a stock
     * or edition that differs from its run's is refused with a 400 naming the size run (nothing written);
     * an unsplit product's one run follows the new level in the same transaction.
     */
    async setLevels(
      tx: DbOrTx,
      productId: string,
      levels: { stock: number; editionSize?: number },
    ): Promise<{ stock: number; editionSize: number } | null> {
      const current = await findStock(tx, productId, { lock: true });
      if (!current) return null;
      const run = (await readSizeStock(tx, [productId])).get(productId) ?? [];
      if (isSplitRun(run)) {
        const room = (await findEditionRoom(tx, productId))!;
        if (levels.editionSize !== undefined && levels.editionSize !== room.editionSize)
          throw badRequest(splitLevelMessages.edition(levels.editionSize));
        if (levels.stock !== run.reduce((a, v) => a + v.left, 0)) throw badRequest(splitLevelMessages.stock);
        return { stock: levels.stock, editionSize: room.editionSize };
      }
      const row = await setStockLevels(tx, productId, levels);
      if (row && run.length === 1) await syncOneRunVariants(tx, [productId]);
      return row;
    },

    /**
     * The owner writes a product's size run (ADR 015) and, with it, its edition size: 'no-room' when the
     * edition is below the pieces already sold and held; else replaceSizeRun's answer (refusals in the
     * owner's words). The product's stock becomes the sum of its sizes in the same transaction.
     */
    async setSizeRun(
      tx: DbOrTx,
      productId: string,
      change: { run: readonly SizeRunEntry[]; editionSize?: number },
    ): Promise<ReplaceSizeRunResult | 'no-room'> {
      // Stock 0 for a moment, so only sold + held can refuse the edition; the run then sets it to its sum.
      if (!(await setStockLevels(tx, productId, { stock: 0, editionSize: change.editionSize }))) return 'no-room';
      return replaceSizeRun(tx, productId, change.run);
    },

    /** Held, sold and left per size of these products, in run order (absent: no variant rows yet). */
    sizeTallies(productIds: readonly string[], tx: DbOrTx = db): Promise<Map<string, SizeStock[]>> {
      return readSizeStock(tx, productIds);
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
