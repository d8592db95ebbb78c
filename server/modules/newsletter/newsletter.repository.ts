import { desc } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { discountCodes } from '../checkout/checkout.tables';
import { newsletterSubscriptions } from './newsletter.tables';

export type SubscriptionRow = typeof newsletterSubscriptions.$inferSelect;

/** Inserts the address once; null when it is already subscribed (unique e-mail). */
export async function insertSubscription(
  db: DbOrTx,
  email: string,
  discountCode: string,
): Promise<SubscriptionRow | null> {
  const [row] = await db
    .insert(newsletterSubscriptions)
    .values({ email, discountCode })
    .onConflictDoNothing({ target: newsletterSubscriptions.email })
    .returning();
  return row ?? null;
}

/** Inserts a discount code; false when the code string is already taken. */
export async function insertDiscountCode(
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

export async function listSubscriptionRows(db: DbOrTx): Promise<SubscriptionRow[]> {
  return db.select().from(newsletterSubscriptions).orderBy(desc(newsletterSubscriptions.subscribedAt));
}
