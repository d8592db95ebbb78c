import { and, eq, gt, lt, min, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { cartItems } from '../cart/cart.tables';
import { customerInfo } from '../checkout/checkout.tables';
import { sessions } from '../session/session.tables';
import { adminLoginAttempts, appSettings } from './admin.tables';

export async function readSetting(db: DbOrTx, key: string): Promise<string | null> {
  const [row] = await db
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.key, key))
    .limit(1);
  return row?.value ?? null;
}

export async function writeSetting(db: DbOrTx, key: string, value: string): Promise<void> {
  await db
    .insert(appSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: sql`now()` } });
}

/** Inserts only when the key is absent; true when this call stored it (first start races). */
export async function insertSettingIfAbsent(db: DbOrTx, key: string, value: string): Promise<boolean> {
  const rows = await db
    .insert(appSettings)
    .values({ key, value })
    .onConflictDoNothing()
    .returning({ key: appSettings.key });
  return rows.length > 0;
}

export async function recordLoginAttempt(db: DbOrTx, ip: string, success: boolean): Promise<void> {
  await db.insert(adminLoginAttempts).values({ ip, success });
}

/** Failed attempts from `ip` since `since`, and when the oldest of them happened. */
export async function countFailuresSince(
  db: DbOrTx,
  ip: string,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, oldest: min(adminLoginAttempts.at) })
    .from(adminLoginAttempts)
    .where(
      and(
        eq(adminLoginAttempts.ip, ip),
        eq(adminLoginAttempts.success, false),
        gt(adminLoginAttempts.at, since),
      ),
    );
  return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
}

export async function deleteLoginAttemptsBefore(db: DbOrTx, before: Date): Promise<number> {
  const rows = await db
    .delete(adminLoginAttempts)
    .where(lt(adminLoginAttempts.at, before))
    .returning({ id: adminLoginAttempts.id });
  return rows.length;
}

/**
 * Login gives the browser a new session id; the shopper's cart and saved details follow it.
 * (Tables of the cart and checkout modules, moved here because only login changes a session id.)
 */
export async function moveShopperRows(db: DbOrTx, fromSid: string, toSid: string): Promise<void> {
  await db.update(cartItems).set({ sessionId: toSid }).where(eq(cartItems.sessionId, fromSid));
  await db.update(customerInfo).set({ sessionId: toSid }).where(eq(customerInfo.sessionId, fromSid));
}

/** Logs every admin out (their shopper sessions and carts stay): used when the password changes. */
export async function revokeAdminSessions(db: DbOrTx): Promise<void> {
  await db
    .update(sessions)
    .set({ sess: sql`${sessions.sess} - 'admin'` })
    .where(sql`${sessions.sess} -> 'admin' is not null`);
}
