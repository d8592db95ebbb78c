import { and, eq, gt, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { lockSeed } from '../../lib/advisory-locks';
import { purchaseClaims } from './purchase-limits.tables';

/**
 * Waits for the (product, identity) locks of this transaction, taken in the order of their keys, so
 * two attempts of one shopper (or two shoppers sharing an identity) never pass the check together and
 * never deadlock.
 */
export async function lockClaimKeys(tx: DbOrTx, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await tx.execute(sql`
    select pg_advisory_xact_lock(k)
    from (
      select distinct hashtextextended(x, ${lockSeed('purchaseClaim')}) as k
      from unnest(array[${sql.join(
        keys.map((k) => sql`${k}`),
        sql`, `,
      )}]::text[]) as x
      order by k
    ) s`);
}

/**
 * Units of each product held or bought under any of `identities`, each checkout counted once (one
 * checkout has a row per identity for the same units), leaving out `exceptCheckout`.
 */
export async function sumClaimedUnits(
  tx: DbOrTx,
  productIds: readonly string[],
  identities: readonly string[],
  exceptCheckout: string | null,
): Promise<Map<string, number>> {
  if (productIds.length === 0 || identities.length === 0) return new Map();
  const perCheckout = tx
    .select({
      productId: purchaseClaims.productId,
      checkoutId: purchaseClaims.checkoutId,
      quantity: sql<number>`max(${purchaseClaims.quantity})`.as('quantity'),
    })
    .from(purchaseClaims)
    .where(
      and(
        inArray(purchaseClaims.productId, [...productIds]),
        inArray(purchaseClaims.identity, [...identities]),
        inArray(purchaseClaims.status, ['held', 'consumed']),
        exceptCheckout ? ne(purchaseClaims.checkoutId, exceptCheckout) : undefined,
      ),
    )
    .groupBy(purchaseClaims.productId, purchaseClaims.checkoutId)
    .as('per_checkout');
  const rows = await tx
    .select({ productId: perCheckout.productId, units: sql<number>`sum(${perCheckout.quantity})::int` })
    .from(perCheckout)
    .groupBy(perCheckout.productId);
  return new Map(rows.map((r) => [r.productId, Number(r.units)]));
}

/** The session's own units of a product by status (the cart's check). */
export async function sessionUnits(
  db: DbOrTx,
  productId: string,
  identity: string,
): Promise<{ held: number; consumed: number }> {
  const rows = await db
    .select({ status: purchaseClaims.status, units: sql<number>`coalesce(sum(${purchaseClaims.quantity}), 0)::int` })
    .from(purchaseClaims)
    .where(
      and(
        eq(purchaseClaims.productId, productId),
        eq(purchaseClaims.identity, identity),
        inArray(purchaseClaims.status, ['held', 'consumed']),
      ),
    )
    .groupBy(purchaseClaims.status);
  const of = (s: string) => Number(rows.find((r) => r.status === s)?.units ?? 0);
  return { held: of('held'), consumed: of('consumed') };
}

/** The latest lapse (release) of a claim on each product under any of `identities` since `since`. */
export async function latestLapses(
  tx: DbOrTx,
  productIds: readonly string[],
  identities: readonly string[],
  since: Date,
): Promise<Map<string, Date>> {
  if (productIds.length === 0 || identities.length === 0) return new Map();
  const rows = await tx
    .select({ productId: purchaseClaims.productId, at: sql<Date>`max(${purchaseClaims.releasedAt})` })
    .from(purchaseClaims)
    .where(
      and(
        inArray(purchaseClaims.productId, [...productIds]),
        inArray(purchaseClaims.identity, [...identities]),
        eq(purchaseClaims.status, 'released'),
        gt(purchaseClaims.releasedAt, since),
      ),
    )
    .groupBy(purchaseClaims.productId);
  return new Map(rows.map((r) => [r.productId, new Date(r.at)]));
}

export async function insertClaims(
  tx: DbOrTx,
  rows: ReadonlyArray<{ productId: string; checkoutId: string; identity: string; quantity: number; status: 'held' | 'consumed' }>,
): Promise<void> {
  if (rows.length === 0) return;
  await tx.insert(purchaseClaims).values([...rows]);
}

export async function listClaimsOf(
  tx: DbOrTx,
  checkoutId: string,
): Promise<Array<{ productId: string; identity: string; status: string }>> {
  return tx
    .select({ productId: purchaseClaims.productId, identity: purchaseClaims.identity, status: purchaseClaims.status })
    .from(purchaseClaims)
    .where(eq(purchaseClaims.checkoutId, checkoutId));
}

/** The checkout's claims become its order's (whatever they were: a late payment re-takes released ones). */
export async function consumeClaims(tx: DbOrTx, checkoutId: string): Promise<void> {
  await tx
    .update(purchaseClaims)
    .set({ status: 'consumed', releasedAt: null })
    .where(eq(purchaseClaims.checkoutId, checkoutId));
}

/**
 * Held claims of these checkouts end: released with the time (a lapse), or removed (superseded).
 * `at`: the instant of the release, from the injected clock (`now()` in production).
 */
export async function endHeldClaims(
  tx: DbOrTx,
  checkoutIds: readonly string[],
  how: 'released' | 'removed',
  opts: { only?: readonly string[]; at: SQL },
): Promise<void> {
  if (checkoutIds.length === 0 || opts.only?.length === 0) return;
  const where = and(
    inArray(purchaseClaims.checkoutId, [...checkoutIds]),
    eq(purchaseClaims.status, 'held'),
    opts.only ? inArray(purchaseClaims.productId, [...opts.only]) : undefined,
  );
  if (how === 'removed') await tx.delete(purchaseClaims).where(where);
  else await tx.update(purchaseClaims).set({ status: 'released', releasedAt: opts.at }).where(where);
}
