import type { Db } from '../../db/client';
import type { Clock } from '../../lib/db-clock';
import { notFound } from '../../lib/http-error';
import type { Product } from '../../../common/contracts/catalog';
import { dropMessages, type DropClock } from '../../../common/domain/drop';
import { ensureDropRows } from './drops.repository';
import type { DropCatalog, DropSettings } from './drops.ports';

export const iso = (ms: number) => new Date(ms).toISOString();

/**
 * What every part of the waiting room shares (room state, admission ticker, passes, streams, admin view):
 * the database, the one clock of drop-day decisions (server/lib/db-clock.ts, ADR 010 "One clock": `now()`
 * in the app, `sqlNow()` in every statement that decides), the settings, and a drop's product and clock.
 */
export interface DropContext {
  db: Db;
  clock: Clock;
  settings: DropSettings;
  catalog: DropCatalog;
  /** A product's drop clock (release, raffle, window), or null when it has no release time. */
  clockOf(product: Product): DropClock | null;
  /** The product and its drop clock; 404 when there is no such product or it has no release time. */
  dropProduct(productId: string, fresh?: boolean): Promise<{ product: Product; clock: DropClock }>;
  /** The drop rows of these products exist (created on first use; remembered per instance). */
  ensureRows(productIds: readonly string[]): Promise<void>;
}

export function createDropContext(deps: { db: Db; clock: Clock; settings: DropSettings; catalog: DropCatalog }): DropContext {
  const { db, settings, catalog } = deps;
  const ensured = new Set<string>();

  const clockOf = (product: Product): DropClock | null =>
    product.releaseAt
      ? { releaseAtMs: Date.parse(product.releaseAt), raffleMs: settings.raffleMs, windowMs: settings.windowMs }
      : null;

  return {
    ...deps,
    clockOf,
    async dropProduct(productId, fresh = false) {
      const product = fresh
        ? await catalog.getProductFresh(productId)
        : ((await catalog.getProduct(productId)) ?? (await catalog.getProductFresh(productId)));
      if (!product) throw notFound('Product not found');
      const clock = clockOf(product);
      if (!clock) throw notFound(dropMessages.noDrop);
      return { product, clock };
    },
    async ensureRows(productIds) {
      const missing = productIds.filter((id) => !ensured.has(id));
      if (missing.length === 0) return;
      await ensureDropRows(db, missing);
      for (const id of missing) ensured.add(id);
    },
  };
}
