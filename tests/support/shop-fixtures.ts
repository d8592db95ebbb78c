import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../../server/db/client';
import { products } from '../../server/modules/catalog/catalog.tables';
import { discountCodes } from '../../server/modules/discounts/discounts.tables';
import { parseMoney, parseMoneyOrNull } from '../../common/domain/money';
import type { CreatePaymentIntentResult, CustomerInfoBody } from '../../common/contracts/checkout';
import type { TestApp, TestClient } from './build-test-app';

/** Buying-path fixtures: products and codes of a test's own, and a shopper walking the checkout. */

export const GOOD_CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' };
export const DECLINED_CARD = { ...GOOD_CARD, cardNumber: '4000 0000 0000 0002' };
export const NO_FUNDS_CARD = { ...GOOD_CARD, cardNumber: '4000 0000 0000 9995' };

export const customer = (over: Partial<CustomerInfoBody> = {}): CustomerInfoBody => ({
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: null,
  shippingAddress: '1 Analytical Way',
  shippingCity: 'Springfield',
  shippingState: 'IL',
  shippingZip: '62701',
  shippingCountry: 'US',
  ...over,
});

export interface ProductFixture {
  name?: string;
  price?: string;
  salePrice?: string | null;
  stock?: number;
  inStock?: boolean;
  sizes?: string[];
  colors?: Array<{ name: string; value: string }>;
  category?: string;
  /** Scheduled release (docs/product.md §9); null or absent: on sale now. */
  releaseAt?: Date | null;
  /**
   * Per-shopper limit (docs/product.md §9). Default 50, the most the owner may set: this fixture's shoppers
   * all share one e-mail, address and card, so tests that are not about limits stay out of their way.
   */
  maxPerShopper?: number;
}

export async function createProduct(db: Db, over: ProductFixture = {}): Promise<string> {
  const [row] = await db
    .insert(products)
    .values({
      name: over.name ?? `Drop Tee ${crypto.randomBytes(3).toString('hex')}`,
      priceCents: parseMoney(over.price ?? '45.00'),
      salePriceCents: parseMoneyOrNull(over.salePrice ?? null),
      category: over.category ?? 'tshirts',
      stock: over.stock ?? 10,
      inStock: over.inStock ?? true,
      sizes: over.sizes ?? ['S', 'M', 'L'],
      // One colour by default: it is chosen for the shopper, so buying-path tests need not name it.
      colors: over.colors ?? [{ name: 'White', value: '#FFFFFF' }],
      images: ['/uploads/seed/test-1.webp'],
      releaseAt: over.releaseAt ?? null,
      maxPerShopper: over.maxPerShopper ?? 50,
    })
    .returning({ id: products.id });
  return row!.id;
}

export async function productState(db: Db, id: string): Promise<{ stock: number; soldCount: number }> {
  const [row] = await db
    .select({ stock: products.stock, soldCount: products.soldCount })
    .from(products)
    .where(eq(products.id, id));
  return row!;
}

export async function createCode(
  db: Db,
  over: {
    code?: string;
    discountPercent?: number;
    maxUsage?: number | null;
    isActive?: boolean;
    expiresAt?: Date | null;
  } = {},
): Promise<string> {
  const code = over.code ?? `T${crypto.randomBytes(4).toString('hex').toUpperCase()}`;
  await db.insert(discountCodes).values({
    code,
    discountPercent: over.discountPercent ?? 10,
    maxUsage: over.maxUsage === undefined ? 1 : over.maxUsage,
    isActive: over.isActive ?? true,
    expiresAt: over.expiresAt ?? null,
  });
  return code;
}

export async function codeUsage(db: Db, code: string): Promise<number> {
  const [row] = await db
    .select({ n: discountCodes.usageCount })
    .from(discountCodes)
    .where(eq(discountCodes.code, code));
  return row!.n;
}

/** A shopper with `quantity` of the product in the cart and their details saved. */
export async function readyShopper(
  t: TestApp,
  productId: string,
  opts: { quantity?: number; size?: string | null } = {},
): Promise<TestClient> {
  const shopper = t.client();
  const add = await shopper.post('/api/cart', {
    productId,
    quantity: opts.quantity ?? 1,
    selectedSize: opts.size === undefined ? 'M' : opts.size,
  });
  expect(add.statusCode, add.body).toBe(200);
  const info = await shopper.post('/api/customer-info', customer());
  expect(info.statusCode, info.body).toBe(200);
  return shopper;
}

export async function startPayment(
  shopper: TestClient,
  body: Record<string, unknown> = {},
): Promise<CreatePaymentIntentResult> {
  const res = await shopper.post('/api/create-payment-intent', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CreatePaymentIntentResult;
}

export function confirmOffline(shopper: TestClient, clientSecret: string, card = GOOD_CARD) {
  return shopper.post('/api/payments/offline/confirm', { clientSecret, ...card });
}
