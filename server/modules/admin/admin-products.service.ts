import { isUuid, type AdminProduct, type ProductPayload } from '../../../common/contracts/admin';
import type { Db } from '../../db/client';
import { EDITION_SIZE } from '../../../common/domain/stock';
import { badRequest, notFound } from '../../plugins/http-error';
import type { CatalogService } from '../catalog/catalog.service';
import { toProduct } from '../catalog/catalog.service';
import {
  deleteProductRow,
  findEditionRoom,
  insertProductRow,
  listAllProductRows,
  updateProductRow,
} from './admin-products.repository';

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
  /** True for images in our own storage (local uploads or the S3 public URL). */
  isOwnImageUrl: (url: string) => boolean;
}) {
  const { db, catalog } = deps;

  /** Rules the contract cannot check alone: the category exists, the images are ours. */
  async function assertStorable(payload: ProductPayload): Promise<void> {
    if (!(await catalog.getCategory(payload.category)))
      throw badRequest(`Category not found: ${payload.category}`);
    const foreign = payload.images.find((url) => !deps.isOwnImageUrl(url));
    if (foreign) throw badRequest('Images must be paths from our own storage');
  }

  return {
    async listProducts(): Promise<AdminProduct[]> {
      return (await listAllProductRows(db)).map(toProduct);
    },

    async createProduct(payload: ProductPayload): Promise<AdminProduct> {
      await assertStorable(payload);
      const size = payload.editionSize ?? EDITION_SIZE;
      if (payload.stock > size) throw badRequest(EDITION_MESSAGES.onlyUnmade(size, 0, 0, size));
      const row = await insertProductRow(db, payload);
      catalog.invalidate();
      return toProduct(row);
    },

    async updateProduct(id: string, payload: ProductPayload): Promise<AdminProduct> {
      if (!isUuid(id)) throw notFound(PRODUCT_NOT_FOUND);
      await assertStorable(payload);
      const row = await updateProductRow(db, id, payload);
      if (!row) {
        const room = await findEditionRoom(db, id);
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
      return toProduct(row);
    },

    async deleteProduct(id: string): Promise<void> {
      if (!isUuid(id) || !(await deleteProductRow(db, id))) throw notFound(PRODUCT_NOT_FOUND);
      catalog.invalidate();
    },
  };
}

export type AdminProductsService = ReturnType<typeof createAdminProductsService>;
