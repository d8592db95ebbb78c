import { describe, expect, it } from 'vitest';
import type { LiveStock, Product } from '../../../common/contracts/catalog';
import type { DropStatus } from '../../../common/contracts/drops';
import { describeStock, fromDropStatus } from './use-live-stock';

// A drop's product page reads its stock from the waiting room's status: 0 left is "sold out" only when the
// room says it is final; while every piece is in a checkout one may come back (docs/product.md §9, Drops).
const product = { id: 'p1', stock: 0, inStock: true, editionSize: 50, releaseAt: '2026-12-07T18:00:00.000Z' } as unknown as Product;
const before: LiveStock = { productId: 'p1', left: 3, editionSize: 50, inStock: true, soldOutAt: null, sellOutSeconds: null };
const status = (over: Partial<DropStatus>): DropStatus =>
  ({ productId: 'p1', phase: 'open', paused: false, queueLength: 12, left: 0, editionSize: 50, ticket: null, ...over }) as DropStatus;

describe('a drop page’s stock line', () => {
  it('says the pieces are in checkouts, not sold out, while the room says so', () => {
    const stock = fromDropStatus(product, status({ soldOut: 'in_checkouts' }), before);
    expect(stock.inCheckouts).toBe(true);
    expect(describeStock(stock, true)).toBe('All pieces are in checkouts — one may come back.');
  });

  it('says sold out once the room says it is final', () => {
    const stock = fromDropStatus(product, status({ phase: 'sold_out', soldOut: 'final' }), before);
    expect(stock.inCheckouts).toBe(false);
    expect(describeStock(stock, true)).toBe('Sold out.');
  });

  it('counts down while pieces are left', () => {
    const stock = fromDropStatus(product, status({ left: 7 }), before);
    expect(stock.inCheckouts).toBe(false);
    expect(describeStock(stock, true)).toBe('7 of 50 left.');
  });
});
