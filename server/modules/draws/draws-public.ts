import type { DrawSale } from '../../../common/contracts/catalog';
import { DRAW_METHOD, type PublicDraw } from '../../../common/contracts/draws';
import { drawHasRun } from '../../../common/domain/draw-lifecycle';
import { formatMoney } from '../../../common/domain/money';
import type { DrawContext } from './draw-context';
import {
  drawsOwningSales,
  entriesOf,
  productDraw,
  productsSoldByDraw,
  productsWithDraws,
  type DrawRow,
} from './draws.repository';

/** How long a product page or grid may go on answering from this instance's read after a draw changed elsewhere. */
const DRAW_SALES_TTL_MS = 5_000;

/**
 * One read kept for `ttlMs` (Date.now, this instance's time: it only paces reads). A failed read is not kept:
 * the next caller asks again. `known()` answers without a promise once the read is in and current.
 */
function ttlRead<T>(read: () => Promise<T>, ttlMs: number) {
  let held: { readAt: number; value: Promise<T>; known?: T } | null = null;
  return {
    get(): Promise<T> {
      if (!held || Date.now() - held.readAt > ttlMs) {
        const mine: NonNullable<typeof held> = { readAt: Date.now(), value: read() };
        held = mine;
        mine.value.then(
          (v) => (mine.known = v),
          () => {
            if (held === mine) held = null;
          },
        );
      }
      return held.value;
    },
    known(): T | null {
      return held && held.known !== undefined && Date.now() - held.readAt <= ttlMs ? held.known : null;
    },
    forget(): void {
      held = null;
    },
  };
}

/**
 * What shoppers see of draws: the draw's public page, the product page's draw and the product cards' draw
 * sales. Every product page asks for its draw, and on drop day almost none has one, so the products that
 * ever had a draw and the draws owning a sale now are read together at most every DRAW_SALES_TTL_MS, in one
 * cache. A draw made, cancelled or settled on this instance forgets it at once; one on another instance shows
 * here within the TTL (the cart's refusal, productsSoldByDraw, always reads the database). Each new answer of
 * the sales gets a new version: server-rendered grids are cached under it (the seo module's pageVariant).
 */
export function createDrawsPublic(ctx: DrawContext) {
  const { db } = ctx;
  let version = 0;
  let lastJson = '';
  const sales = ttlRead(async () => {
    const withDraws = await productsWithDraws(db);
    const rows = withDraws.size === 0 ? [] : await drawsOwningSales(db);
    const list: DrawSale[] = rows.map((r) => ({
      productId: r.productId,
      drawId: r.id,
      status: r.status as DrawSale['status'],
      opensAt: r.opensAt.toISOString(),
      closesAt: r.closesAt.toISOString(),
      drawAt: r.drawAt.toISOString(),
    }));
    const json = JSON.stringify(list);
    if (json !== lastJson) {
      lastJson = json;
      version++;
    }
    return { withDraws: withDraws as ReadonlySet<string>, sales: list, version };
  }, DRAW_SALES_TTL_MS);

  async function publicView(row: DrawRow): Promise<PublicDraw> {
    const drawn = drawHasRun(row.status);
    const all = await entriesOf(db, row.id);
    const inDraw = all.filter((e) => e.rank !== null);
    const published = drawn
      ? inDraw.map((e) => ({
          publicId: e.publicId,
          weight: e.weight,
          size: e.size,
          secondSize: e.secondSize,
          rank: e.rank,
          outcome: e.status,
        }))
      : [];
    return {
      id: row.id,
      productId: row.productId,
      productName: await ctx.productName(row.productId),
      status: row.status as PublicDraw['status'],
      method: DRAW_METHOD,
      opensAt: row.opensAt.toISOString(),
      closesAt: row.closesAt.toISOString(),
      drawAt: row.drawAt.toISOString(),
      price: formatMoney(row.priceCents),
      pieces: row.pieces,
      commitment: row.commitment,
      // The seed stays secret until the draw: with it, anyone could compute the order in advance.
      seed: drawn ? row.seed : null,
      entries: published,
      winners: drawn
        ? inDraw
            .filter((e) => e.status === 'won')
            .map((e) => ({ publicId: e.publicId, size: e.allocatedSize }))
        : [],
      fairness: await ctx.fairnessOfDraw(row.id),
      // A duplicate names the entry it duplicates; an entry removed under the sit_out rule names none.
      removedDuplicates: all.filter((e) => e.status === 'removed' && e.duplicateOf !== null).length,
      removedRecentWinners: all.filter((e) => e.status === 'removed' && e.duplicateOf === null).length,
      entryCount: drawn ? inDraw.length : all.filter((e) => e.status === 'confirmed').length,
    };
  }

  return {
    /** A draw was made, cancelled or settled here: this instance's cards and pages say so at once. */
    forgetSales: () => sales.forget(),

    async publicDraw(id: string): Promise<PublicDraw> {
      return publicView(await ctx.requireDraw(id));
    },

    /** The products among these whose sale a draw owns now (DRAW_OWNS_SALE): the cart refuses them. */
    productsSoldByDraw: (productIds: readonly string[]): Promise<ReadonlySet<string>> =>
      productsSoldByDraw(db, productIds),

    /**
     * The product's draw under way, else its latest one; null when it never had one (the ordinary answer
     * for a product page, so a 200: a 404 would be a console error on every product page).
     */
    async publicDrawOfProduct(productId: string): Promise<PublicDraw | null> {
      if (!(await sales.get()).withDraws.has(productId)) return null;
      const row = await productDraw(db, productId);
      return row ? publicView(row) : null;
    },

    /**
     * What the product page shows of its draw, as a short stamp (the draw, its status and its last change;
     * '' when it never had one): server-rendered product pages are cached under it, so a cached page turns
     * with its draw. A product known to have none is answered without a promise.
     */
    productDrawStamp(productId: string): string | Promise<string> {
      const known = sales.known();
      if (known && !known.withDraws.has(productId)) return '';
      return (async () => {
        if (!(await sales.get()).withDraws.has(productId)) return '';
        const row = await productDraw(db, productId);
        return row ? `${row.id}.${row.status}.${row.updatedAt.getTime()}` : '';
      })();
    },

    /** The draws that own their product's sale now, for the product cards (GET /api/products/draws). */
    async drawSales(): Promise<DrawSale[]> {
      return (await sales.get()).sales;
    },

    /**
     * drawSales' answer as a short stamp (its version): server-rendered grids are cached under it, so a
     * cached grid turns with the draws. Sync while the answer is read and current.
     */
    drawSalesStamp(): string | Promise<string> {
      const known = sales.known();
      if (known) return `s${known.version}`;
      return sales.get().then((answer) => `s${answer.version}`);
    },
  };
}
