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
      if (payload.stock > EDITION_SIZE)
        throw badRequest(`Stock can be at most ${EDITION_SIZE}: every design is limited to ${EDITION_SIZE} pieces`);
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
        const max = Math.max(0, room.editionSize - room.sold - room.held);
        throw badRequest(
          `Stock can be at most ${max}: ${room.sold} of ${room.editionSize} are sold${room.held ? ` and ${room.held} held in checkouts` : ''}`,
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
