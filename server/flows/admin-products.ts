import {
  isUuid,
  productPayloadSchema,
  type AdminProduct,
  type AdminSize,
  type ProductPayload,
  type ProductPayloadInput,
} from '../../common/contracts/admin';
import type { Product } from '../../common/contracts/catalog';
import type { Db, DbOrTx } from '../db/client';
import { EDITION_SIZE } from '../../common/domain/stock';
import { normaliseSizeLabel, sizeKey, validateSizeRun, type SizeRunEntry } from '../../common/domain/size-run';
import { badRequest, notFound } from '../lib/http-error';
import { parseMoney, parseMoneyOrNull } from '../../common/domain/money';
import type { CatalogService, ProductDetails } from '../modules/catalog/catalog.service';
import type { InventoryService } from '../modules/inventory/inventory.service';
import { readSizeStock, replaceSizeRun, type SizeStock } from '../modules/inventory/variants.repository';
import {
  EDITION_MESSAGES,
  PRODUCT_NOT_FOUND,
  SIZE_RUN_MESSAGES,
  StockConflictError,
} from '../modules/admin/product-messages';

/** The fields of productPayloadSchema a PATCH may name (anything else is ignored). */
const PATCHABLE = [
  'name', 'description', 'price', 'salePrice', 'category', 'subcategory', 'materials', 'sustainabilityInfo',
  'stock', 'editionSize', 'maxPerShopper', 'inStock', 'releaseAt', 'isNew', 'isOnSale', 'images', 'sizes', 'colors',
  'nonReturnable',
  'sizeRun',
] as const;

const patch = (named: readonly string[], body: Record<string, unknown>) =>
  Object.fromEntries(named.map((k) => [k, body[k]]));

/** The product as the form would send it: the base a PATCH is checked against. */
function payloadOf(p: AdminProduct): ProductPayloadInput {
  return {
    name: p.name,
    description: p.description,
    price: p.price,
    salePrice: p.salePrice,
    category: p.category,
    subcategory: p.subcategory,
    materials: p.materials,
    sustainabilityInfo: p.sustainabilityInfo,
    stock: p.stock,
    editionSize: p.editionSize,
    maxPerShopper: p.maxPerShopper,
    inStock: p.inStock,
    releaseAt: p.releaseAt,
    isNew: p.isNew,
    isOnSale: p.isOnSale,
    nonReturnable: p.nonReturnable,
    images: p.images,
    sizes: p.sizes,
    colors: p.colors,
    // A split product's run passes the category's size check (its labels are its own).
    ...(isSplit(p.sizeRun) && { sizeRun: [] }),
  };
}

type Details = Partial<Omit<ProductPayload, 'stock' | 'editionSize' | 'sizeRun'>>;

/** The contract's "12.34" prices → the row's cents (docs/decisions/016-money-minor-units.md); a field not named stays unnamed. */
function toDetails(fields: Details): Partial<ProductDetails> {
  const { price, salePrice, ...rest } = fields;
  return {
    ...rest,
    ...(price !== undefined && { priceCents: parseMoney(price) }),
    ...(salePrice !== undefined && { salePriceCents: parseMoneyOrNull(salePrice) }),
  };
}

/** A run's labels in run order, once each (a size × colour grid names each size once): the product's `sizes`. */
function labelsOf(run: readonly SizeRunEntry[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const e of run) {
    const label = normaliseSizeLabel(e.size);
    if (label && !seen.has(sizeKey(label))) {
      seen.add(sizeKey(label));
      out.push(label);
    }
  }
  return out;
}

/** The first thing wrong with a run, in the owner's words: 'M: Pieces must be a whole number, 0 or more.' */
function sizeRunProblem(run: readonly SizeRunEntry[], editionSize: number, keptPieces = 0): string | null {
  const check = validateSizeRun(run, editionSize, keptPieces);
  const issue = check.issues[0];
  if (!issue) return null;
  if (issue.index === null) return issue.message;
  const label = normaliseSizeLabel(run[issue.index]?.size ?? '');
  return `${label || `Size ${issue.index + 1}`}: ${issue.message}`;
}

const isSplit = (run: readonly AdminSize[] | readonly SizeStock[]) => run.some((s) => s.size !== null || s.colour !== null);

/** The owner's view of a product's run: empty while it is one pool; else every row, the kept one-run row included. */
function adminRunOf(rows: readonly SizeStock[]): AdminSize[] {
  if (!isSplit(rows)) return [];
  return rows.map((r) => ({
    size: r.size,
    colour: r.colour,
    pieces: r.pieces,
    left: r.left,
    held: r.held,
    sold: r.sold,
    soldOutAt: r.soldOutAt ? r.soldOutAt.toISOString() : null,
  }));
}

/**
 * The owner's product writes (the admin module's AdminProducts port, wired in server/services.ts): the
 * catalogue writes a product's details, inventory its stock, edition size and size run (ADR 015), all in
 * one transaction, so a refused size run leaves nothing written.
 */
export function createAdminProductsService(deps: {
  db: Db;
  catalog: CatalogService;
  inventory: InventoryService;
  /** True for images in our own storage (local uploads or the S3 public URL). */
  isOwnImageUrl: (url: string) => boolean;
}) {
  const { db, catalog, inventory } = deps;

  /** Rules the contract cannot check alone: the category exists, the images are ours. */
  async function assertStorable(payload: ProductPayload): Promise<void> {
    if (!(await catalog.getCategory(payload.category)))
      throw badRequest(`Category not found: ${payload.category}`);
    const foreign = payload.images.find((url) => !deps.isOwnImageUrl(url));
    if (foreign) throw badRequest('Images must be paths from our own storage');
  }

  async function withRuns(list: Product[], tx: DbOrTx = db): Promise<AdminProduct[]> {
    const runs = await readSizeStock(tx, list.map((p) => p.id));
    return list.map((p) => ({ ...p, sizeRun: adminRunOf(runs.get(p.id) ?? []) }));
  }

  async function fresh(id: string, tx: DbOrTx = db): Promise<AdminProduct | null> {
    const p = await catalog.getProductFresh(id, tx);
    return p ? (await withRuns([p], tx))[0]! : null;
  }

  /** A refused restock or resize, explained with the edition's numbers. */
  async function noRoom(id: string, editionSize: number | undefined): Promise<never> {
    const room = await inventory.editionRoom(id);
    if (!room) throw notFound(PRODUCT_NOT_FOUND);
    const size = editionSize ?? room.editionSize;
    if (room.sold + room.held > size) throw badRequest(EDITION_MESSAGES.sizeBelowSold(room.sold, room.held));
    const max = size - room.sold - room.held;
    throw badRequest(max === 0 ? EDITION_MESSAGES.soldOut(size) : EDITION_MESSAGES.onlyUnmade(max, room.sold, room.held, size));
  }

  /**
   * Writes the levels of a product in the caller's transaction. With a size run: the edition first (stock
   * 0 for now, so only sold + held can refuse it), then the run, which sets the stock to its sizes' sum and
   * refuses a size below its held + sold pieces. Without one, a split product keeps its stock and edition
   * (they belong to its run); an unsplit one takes `stock` as before. 'no-room' when the edition refuses.
   */
  async function writeLevels(
    tx: DbOrTx,
    id: string,
    levels: { stock?: number; editionSize?: number; sizeRun?: readonly SizeRunEntry[]; current: { stock: number; editionSize: number } },
  ): Promise<'ok' | 'no-room' | null> {
    const { stock, editionSize, sizeRun, current } = levels;
    if (sizeRun) {
      const result = await inventory.setSizeRun(tx, id, { run: sizeRun, editionSize });
      if (result === 'no-room') return 'no-room';
      if (!result.ok) throw badRequest(result.message);
      return 'ok';
    }
    const split = isSplit((await readSizeStock(tx, [id])).get(id) ?? []);
    if (split) {
      if (editionSize !== undefined && editionSize !== current.editionSize) throw badRequest(SIZE_RUN_MESSAGES.splitEdition(editionSize));
      if (stock !== undefined && stock !== current.stock) throw badRequest(SIZE_RUN_MESSAGES.splitStock);
      return 'ok';
    }
    if (stock === undefined && editionSize === undefined) return 'ok';
    return (await inventory.setLevels(tx, id, { stock: stock ?? current.stock, editionSize })) ? 'ok' : 'no-room';
  }

  return {
    async listProducts(): Promise<AdminProduct[]> {
      return withRuns(await catalog.listProductsFresh());
    },

    async createProduct(payload: ProductPayload): Promise<AdminProduct> {
      await assertStorable(payload);
      const { stock, editionSize, sizeRun, ...details } = payload;
      const size = editionSize ?? EDITION_SIZE;
      if (sizeRun) {
        const problem = sizeRunProblem(sizeRun, size);
        if (problem) throw badRequest(problem);
        details.sizes = labelsOf(sizeRun);
      } else if (stock > size) throw badRequest(EDITION_MESSAGES.onlyUnmade(size, 0, 0, size));
      // The catalogue writes the product, inventory its stock, edition size and size run, in one transaction.
      const product = await db.transaction(async (tx) => {
        const created = await catalog.insertProduct(tx, toDetails(details) as ProductDetails);
        if (!(await inventory.setLevels(tx, created.id, { stock: sizeRun ? 0 : stock, editionSize: size })))
          throw badRequest(EDITION_MESSAGES.onlyUnmade(size, 0, 0, size));
        if (sizeRun) {
          const result = await replaceSizeRun(tx, created.id, sizeRun);
          if (!result.ok) throw badRequest(result.message);
        }
        return (await fresh(created.id, tx))!;
      });
      catalog.invalidate();
      return product;
    },

    async updateProduct(id: string, payload: ProductPayload): Promise<AdminProduct> {
      if (!isUuid(id)) throw notFound(PRODUCT_NOT_FOUND);
      await assertStorable(payload);
      const { stock, editionSize, sizeRun, ...details } = payload;
      if (sizeRun) details.sizes = labelsOf(sizeRun);
      // Refused as a whole when the edition has no room for the stock (nothing is written then).
      const row = await db.transaction(async (tx) => {
        const now = await inventory.editionRoom(id);
        if (!now) return null;
        const wrote = await writeLevels(tx, id, { stock, editionSize, sizeRun, current: now });
        if (wrote !== 'ok') return wrote;
        return (await catalog.updateProduct(tx, id, toDetails(details) as ProductDetails)) ? fresh(id, tx) : null;
      });
      if (row === 'no-room') return noRoom(id, editionSize);
      if (!row) throw notFound(PRODUCT_NOT_FOUND);
      catalog.invalidate();
      return row;
    },

    /**
     * PATCH: writes only the fields named, checked together with the product's others (a sale price
     * below the price, sizes of the category). Stock is written only when named, so fixing a typo never
     * overwrites the stock a sale has just moved; with `expectedStock` a moved stock is a 409 with the
     * current number (StockConflictError) and nothing is written. The same holds for a size run.
     */
    async patchProduct(id: string, body: Record<string, unknown>): Promise<AdminProduct> {
      if (!isUuid(id)) throw notFound(PRODUCT_NOT_FOUND);
      const current = await fresh(id);
      if (!current) throw notFound(PRODUCT_NOT_FOUND);
      const named = PATCHABLE.filter((k) => body[k] !== undefined);
      // Each named field by its own rule; then the rules across fields (sale price below the price, sizes
      // of the category) on the product as it would be. A field the owner did not name is never judged:
      // an older product with an empty field still takes a typo fix.
      const values: Partial<ProductPayload> = {};
      for (const k of named) {
        const one = productPayloadSchema.shape[k].safeParse(body[k]);
        if (!one.success) throw badRequest(one.error.issues[0]?.message ?? 'Invalid product');
        Object.assign(values, { [k]: one.data });
      }
      const whole = productPayloadSchema.safeParse({ ...payloadOf(current), ...patch(named, body) });
      const affected = new Set<string>(named);
      if (named.includes('price')) affected.add('salePrice');
      if (named.includes('category')) affected.add('sizes');
      const across = whole.success ? undefined : whole.error.issues.find((i) => affected.has(String(i.path[0])));
      if (across) throw badRequest(across.message);
      if (values.category !== undefined && !(await catalog.getCategory(values.category)))
        throw badRequest(`Category not found: ${values.category}`);
      if (values.images?.some((url) => !deps.isOwnImageUrl(url))) throw badRequest('Images must be paths from our own storage');
      const { stock: _stock, editionSize: _size, sizeRun, ...details } = values;
      if (sizeRun) details.sizes = labelsOf(sizeRun);
      const expected = typeof body.expectedStock === 'number' ? body.expectedStock : undefined;

      const row = await db.transaction(async (tx) => {
        const now = await inventory.stockOf(id, tx);
        if (!now) return null;
        if ((named.includes('stock') || sizeRun) && expected !== undefined && now.stock !== expected)
          throw new StockConflictError(now.stock);
        const wrote = await writeLevels(tx, id, {
          stock: values.stock,
          editionSize: values.editionSize,
          sizeRun,
          current: { stock: now.stock, editionSize: current.editionSize },
        });
        if (wrote !== 'ok') return wrote;
        return (await catalog.updateProduct(tx, id, toDetails(details) as ProductDetails)) ? fresh(id, tx) : null;
      });
      if (row === 'no-room') return noRoom(id, values.editionSize);
      if (!row) throw notFound(PRODUCT_NOT_FOUND);
      catalog.invalidate();
      return row;
    },

    async deleteProduct(id: string): Promise<void> {
      if (!isUuid(id) || !(await catalog.deleteProduct(id))) throw notFound(PRODUCT_NOT_FOUND);
      catalog.invalidate();
    },
  };
}

export type AdminProductsService = ReturnType<typeof createAdminProductsService>;
