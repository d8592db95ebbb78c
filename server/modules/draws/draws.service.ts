import type { DbOrTx } from '../../db/client';
import { checkSizes, createDrawContext, DRAW_MESSAGES, type DrawsDeps } from './draw-context';
import { createDrawsAdmin } from './draws-admin';
import { createDrawEntries } from './draws-entries';
import { createDrawsPublic } from './draws-public';
import { createDrawsRun } from './draws-run';
import { findDraw, type DrawEntryRow, type DrawRow } from './draws.repository';

export type { DrawEntryRow, DrawRow };
export type { LiveEntry } from './draws-entries';
export { checkSizes, DRAW_MESSAGES, type DrawsDeps };

/**
 * The draws module: draws and their entries (docs/draw.md, ADR 018), assembled from its parts, one job each:
 * - draws-admin.ts: the owner's draws (make, reschedule, list, entries, cancel);
 * - draws-public.ts: what shoppers see (the draw's page, the product page's draw, the cards' draw sales),
 *   with the module's one cache;
 * - draws-entries.ts: entering and the entrant's link (identity keys, confirm, sizes, withdraw);
 * - draws-run.ts: running a draw (window, duplicates, fairness, ranking, capture claims, settle).
 * Its own tables only (SQL in draws.repository.ts; statuses asked of common/domain/draw-lifecycle.ts); the
 * card, the stock and the orders are the flows' (server/flows/enter-draw.ts, settle-draw.ts), which call
 * the steps here. Decisions read the one clock (`clock`, the database's).
 */
export function createDrawsService(deps: DrawsDeps) {
  const ctx = createDrawContext({
    db: deps.db,
    catalog: deps.catalog,
    secret: deps.secret,
    clock: deps.clock,
  });
  const { forgetSales, ...shopperViews } = createDrawsPublic(ctx);
  const admin = createDrawsAdmin(ctx, { forgetSales });
  const entries = createDrawEntries(ctx);
  const run = createDrawsRun(ctx, { forgetSales });

  return {
    messages: DRAW_MESSAGES,
    windowOpen: ctx.windowOpen,
    findDraw: (id: string, tx: DbOrTx = deps.db): Promise<DrawRow | null> => findDraw(tx, id),
    checkSizes,
    ...admin,
    ...shopperViews,
    ...entries,
    ...run,
  };
}

export type DrawsService = ReturnType<typeof createDrawsService>;
