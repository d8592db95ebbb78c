import { isUuid, productPayloadSchema, type AdminProduct, type ProductPayload, type ProductPayloadInput } from '../../../common/contracts/admin';
import type { Db } from '../../db/client';
import { EDITION_SIZE } from '../../../common/domain/stock';
import { badRequest, HttpError, notFound } from '../../plugins/http-error';
import { parseMoney, parseMoneyOrNull } from '../../../common/domain/money';
import type { CatalogService, ProductDetails } from '../catalog/catalog.service';
import type { InventoryService } from '../inventory/inventory.service';

export const PRODUCT_NOT_FOUND = 'Product not found';

/** The edition cap (docs/operations.md, The edition cap): sold + held + stock never exceeds the edition size. */
export const EDITION_MESSAGES = {
  onlyUnmade: (left: number, sold: number, held: number, size: number) =>
    `Only ${left} ${left === 1 ? 'piece' : 'pieces'} of this edition remain unmade: ${sold} of ${size} are sold${held ? ` and ${held} held in checkouts` : ''}`,
  soldOut: (size: number) =>
    `All ${size} pieces of this edition are made: a sold-out edition cannot be restocked`,
  sizeBelowSold: (sold: number, held: number) =>
    `The edition size cannot be below the ${sold + held} pieces already sold${held ? ` or held in checkouts` : ''}`,
} as const;

/** 409 of a PATCH whose stock moved since the form was loaded: the answer carries the current number. */
export class StockConflictError extends HttpError {
  constructor(readonly currentStock: number) {
    super(409, `Stock changed while you were editing: it is now ${currentStock}. Check it and save again.`);
  }
}

/** The fields of productPayloadSchema a PATCH may name (anything else is ignored). */
const PATCHABLE = [
  'name', 'description', 'price', 'salePrice', 'category', 'subcategory', 'materials', 'sustainabilityInfo',
  'stock', 'editionSize', 'maxPerShopper', 'inStock', 'releaseAt', 'isNew', 'isOnSale', 'images', 'sizes', 'colors',
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
    images: p.images,
    sizes: p.sizes,
    colors: p.colors,
  };
}

/** The contract's "12.34" prices → the row's cents (docs/decisions/016-money-minor-units.md); a field not named stays unnamed. */
function toDetails(fields: Partial<Omit<ProductPayload, 'stock' | 'editionSize'>>): Partial<ProductDetails> {
  const { price, salePrice, ...rest } = fields;
  return {
    ...rest,
    ...(price !== undefined && { priceCents: parseMoney(price) }),
    ...(salePrice !== undefined && { salePriceCents: parseMoneyOrNull(salePrice) }),
  };
}

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

  return {
    async listProducts(): Promise<AdminProduct[]> {
      return catalog.listProductsFresh();
    },

    async createProduct(payload: ProductPayload): Promise<AdminProduct> {
      await assertStorable(payload);
      const { stock, editionSize, ...details } = payload;
      const size = editionSize ?? EDITION_SIZE;
      if (stock > size) throw badRequest(EDITION_MESSAGES.onlyUnmade(size, 0, 0, size));
      // The catalogue writes the product, inventory its stock and edition size, in one transaction.
      const product = await db.transaction(async (tx) => {
        const created = await catalog.insertProduct(tx, toDetails(details) as ProductDetails);
        if (!(await inventory.setLevels(tx, created.id, { stock, editionSize: size })))
          throw badRequest(EDITION_MESSAGES.onlyUnmade(size, 0, 0, size));
        return (await catalog.getProductFresh(created.id, tx))!;
      });
      catalog.invalidate();
      return product;
    },

    async updateProduct(id: string, payload: ProductPayload): Promise<AdminProduct> {
      if (!isUuid(id)) throw notFound(PRODUCT_NOT_FOUND);
      await assertStorable(payload);
      const { stock, editionSize, ...details } = payload;
      // Refused as a whole when the edition has no room for the stock (nothing is written then).
      const row = await db.transaction(async (tx) =>
        (await inventory.setLevels(tx, id, { stock, editionSize })) ? catalog.updateProduct(tx, id, toDetails(details) as ProductDetails) : null,
      );
      if (!row) {
        const room = await inventory.editionRoom(id);
        if (!room) throw notFound(PRODUCT_NOT_FOUND);
        const size = payload.editionSize ?? room.editionSize;
        if (room.sold + room.held > size)
          throw badRequest(EDITION_MESSAGES.sizeBelowSold(room.sold, room.held));
        const max = size - room.sold - room.held;
        throw badRequest(
          max === 0
            ? EDITION_MESSAGES.soldOut(size)
            : EDITION_MESSAGES.onlyUnmade(max, room.sold, room.held, size),
        );
      }
      catalog.invalidate();
      return row;
    },

    /**
     * PATCH: writes only the fields named, checked together with the product's others (a sale price
     * below the price, sizes of the category). Stock is written only when named, so fixing a typo never
     * overwrites the stock a sale has just moved; with `expectedStock` a moved stock is a 409 with the
     * current number (StockConflictError) and nothing is written.
     */
    async patchProduct(id: string, body: Record<string, unknown>): Promise<AdminProduct> {
      if (!isUuid(id)) throw notFound(PRODUCT_NOT_FOUND);
      const current = await catalog.getProductFresh(id);
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
      const { stock: _stock, editionSize: _size, ...details } = values;
      const merged = { stock: values.stock ?? current.stock, editionSize: values.editionSize };
      const expected = typeof body.expectedStock === 'number' ? body.expectedStock : undefined;
      const levels = named.includes('stock') || named.includes('editionSize');

      const row = await db.transaction(async (tx) => {
        if (levels) {
          const now = await inventory.stockOf(id, tx);
          if (!now) return null;
          if (named.includes('stock') && expected !== undefined && now.stock !== expected) throw new StockConflictError(now.stock);
          const stock = named.includes('stock') ? merged.stock : now.stock;
          const editionSize = named.includes('editionSize') ? merged.editionSize : undefined;
          if (!(await inventory.setLevels(tx, id, { stock, editionSize }))) return 'no-room' as const;
        }
        return catalog.updateProduct(tx, id, toDetails(details) as ProductDetails);
      });
      if (row === 'no-room') {
        const room = await inventory.editionRoom(id);
        if (!room) throw notFound(PRODUCT_NOT_FOUND);
        const size = merged.editionSize ?? room.editionSize;
        if (room.sold + room.held > size) throw badRequest(EDITION_MESSAGES.sizeBelowSold(room.sold, room.held));
        const max = size - room.sold - room.held;
        throw badRequest(max === 0 ? EDITION_MESSAGES.soldOut(size) : EDITION_MESSAGES.onlyUnmade(max, room.sold, room.held, size));
      }
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
