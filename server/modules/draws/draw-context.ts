import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../../db/client';
import { NO_FAIRNESS, type DrawFairness } from '../../../common/domain/draw-fairness';
import { drawTakesEntries } from '../../../common/domain/draw-lifecycle';
import { sizeKey } from '../../../common/domain/size-run';
import type { Clock } from '../../lib/db-clock';
import { badRequest, notFound } from '../../lib/http-error';
import type { DrawCatalog } from './draws.ports';
import { fairnessOf, findDraw, type DrawRow } from './draws.repository';

export const DRAW_MESSAGES = {
  notFound: 'Draw not found',
  entryNotFound: 'This link is not valid.',
  notOpenYet: 'Entries for this draw are not open yet.',
  closed: 'Entries for this draw are closed.',
  alreadyEntered:
    'You have already entered this draw. Use the link in your e-mail to see or change your entry.',
  linkSentAgain:
    'You have already entered this draw. We have sent the link to confirm your entry to your e-mail again.',
  notChangeable: 'Entries for this draw are closed: your entry can no longer be changed.',
  chooseSize: 'Please choose a size.',
  unknownSize: (size: string) => `This piece does not come in ${size}.`,
  sameSecondSize: 'Your second choice must be a different size.',
  onlyWhileScheduled: 'A draw can be changed only before its entry window opens.',
  oneLiveDraw: 'This product already has a draw under way.',
  tooEarlyToRun: 'The draw can run only once the entry window has closed.',
  notCancellable: 'A draw can be cancelled only before it runs.',
  recentWinner: (lookback: number) =>
    lookback === 1
      ? 'Removed before the draw: this e-mail address won the last draw here, and this draw lets recent winners sit out.'
      : `Removed before the draw: this e-mail address won one of the last ${lookback} draws here, and this draw lets recent winners sit out.`,
} as const;

export interface DrawsDeps {
  db: Db;
  catalog: DrawCatalog;
  /** Keys the hashes of folded identities (mailbox, delivery address, card; ADR 013). */
  secret: string;
  clock: Clock;
  log?: FastifyBaseLogger;
}

/**
 * What every part of the draws module shares (admin, public view, entries, run): the database, the one
 * clock every decision reads (the database's), the catalogue port, and the few reads all of them make.
 */
export interface DrawContext {
  db: Db;
  clock: Clock;
  catalog: DrawCatalog;
  secret: string;
  /** The draw; 404 with DRAW_MESSAGES.notFound when there is none. */
  requireDraw(id: string): Promise<DrawRow>;
  /** The entry window by the one clock: opened, not yet closed, and the draw neither closed nor cancelled. */
  windowOpen(d: DrawRow): boolean;
  productName(productId: string): Promise<string>;
  fairnessOfDraw(drawId: string, tx?: DbOrTx): Promise<DrawFairness>;
}

export function createDrawContext(deps: { db: Db; clock: Clock; catalog: DrawCatalog; secret: string }): DrawContext {
  const { db, clock, catalog } = deps;
  return {
    ...deps,
    async requireDraw(id) {
      const row = await findDraw(db, id);
      if (!row) throw notFound(DRAW_MESSAGES.notFound);
      return row;
    },
    windowOpen(d) {
      const now = clock.now();
      return drawTakesEntries(d.status) && now >= d.opensAt.getTime() && now < d.closesAt.getTime();
    },
    async productName(productId) {
      return (await catalog.getProductFresh(productId))?.name ?? 'This piece';
    },
    async fairnessOfDraw(drawId, tx = db) {
      return (await fairnessOf(tx, [drawId])).get(drawId) ?? NO_FAIRNESS;
    },
  };
}

/** The sizes an entry may ask for: a split product's run, else the sizes it lists; none for a one-size piece. */
function sizesOf(product: { sizes: string[]; sizeStock?: Array<{ size: string | null }> }): string[] {
  const split = (product.sizeStock ?? []).map((s) => s.size).filter((s): s is string => s !== null);
  return split.length > 0 ? split : product.sizes;
}

/** The shopper's sizes checked against the product's: first required when it has sizes, second different. */
export function checkSizes(
  product: { sizes: string[]; sizeStock?: Array<{ size: string | null }> },
  size: string | null | undefined,
  secondSize: string | null | undefined,
): { size: string | null; secondSize: string | null } {
  const sizes = sizesOf(product);
  if (sizes.length === 0) return { size: null, secondSize: null };
  const find = (s: string) => sizes.find((x) => sizeKey(x) === sizeKey(s));
  if (!size) throw badRequest(DRAW_MESSAGES.chooseSize);
  const first = find(size);
  if (!first) throw badRequest(DRAW_MESSAGES.unknownSize(size));
  if (!secondSize) return { size: first, secondSize: null };
  const second = find(secondSize);
  if (!second) throw badRequest(DRAW_MESSAGES.unknownSize(secondSize));
  if (sizeKey(second) === sizeKey(first)) throw badRequest(DRAW_MESSAGES.sameSecondSize);
  return { size: first, secondSize: second };
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}
