import crypto from 'node:crypto';
import { isUuid, type DiscountCode, type DiscountCodeCreate } from '../../../common/contracts/admin';
import { formatWelcomeCode, WELCOME_LENGTH, WELCOME_PERCENT } from '../../../common/domain/welcome-code';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { conflict, notFound } from '../../lib/http-error';
import {
  claimDiscountUsage,
  countDiscountUsage,
  findDiscountCode,
  insertCodeIfAbsent,
  insertDiscountCodeRow,
  listDiscountCodeRows,
  releaseDiscountUsage,
  setDiscountCodeActive,
  type DiscountCodeRow,
} from './discounts.repository';

export type { DiscountCodeRow };

const WELCOME_CODE_ATTEMPTS = 5;

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

/**
 * Discounts: the codes (FALL15, each newsletter signup's welcome code, the owner's codes), their claims
 * and usage counts. The rules (is a code valid, limited) are pure, in common/domain/discount.ts.
 * Claims and releases join the purchase's transaction (`tx`), in code order (see checkout).
 */
export function createDiscountsService(deps: { db: Db }) {
  const { db } = deps;

  return {
    /** The code row (upper-case code), or null. */
    find(code: string, tx: DbOrTx = db): Promise<DiscountCodeRow | null> {
      return findDiscountCode(tx, code);
    },
    /** Takes one usage of a limited code; false when it is used up, inactive or expired. */
    claim(tx: Tx, code: string): Promise<boolean> {
      return claimDiscountUsage(tx, code);
    },
    /** Gives a claimed usage back. */
    release(tx: Tx, code: string): Promise<void> {
      return releaseDiscountUsage(tx, code);
    },
    /** An order used the code: unlimited codes count it here (limited ones were counted by their claim). */
    countUse(tx: Tx, code: string): Promise<void> {
      return countDiscountUsage(tx, code);
    },

    /** A new single-use welcome code (10 %), inside the signup's transaction. */
    async createWelcomeCode(tx: Tx): Promise<string> {
      for (let i = 0; i < WELCOME_CODE_ATTEMPTS; i++) {
        const candidate = formatWelcomeCode(crypto.randomBytes(WELCOME_LENGTH));
        if (await insertCodeIfAbsent(tx, { code: candidate, discountPercent: WELCOME_PERCENT, maxUsage: 1 }))
          return candidate;
      }
      throw new Error('Could not allocate a unique welcome code');
    },

    // ---- the owner's codes (admin) ------------------------------------------------------------
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

export type DiscountsService = ReturnType<typeof createDiscountsService>;
