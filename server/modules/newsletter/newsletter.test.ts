import fs from 'node:fs';
import path from 'node:path';
import { eq, like, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { discountCodes } from '../discounts/discounts.tables';
import { newsletterSubscriptions } from './newsletter.tables';

function outboxFiles(dataDir: string): string[] {
  const dir = path.join(dataDir, 'outbox');
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.eml'))
        .map((f) => path.join(dir, f))
    : [];
}

describeEachDb('POST /api/newsletter', (t) => {
  test('subscribes a trimmed, lower-cased address and answers 201', async () => {
    const res = await t().client().post('/api/newsletter', { email: '  Ada.Lovelace@Example.COM ' });
    expect(res.statusCode).toBe(201);
    const body = res.json<{ email: string; id: string; subscribedAt: string; message: string }>();
    expect(body.email).toBe('ada.lovelace@example.com');
    expect(body.message).toBe('Successfully subscribed!');
    const rows = await t()
      .database.db.select()
      .from(newsletterSubscriptions)
      .where(eq(newsletterSubscriptions.email, 'ada.lovelace@example.com'));
    expect(rows).toHaveLength(1);
  });

  test('creates a single-use 10 % WELCOME code for the subscriber and e-mails it', async () => {
    const before = outboxFiles(t().dataDir).length;
    const res = await t().client().post('/api/newsletter', { email: 'grace@example.com' });
    expect(res.statusCode).toBe(201);
    const [sub] = await t()
      .database.db.select()
      .from(newsletterSubscriptions)
      .where(eq(newsletterSubscriptions.email, 'grace@example.com'));
    expect(sub.discountCode).toMatch(/^WELCOME-[A-Z0-9]{6}$/);
    const [code] = await t()
      .database.db.select()
      .from(discountCodes)
      .where(eq(discountCodes.code, sub.discountCode!));
    expect(code).toMatchObject({ discountPercent: 10, maxUsage: 1, usageCount: 0, isActive: true });

    const files = outboxFiles(t().dataDir);
    expect(files.length).toBe(before + 1);
    const mails = files.map((f) => fs.readFileSync(f, 'utf8')).filter((m) => m.includes('grace@example.com'));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(sub.discountCode!);
    expect(mails[0]).toMatch(/Content-Type: text\/plain/i);
    expect(mails[0]).toMatch(/Content-Type: text\/html/i);
  });

  test('a repeat (any case or spacing) gets 409, no second row and no second code', async () => {
    const shopper = t().client();
    expect((await shopper.post('/api/newsletter', { email: 'linus@example.com' })).statusCode).toBe(201);
    const codesBefore = await t()
      .database.db.select({ n: sql<number>`count(*)::int` })
      .from(discountCodes)
      .where(like(discountCodes.code, 'WELCOME-%'));
    const mailsBefore = outboxFiles(t().dataDir).length;

    const again = await shopper.post('/api/newsletter', { email: ' LINUS@example.com' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'This email is already subscribed to our newsletter.' });

    const codesAfter = await t()
      .database.db.select({ n: sql<number>`count(*)::int` })
      .from(discountCodes)
      .where(like(discountCodes.code, 'WELCOME-%'));
    expect(codesAfter[0].n).toBe(codesBefore[0].n);
    expect(outboxFiles(t().dataDir).length).toBe(mailsBefore);
    const rows = await t()
      .database.db.select()
      .from(newsletterSubscriptions)
      .where(eq(newsletterSubscriptions.email, 'linus@example.com'));
    expect(rows).toHaveLength(1);
  });

  test('concurrent signups of one address store it once', async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() => t().client().post('/api/newsletter', { email: 'race@example.com' })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    const rows = await t()
      .database.db.select()
      .from(newsletterSubscriptions)
      .where(eq(newsletterSubscriptions.email, 'race@example.com'));
    expect(rows).toHaveLength(1);
  });

  test.each([
    [{ email: 'not-an-email' }, 'Please enter a valid email address'],
    [{ email: '   ' }, 'Email is required'],
    [{}, 'Email is required'],
    [{ email: 42 }, 'Email is required'],
    [{ email: `${'a'.repeat(250)}@example.com` }, 'Email is too long'],
  ])('bad input %j is a 400 with a message and stores nothing', async (payload, message) => {
    const db = t().database.db;
    const [before] = await db.select({ n: sql<number>`count(*)::int` }).from(newsletterSubscriptions);
    const res = await t().client().post('/api/newsletter', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message });
    const [after] = await db.select({ n: sql<number>`count(*)::int` }).from(newsletterSubscriptions);
    expect(after.n).toBe(before.n);
  });

  test('lists subscriptions newest first through the service', async () => {
    const list = await t().services.newsletter.listSubscriptions();
    expect(list.length).toBeGreaterThan(0);
    expect(list[0]).toHaveProperty('subscribedAt');
  });
});
