import { isUuid, type DiscountCode, type DiscountCodeCreate } from '../../../common/contracts/admin';
import type { Db } from '../../db/client';
import { conflict, notFound } from '../../plugins/http-error';
import {
  insertDiscountCodeRow,
  listDiscountCodeRows,
  setDiscountCodeActive,
  type DiscountCodeRow,
} from './admin-discounts.repository';

function toDiscountCode(row: DiscountCodeRow): DiscountCode {
  return {
    id: row.id,
    code: row.code,
    discountPercent: row.discountPercent,
    isActive: row.isActive,
    usageCount: row.usageCount,
    maxUsage: row.maxUsage,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
  };
}

export function createAdminDiscountsService(db: Db) {
  return {
    async listDiscountCodes(): Promise<DiscountCode[]> {
      return (await listDiscountCodeRows(db)).map(toDiscountCode);
    },

    async createDiscountCode(input: DiscountCodeCreate): Promise<DiscountCode> {
      const row = await insertDiscountCodeRow(db, input);
      if (!row) throw conflict(`The code ${input.code} already exists`);
      return toDiscountCode(row);
    },

    /** Deactivating stops new uses at once; orders that used the code keep it. */
    async setActive(id: string, isActive: boolean): Promise<DiscountCode> {
      const row = isUuid(id) ? await setDiscountCodeActive(db, id, isActive) : null;
      if (!row) throw notFound('Discount code not found');
      return toDiscountCode(row);
    },
  };
}

export type AdminDiscountsService = ReturnType<typeof createAdminDiscountsService>;
