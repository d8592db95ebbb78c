import { isUuid, type AdminProduct, type ProductPayload } from '../../../common/contracts/admin';
import type { Db } from '../../db/client';
import { EDITION_SIZE } from '../../../common/domain/stock';
import { badRequest, notFound } from '../../plugins/http-error';
import type { CatalogService } from '../catalog/catalog.service';
import type { InventoryService } from '../inventory/inventory.service';

export const PRODUCT_NOT_FOUND = 'Product not found';

/** The edition cap (issue 12 item 2): sold + held + stock never exceeds the edition size. */
export const EDITION_MESSAGES = {
  onlyUnmade: (left: number, sold: number, held: number, size: number) =>
    `Only ${left} ${left === 1 ? 'piece' : 'pieces'} of this edition remain unmade: ${sold} of ${size} are sold${held ? ` and ${held} held in checkouts` : ''}`,
  soldOut: (size: number) =>
    `All ${size} pieces of this edition are made: a sold-out edition cannot be restocked`,
  sizeBelowSold: (sold: number, held: number) =>
    `The edition size cannot be below the ${sold + held} pieces already sold${held ? ` or held in checkouts` : ''}`,
} as const;

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
        const created = await catalog.insertProduct(tx, details);
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
        (await inventory.setLevels(tx, id, { stock, editionSize })) ? catalog.updateProduct(tx, id, details) : null,
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

    async deleteProduct(id: string): Promise<void> {
      if (!isUuid(id) || !(await catalog.deleteProduct(id))) throw notFound(PRODUCT_NOT_FOUND);
      catalog.invalidate();
    },
  };
}

export type AdminProductsService = ReturnType<typeof createAdminProductsService>;
