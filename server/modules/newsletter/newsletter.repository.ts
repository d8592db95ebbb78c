import { desc } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
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

export async function listSubscriptionRows(db: DbOrTx): Promise<SubscriptionRow[]> {
  return db.select().from(newsletterSubscriptions).orderBy(desc(newsletterSubscriptions.subscribedAt));
}
