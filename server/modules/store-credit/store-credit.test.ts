import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { creditAccountListSchema, creditAccountSchema, STORE_CREDIT_MESSAGES } from '../../../common/contracts/store-credit';
import { adminClient } from '../../../tests/support/admin-session';
import { describeEachDb, type TestApp } from '../../../tests/support/build-test-app';
import { storeCreditEntries, storeCreditRedemptions } from './store-credit.tables';

function outbox(t: TestApp): string[] {
  const dir = path.join(t.dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='));
}

describeEachDb('store credit: a ledger per folded mailbox, kept like money', (t) => {
  const credit = () => t().services.storeCredit;
  const give = (email: string, cents: number, reason = 'test') =>
    t().database.db.transaction((tx) => credit().grant(tx, { email, amountCents: cents, source: 'manual', reason }));

  test('the owner grants by hand with a reason; the buyer is mailed the balance and its expiry; the list shows it', async () => {
    const admin = await adminClient(t());
    const res = await admin.post('/api/admin/store-credit', { email: 'Hand.Granted+promo@Example.com', amount: '12.50', reason: 'Late parcel' });
    expect(res.statusCode, res.body).toBe(201);
    const account = creditAccountSchema.parse(res.json());
    expect(account).toMatchObject({ balance: '12.50', nextExpiry: { amount: '12.50' } });
    expect(account.grants).toMatchObject([{ amount: '12.50', left: '12.50', source: 'manual', reason: 'Late parcel', expired: false }]);
    // Valid one year from the grant.
    const g = account.grants[0]!;
    expect(new Date(g.expiresAt).getUTCFullYear() - new Date(g.grantedAt).getUTCFullYear()).toBe(1);

    await credit().drainMail();
    const mail = outbox(t()).find((m) => m.includes('store credit added'));
    expect(mail).toBeDefined();
    expect(mail).toContain('Your store credit balance is $12.50.');
    expect(mail).toContain('valid until');

    const list = creditAccountListSchema.parse((await admin.get('/api/admin/store-credit')).json());
    expect(list.accounts.find((a) => a.email === 'Hand.Granted+promo@Example.com')).toMatchObject({ balance: '12.50' });
  });

  test('bad grants are 4xx { message }, and the list and grant need the owner', async () => {
    const admin = await adminClient(t());
    for (const [body, message] of [
      [{ email: 'not-an-address', amount: '5', reason: 'x' }, STORE_CREDIT_MESSAGES.email],
      [{ email: 'a@example.com', amount: '0', reason: 'x' }, STORE_CREDIT_MESSAGES.amount],
      [{ email: 'a@example.com', amount: '-3', reason: 'x' }, STORE_CREDIT_MESSAGES.amount],
      [{ email: 'a@example.com', amount: '1.234', reason: 'x' }, STORE_CREDIT_MESSAGES.amount],
      [{ email: 'a@example.com', amount: '5', reason: '  ' }, STORE_CREDIT_MESSAGES.reason],
    ] as const) {
      const res = await admin.post('/api/admin/store-credit', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect((res.json() as { message: string }).message).toContain(message);
    }
    const stranger = t().client();
    expect((await stranger.get('/api/admin/store-credit')).statusCode).toBe(401);
    expect((await stranger.post('/api/admin/store-credit', { email: 'a@example.com', amount: '5', reason: 'x' })).statusCode).toBe(401);
  });

  test('the balance follows the folded mailbox, not the spelling', async () => {
    await give('Jane.Doe+returns@gmail.com', 1500);
    await give('janedoe@googlemail.com', 500);
    for (const spelling of ['jane.doe@gmail.com', 'JANEDOE@GMAIL.COM', 'j.a.n.e.d.o.e+x@googlemail.com', 'janedoe\u200b@gmail.com']) {
      expect((await credit().balanceOf(spelling)).balanceCents, spelling).toBe(2000);
    }
    expect((await credit().balanceOf('jane.doe2@gmail.com')).balanceCents).toBe(0);
    // The ledger holds no address in clear: only the keyed hash names the owner.
    const owners = await t().database.db.selectDistinct({ k: storeCreditEntries.ownerKey }).from(storeCreditEntries);
    for (const o of owners) expect(o.k).toMatch(/^[0-9a-f]{64}$/);
  });

  test('20 checkouts spending one balance at once: exactly the balance is held, never below 0', async () => {
    const email = 'race@example.com';
    await give(email, 3000);
    await give(email, 2000);
    // Each checkout owes $7.00: 5000 cents pays seven in full and one in part; the rest get nothing.
    const checkoutIds = Array.from({ length: 20 }, () => crypto.randomUUID());
    const held = await Promise.all(
      checkoutIds.map((checkoutId) => t().database.db.transaction((tx) => credit().hold(tx, { email, checkoutId, totalCents: 700 }))),
    );
    expect(held.reduce((a, b) => a + b, 0)).toBe(5000);
    expect(held.filter((c) => c === 700)).toHaveLength(7);
    expect(held.filter((c) => c === 100)).toHaveLength(1);
    expect(held.filter((c) => c === 0)).toHaveLength(12);
    expect((await credit().balanceOf(email)).balanceCents).toBe(0);
    // No grant went below 0.
    const ownerKey = credit().ownerOf(email);
    const { rows } = await t().database.db.execute<{ left: string }>(sql`
      select g.amount_cents - coalesce(sum(case e.kind when 'release' then -e.amount_cents else e.amount_cents end), 0) as left
      from store_credit_entries g left join store_credit_entries e on e.grant_id = g.id
      where g.owner_key = ${ownerKey} and g.kind = 'grant' group by g.id`);
    for (const r of rows) expect(Number(r.left)).toBeGreaterThanOrEqual(0);
  });

  test('a held redemption is spent once or released once; a release gives the credit back to its grants', async () => {
    const email = 'hold@example.com';
    await give(email, 1000);
    const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
    const db = t().database.db;
    expect(await db.transaction((tx) => credit().hold(tx, { email, checkoutId: a, totalCents: 600 }))).toBe(600);
    // Asked again for the same checkout: what it holds, nothing more.
    expect(await db.transaction((tx) => credit().hold(tx, { email, checkoutId: a, totalCents: 600 }))).toBe(600);
    expect(await db.transaction((tx) => credit().hold(tx, { email, checkoutId: b, totalCents: 600 }))).toBe(400);
    expect((await credit().balanceOf(email)).balanceCents).toBe(0);

    // The payment of `a` lapsed: released, once.
    expect(await credit().release(db, a)).toBe(600);
    expect(await credit().release(db, a)).toBe(0);
    expect((await credit().balanceOf(email)).balanceCents).toBe(600);
    // `b` became an order: spent, and a late release changes nothing.
    const orderId = crypto.randomUUID();
    expect(await credit().spend(db, b, orderId)).toBe(400);
    expect(await credit().release(db, b)).toBe(0);
    expect(await credit().spend(db, b, orderId)).toBe(0);
    expect((await credit().balanceOf(email)).balanceCents).toBe(600);
    const rows = await db.select().from(storeCreditRedemptions).where(eq(storeCreditRedemptions.ownerKey, credit().ownerOf(email)));
    expect(rows.map((r) => r.status).sort()).toEqual(['released', 'spent']);
  });

  test('a grant counts for one year; then the expiry job closes what was left', async () => {
    const email = 'expiry@example.com';
    const db = t().database.db;
    const { grantId } = await give(email, 900);
    // Move this grant's year to the past, as a year passing would.
    await db.update(storeCreditEntries).set({ expiresAt: sql`now() - interval '1 second'`, createdAt: sql`now() - interval '1 year'` }).where(eq(storeCreditEntries.id, grantId));
    await give(email, 100);
    expect((await credit().balanceOf(email)).balanceCents).toBe(100);
    // A checkout cannot spend the expired grant.
    expect(await db.transaction((tx) => credit().hold(tx, { email, checkoutId: crypto.randomUUID(), totalCents: 5000 }))).toBe(100);
    expect(await credit().expire()).toBeGreaterThanOrEqual(1);
    const expiries = await db.select().from(storeCreditEntries).where(eq(storeCreditEntries.grantId, grantId));
    expect(expiries).toMatchObject([{ kind: 'expiry', amountCents: 900 }]);
    // Run again: nothing left to close.
    await credit().expire();
    expect(await db.select().from(storeCreditEntries).where(eq(storeCreditEntries.grantId, grantId))).toHaveLength(1);
  });

  test('30 days before a grant runs out its buyer is mailed once what expires and the balance; a spent grant mails nothing', async () => {
    const db = t().database.db;
    const email = 'Expiring.Soon+x@example.com';
    const { grantId } = await give(email, 700);
    await give(email, 300);
    // This grant's year ends in 20 days; the other has most of its year left.
    await db.update(storeCreditEntries).set({ expiresAt: sql`now() + interval '20 days'` }).where(eq(storeCreditEntries.id, grantId));
    const spent = await give('spent.before@example.com', 400);
    await db.update(storeCreditEntries).set({ expiresAt: sql`now() + interval '5 days'` }).where(eq(storeCreditEntries.id, spent.grantId));
    expect(await db.transaction((tx) => credit().hold(tx, { email: 'spent.before@example.com', checkoutId: crypto.randomUUID(), totalCents: 400 }))).toBe(400);

    const before = outbox(t()).filter((m) => m.includes('store credit expires on')).length;
    expect(await credit().remindExpiring()).toBe(1);
    const mails = outbox(t()).filter((m) => m.includes('store credit expires on'));
    expect(mails).toHaveLength(before + 1);
    const mail = mails.find((m) => m.includes('To: Expiring.Soon+x@example.com'))!;
    expect(mail).toContain('$7.00 of your store credit expires on');
    expect(mail).toContain('Your store credit balance is $10.00.');
    // Once per grant: the job runs every hour.
    expect(await credit().remindExpiring()).toBe(0);
    expect(outbox(t()).filter((m) => m.includes('store credit expires on'))).toHaveLength(before + 1);
  });

  test('a grant made for a refund record is written once, however often it is retried', async () => {
    const db = t().database.db;
    const ref = crypto.randomUUID();
    const first = await db.transaction((tx) => credit().grant(tx, { email: 'retry@example.com', amountCents: 250, source: 'cancellation', reason: null, sourceRef: ref }));
    const again = await db.transaction((tx) => credit().grant(tx, { email: 'retry@example.com', amountCents: 250, source: 'cancellation', reason: null, sourceRef: ref }));
    expect(first.created).toBe(true);
    expect(again).toEqual({ grantId: first.grantId, created: false });
    expect((await credit().balanceOf('retry@example.com')).balanceCents).toBe(250);
  });
});
