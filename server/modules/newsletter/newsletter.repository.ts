import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { newsletterSubscriptions } from './newsletter.tables';

export type SubscriptionRow = typeof newsletterSubscriptions.$inferSelect;

/**
 * Inserts the address once per mailbox; null when that e-mail, or another spelling of its mailbox (the
 * same `mailboxKey`), is already subscribed.
 */
export async function insertSubscription(
  db: DbOrTx,
  email: string,
  mailboxKey: string,
  discountCode: string,
): Promise<SubscriptionRow | null> {
  const [row] = await db
    .insert(newsletterSubscriptions)
    .values({ email, mailboxKey, discountCode })
    // Either unique index (e-mail, mailbox key) refuses the row.
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

/** The row holding this folded mailbox's key (the address its mail goes to), if any. */
export async function findByMailboxKey(db: DbOrTx, mailboxKey: string): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(newsletterSubscriptions)
    .where(eq(newsletterSubscriptions.mailboxKey, mailboxKey))
    .limit(1);
  return row ?? null;
}

/** Rows from before folding (no mailbox key yet), oldest first. */
export async function listUnkeyedSubscriptions(db: DbOrTx, limit: number): Promise<Array<{ id: string; email: string }>> {
  return db
    .select({ id: newsletterSubscriptions.id, email: newsletterSubscriptions.email })
    .from(newsletterSubscriptions)
    .where(isNull(newsletterSubscriptions.mailboxKey))
    .orderBy(asc(newsletterSubscriptions.subscribedAt), asc(newsletterSubscriptions.id))
    .limit(limit);
}

/** Gives an old row its mailbox key unless an older spelling of the mailbox holds it already (false then). */
export async function setMailboxKey(db: DbOrTx, id: string, mailboxKey: string): Promise<boolean> {
  const rows = await db
    .update(newsletterSubscriptions)
    .set({ mailboxKey })
    .where(
      and(
        eq(newsletterSubscriptions.id, id),
        sql`not exists (select 1 from ${newsletterSubscriptions} held where held.mailbox_key = ${mailboxKey})`,
      ),
    )
    .returning({ id: newsletterSubscriptions.id });
  return rows.length > 0;
}

export async function listSubscriptionRows(db: DbOrTx): Promise<SubscriptionRow[]> {
  return db.select().from(newsletterSubscriptions).orderBy(desc(newsletterSubscriptions.subscribedAt));
}
