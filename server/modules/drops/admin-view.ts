import type { Product } from '../../../common/contracts/catalog';
import type { AdminDrop, AdminDropSize, AdminDropUpdate } from '../../../common/contracts/drops';
import { dropMessages, dropPhase } from '../../../common/domain/drop';
import { firstSizeSoldOut } from '../../../common/domain/sell-out';
import { notFound } from '../../lib/http-error';
import { iso, type DropContext } from './drop-context';
import { countQueues, findDropRows, updateDropSettings } from './drops.repository';
import type { DropInventory, DropSizeStock } from './drops.ports';
import type { RoomState } from './room-state';

/**
 * The owner's Drops view (GET/PATCH /api/admin/drops): every drop's pace, queue, admissions and edition
 * numbers, and per size for an edition split into sizes (ADR 015). The list costs the same few queries
 * however many drops there are: the drop rows, the queue counts, the editions and the size runs, each one
 * query for all products.
 */
export function createAdminView(ctx: DropContext, deps: { inventory: DropInventory; room: RoomState }) {
  const { db, clock } = ctx;
  const { inventory, room } = deps;

  async function adminDrops(products: Product[]): Promise<AdminDrop[]> {
    const ids = products.map((p) => p.id);
    await ctx.ensureRows(ids);
    const [rows, counts, editions, runs] = await Promise.all([
      findDropRows(db, ids),
      countQueues(db, ids, clock.sqlNow()),
      inventory.editionRooms(ids),
      inventory.sizeStock ? inventory.sizeStock(ids) : new Map<string, DropSizeStock[]>(),
    ]);
    const dropById = new Map(rows.map((r) => [r.productId, r]));
    const countsById = new Map(counts.map((c) => [c.productId, c]));
    const now = clock.now();
    const out: AdminDrop[] = [];
    for (const product of products) {
      const dropClock = ctx.clockOf(product);
      const drop = dropById.get(product.id);
      if (!dropClock || !drop) continue;
      const edition = editions.get(product.id);
      const held = edition?.held ?? 0;
      const sold = edition?.sold ?? product.soldCount;
      const left = edition?.stock ?? 0;
      const c = countsById.get(product.id);
      const phase = dropPhase(dropClock, now, drop.soldOutAt !== null);
      const waiting = c?.waiting ?? 0;
      // One pool (no run, or only the one run) answers as before; a split edition adds its sizes.
      const run = runs.get(product.id) ?? [];
      const split = run.some((s) => s.size !== null || s.colour !== null);
      out.push({
        productId: product.id,
        name: product.name,
        releaseAt: iso(dropClock.releaseAtMs),
        phase,
        admitPerMinute: drop.admitPerMinute,
        paused: drop.paused,
        message: drop.message,
        queueLength: waiting,
        admitted: c?.admitted ?? 0,
        admittedPerSecond: (c?.admittedRecently ?? 0) / 10,
        admittedLastMinute: c?.admittedLastMinute ?? 0,
        // The pacing clock (admitted_at) plus one place's interval; none while paused, empty or sold out.
        nextAdmissionAt:
          phase === 'open' && !drop.paused && waiting > 0 && left > 0
            ? iso(Math.max(now, (drop.admittedAt?.getTime() ?? dropClock.releaseAtMs) + 60_000 / drop.admitPerMinute))
            : null,
        held,
        sold,
        left,
        editionSize: edition?.editionSize ?? product.editionSize,
        // products.sold_out_at (stamped with the sale of the last piece, through the catalogue); else the
        // drop's own stamp, set by the tick when nothing was left or held.
        sellOutSeconds:
          product.sellOutSeconds ??
          (drop.soldOutAt && left === 0 && held === 0
            ? Math.max(0, Math.round((drop.soldOutAt.getTime() - dropClock.releaseAtMs) / 1000))
            : null),
        ...(split && {
          // The one run shows only while it keeps pieces ("sold before sizes").
          sizes: run.filter((s) => s.size !== null || s.left + (s.held ?? 0) + (s.sold ?? 0) > 0).map((s): AdminDropSize => ({
            size: s.size,
            colour: s.colour,
            held: s.held ?? 0,
            sold: s.sold ?? 0,
            left: s.left,
          })),
          firstSoldOut: firstSizeSoldOut(run, dropClock.releaseAtMs),
        }),
      });
    }
    return out;
  }

  return {
    /** GET /api/admin/drops: every product with a release time, newest release first. */
    async adminList(): Promise<AdminDrop[]> {
      const products = (await ctx.catalog.listProductsFresh())
        .filter((p) => p.releaseAt)
        .sort((a, b) => Date.parse(b.releaseAt!) - Date.parse(a.releaseAt!));
      return adminDrops(products);
    },

    /** PATCH /api/admin/drops/:productId: the owner's admission rate, pause and message. */
    async adminUpdate(productId: string, change: AdminDropUpdate): Promise<AdminDrop> {
      const { product } = await ctx.dropProduct(productId, true);
      await ctx.ensureRows([productId]);
      if (!(await updateDropSettings(db, productId, change, clock.sqlNow()))) throw notFound(dropMessages.noDrop);
      room.snapshots.invalidate(productId);
      const [drop] = await adminDrops([product]);
      return drop!;
    },
  };
}

export type AdminView = ReturnType<typeof createAdminView>;
