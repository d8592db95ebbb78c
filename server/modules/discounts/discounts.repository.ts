import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { DiscountCodeCreate } from '../../../common/contracts/admin';
import { discountCodes } from './discounts.tables';

export type DiscountCodeRow = typeof discountCodes.$inferSelect;

export async function findDiscountCode(db: DbOrTx, code: string): Promise<DiscountCodeRow | null> {
  const [row] = await db.select().from(discountCodes).where(eq(discountCodes.code, code)).limit(1);
  return row ?? null;
}

/** Atomically takes one usage of a limited code; false when it is used up, inactive or expired. */
export async function claimDiscountUsage(tx: DbOrTx, code: string): Promise<boolean> {
  const rows = await tx
    .update(discountCodes)
    .set({ usageCount: sql`${discountCodes.usageCount} + 1` })
    .where(
      and(
        eq(discountCodes.code, code),
        eq(discountCodes.isActive, true),
        sql`(${discountCodes.expiresAt} is null or ${discountCodes.expiresAt} > now())`,
        sql`(${discountCodes.maxUsage} is null or ${discountCodes.usageCount} < ${discountCodes.maxUsage})`,
      ),
    )
    .returning({ id: discountCodes.id });
  return rows.length > 0;
}

export async function releaseDiscountUsage(tx: DbOrTx, code: string): Promise<void> {
  await tx
    .update(discountCodes)
    .set({ usageCount: sql`${discountCodes.usageCount} - 1` })
    .where(and(eq(discountCodes.code, code), gt(discountCodes.usageCount, 0)));
}

/** Unlimited codes are counted when an order uses them. */
export async function countDiscountUsage(tx: DbOrTx, code: string): Promise<void> {
  await tx
    .update(discountCodes)
    .set({ usageCount: sql`${discountCodes.usageCount} + 1` })
    .where(and(eq(discountCodes.code, code), sql`${discountCodes.maxUsage} is null`));
}

/** Inserts a code; false when the code string is already taken. */
export async function insertCodeIfAbsent(
  db: DbOrTx,
  code: { code: string; discountPercent: number; maxUsage: number },
): Promise<boolean> {
  const rows = await db
    .insert(discountCodes)
    .values(code)
    .onConflictDoNothing({ target: discountCodes.code })
    .returning({ id: discountCodes.id });
  return rows.length > 0;
}

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
