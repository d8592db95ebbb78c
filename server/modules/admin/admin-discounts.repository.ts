import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { DiscountCodeCreate } from '../../../common/contracts/admin';
import { discountCodes } from '../checkout/checkout.tables';

export type DiscountCodeRow = typeof discountCodes.$inferSelect;

export function listDiscountCodeRows(db: DbOrTx): Promise<DiscountCodeRow[]> {
  return db.select().from(discountCodes).orderBy(desc(discountCodes.createdAt), desc(discountCodes.code));
}

/** null when the code is taken (codes are unique, stored upper case). */
export async function insertDiscountCodeRow(
  db: DbOrTx,
  input: DiscountCodeCreate,
): Promise<DiscountCodeRow | null> {
  const [row] = await db
    .insert(discountCodes)
    .values({
      code: input.code,
      discountPercent: input.discountPercent,
      maxUsage: input.maxUsage,
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
    })
    .onConflictDoNothing({ target: discountCodes.code })
    .returning();
  return row ?? null;
}

export async function setDiscountCodeActive(
  db: DbOrTx,
  id: string,
  isActive: boolean,
): Promise<DiscountCodeRow | null> {
  const [row] = await db.update(discountCodes).set({ isActive }).where(eq(discountCodes.id, id)).returning();
  return row ?? null;
}
