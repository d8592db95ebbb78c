import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import type { MailMessage } from '../../lib/mailer';
import { describeEachDb, type TestApp, type TestClient } from '../../../tests/support/build-test-app';
import { solvePow } from '../../../tests/support/pow';
import { createProduct } from '../../../tests/support/shop-fixtures';
import { holdVariant, readSizeStock, replaceSizeRun, returnToVariant, sellVariant } from '../inventory/variants.repository';
import { productAlerts } from './alerts.tables';

// Notify me per size (ADR 015, "Returns, refunds and restock reservations"): a signup may wait for one size,
// a returned piece of a size reserves the first subscriber waiting for that size or for any size, and the
// mail and the claim name the size.

const sent: MailMessage[] = [];
const mailer = { send: async (m: MailMessage) => void sent.push(m) };
const mailsTo = (email: string) => sent.filter((m) => m.to === email);
const email = (name: string) => `${name}-${crypto.randomBytes(3).toString('hex')}@example.com`;

async function signUp(shopper: TestClient, productId: string, who: string, size?: string | null) {
  const altcha = await solvePow((await shopper.get('/api/pow-challenge')).json());
  return shopper.post(`/api/products/${productId}/alerts`, { email: who, altcha, ...(size === undefined ? {} : { size }) });
}

function claimTokenOf(mail: MailMessage): string {
  const m = /\?claim=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!m) throw new Error(`no claim link in: ${mail.text}`);
  return m[1]!;
}

/** A tee of 50 split S 3 / M 4 / L 3 / XL 40; returns the product and its variants by size. */
async function sizedTee(t: TestApp): Promise<{ id: string; size: (label: string) => string }> {
  const db = t.database.db;
  const id = await createProduct(db, { name: `Sized Tee ${crypto.randomBytes(2).toString('hex')}`, stock: 50 });
  const result = await db.transaction((tx) =>
    replaceSizeRun(tx, id, [
      { size: 'S', pieces: 3 },
      { size: 'M', pieces: 4 },
      { size: 'L', pieces: 3 },
      { size: 'XL', pieces: 40 },
    ]),
  );
  if (!result.ok) throw new Error(result.message);
  const ids = new Map(result.sizes.map((s) => [s.size, s.variantId]));
  return { id, size: (label) => ids.get(label)! };
}

/** The edition numbers sold of each size, so a refund can name the piece that comes back. */
const soldNumbers = new Map<string, number[]>();

/** Every piece of one size is sold (held, then sold, as the buying path does). */
async function sellAll(t: TestApp, productId: string, variantId: string, qty: number): Promise<void> {
  await t.database.db.transaction(async (tx) => {
    expect(await holdVariant(tx, productId, variantId, qty)).toBe(true);
    const sold = await sellVariant(tx, productId, variantId, qty);
    expect(sold).not.toBeNull();
    soldNumbers.set(variantId, [...(soldNumbers.get(variantId) ?? []), ...sold!.numbers]);
  });
  t.services.catalog.invalidate();
}

/** One sold piece of `variantId` comes back on its shelf (a refund), then the restock job runs. */
async function returnOne(t: TestApp, productId: string, variantId: string): Promise<number> {
  const editionNumbers = [soldNumbers.get(variantId)!.pop()!];
  await t.database.db.transaction((tx) => returnToVariant(tx, { productId, soldVariantId: variantId, editionNumbers }));
  t.services.catalog.invalidate();
  return t.services.alerts.offerReturnedPieces();
}

const alertRows = (t: TestApp, productId: string) =>
  t.database.db.select().from(productAlerts).where(eq(productAlerts.productId, productId));

describeEachDb(
  'Notify me per size (ADR 015)',
  (t) => {
    test('a sold-out size takes signups while other sizes are on sale; an on-sale size is 409, an unknown size 400', async () => {
      const { id, size } = await sizedTee(t());
      await sellAll(t(), id, size('M'), 4);

      const who = email('m-waiter');
      const m = await signUp(t().client(), id, who, 'm');
      expect(m.statusCode, m.body).toBe(201);
      expect(m.json()).toEqual({ kind: 'restock', message: "We'll e-mail you if a piece in M comes back." });

      const l = await signUp(t().client(), id, email('l'), 'L');
      expect(l.statusCode).toBe(409);
      expect(l.json()).toEqual({ message: "It's on sale now." });
      const any = await signUp(t().client(), id, email('any'));
      expect(any.statusCode).toBe(409);
      const unknown = await signUp(t().client(), id, email('xxl'), 'XXL');
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toEqual({ message: 'This piece has no size XXL.' });
      const tooLong = await signUp(t().client(), id, email('long'), 'X'.repeat(21));
      expect(tooLong.statusCode).toBe(400);

      const rows = await alertRows(t(), id);
      expect(rows.map((r) => [r.email, r.kind, r.variantId])).toEqual([[who, 'restock', size('M')]]);
    });

    test('a returned M reserves the first subscriber waiting for M, not the later one; the mail and the claim name M; others cannot add that M', async () => {
      const { id, size } = await sizedTee(t());
      await sellAll(t(), id, size('M'), 4);
      const first = email('m1');
      const second = email('m2');
      expect((await signUp(t().client(), id, first, 'M')).statusCode).toBe(201);
      expect((await signUp(t().client(), id, second, 'M')).statusCode).toBe(201);

      // A returned S is not an M: nobody is reserved (nobody waits for S or any size).
      await sellAll(t(), id, size('S'), 1);
      expect(await returnOne(t(), id, size('S'))).toBe(0);
      expect(mailsTo(first)).toHaveLength(0);

      expect(await returnOne(t(), id, size('M'))).toBe(1);
      expect(mailsTo(first)).toHaveLength(1);
      expect(mailsTo(second)).toHaveLength(0);
      const mail = mailsTo(first)[0]!;
      expect(mail.subject).toContain('in size M is back');
      expect(mail.text).toContain('came back, and you were first on the waiting list');
      const rows = await alertRows(t(), id);
      expect(rows.find((r) => r.email === first)).toMatchObject({ reservedVariantId: size('M') });
      expect(rows.find((r) => r.email === second)).toMatchObject({ reservedVariantId: null, reservedUntil: null });

      // The job runs again: the one M is kept, the second subscriber still waits.
      expect(await t().services.alerts.offerReturnedPieces()).toBe(0);
      expect(mailsTo(second)).toHaveLength(0);

      // Another shopper: the M is kept, an L is not. The claimant may take it.
      const alerts = t().services.alerts;
      await expect(alerts.assertNotReserved(id, null, 'M')).rejects.toMatchObject({ statusCode: 409 });
      await expect(alerts.assertNotReserved(id, null, 'l')).resolves.toBeUndefined();
      const token = claimTokenOf(mail);
      await expect(alerts.assertNotReserved(id, token, 'M')).resolves.toBeUndefined();

      const claimant = t().client();
      const claim = await claimant.post('/api/alerts/claim', { token });
      expect(claim.statusCode, claim.body).toBe(200);
      expect(claim.json()).toMatchObject({ productId: id, size: 'M' });
    });

    test('a sold-out edition: an any-size subscriber gets the returned L, the M subscriber before them does not; asking again changes the size', async () => {
      const { id, size } = await sizedTee(t());
      await sellAll(t(), id, size('S'), 3);
      await sellAll(t(), id, size('M'), 4);
      await sellAll(t(), id, size('L'), 3);
      await sellAll(t(), id, size('XL'), 40);

      const mWaiter = email('m-first');
      const anyWaiter = email('any-later');
      // Asked for L first, then for M: one signup, waiting for M.
      expect((await signUp(t().client(), id, mWaiter, 'L')).statusCode).toBe(201);
      const again = await signUp(t().client(), id, mWaiter, 'M');
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ kind: 'restock', message: "We'll e-mail you if a piece in M comes back." });
      const any = await signUp(t().client(), id, anyWaiter);
      expect(any.statusCode).toBe(201);
      expect(any.json()).toEqual({ kind: 'restock', message: "We'll e-mail you if a piece comes back." });

      expect(await returnOne(t(), id, size('L'))).toBe(1);
      expect(mailsTo(mWaiter)).toHaveLength(0);
      expect(mailsTo(anyWaiter)).toHaveLength(1);
      expect(mailsTo(anyWaiter)[0]!.subject).toContain('in size L is back');

      const left = (await readSizeStock(t().database.db, [id])).get(id)!;
      expect(left.map((s) => [s.size, s.left])).toEqual([
        ['S', 0],
        ['M', 0],
        ['L', 1],
        ['XL', 0],
      ]);
      // A returned M goes to the M subscriber.
      expect(await returnOne(t(), id, size('M'))).toBe(1);
      expect(mailsTo(mWaiter)).toHaveLength(1);
      expect(mailsTo(mWaiter)[0]!.subject).toContain('in size M is back');
    });

    test('a product not split into sizes: a size in the signup is ignored, the mail names none', async () => {
      const db = t().database.db;
      const id = await createProduct(db, { stock: 0 });
      const who = email('pool');
      const res = await signUp(t().client(), id, who, 'M');
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ kind: 'restock', message: "We'll e-mail you if a piece comes back." });
      expect((await alertRows(t(), id))[0]).toMatchObject({ variantId: null });
    });
  },
  { deps: { mailer } },
);
