import fs from 'node:fs';
import path from 'node:path';
import { eq, like, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { discountCodes } from '../discounts/discounts.tables';
import { createKeyService } from '../../lib/keys';
import { createNewsletterService } from './newsletter.service';
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
    expect(res.json()).toEqual({ email: 'ada.lovelace@example.com', message: 'Successfully subscribed!' });
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

  test('a repeat (any case or spacing) reads like a new signup: no second row, no second code, an "already on the list" mail', async () => {
    const shopper = t().client();
    expect((await shopper.post('/api/newsletter', { email: 'linus@example.com' })).statusCode).toBe(201);
    const codesBefore = await t()
      .database.db.select({ n: sql<number>`count(*)::int` })
      .from(discountCodes)
      .where(like(discountCodes.code, 'WELCOME-%'));
    const mailsBefore = outboxFiles(t().dataDir).length;

    const again = await shopper.post('/api/newsletter', { email: ' LINUS@example.com' });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual({ email: 'linus@example.com', message: 'Successfully subscribed!' });

    const codesAfter = await t()
      .database.db.select({ n: sql<number>`count(*)::int` })
      .from(discountCodes)
      .where(like(discountCodes.code, 'WELCOME-%'));
    expect(codesAfter[0].n).toBe(codesBefore[0].n);
    expect(outboxFiles(t().dataDir).length).toBe(mailsBefore + 1);
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
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    const rows = await t()
      .database.db.select()
      .from(newsletterSubscriptions)
      .where(eq(newsletterSubscriptions.email, 'race@example.com'));
    expect(rows).toHaveLength(1);
  });

  test('twelve spellings of one inbox: one welcome code, the rest answered alike and told by mail', async () => {
    const spellings = [
      'fold.me@gmail.com',
      'foldme@gmail.com',
      'fold.me+drop@gmail.com',
      'f.o.l.d.m.e@gmail.com',
      'foldme@googlemail.com',
      'FoldMe+2@GoogleMail.com',
      'fold\u200bme@gmail.com',
      'f\u043eldme@gmail.com',
      '\uff46oldme@gmail.com',
      'foldme+x.y@gmail.com',
      'fold.me+1@googlemail.com',
      'FOLDME@GMAIL.COM',
    ];
    const db = t().database.db;
    const codesBefore = await db.select({ n: sql<number>`count(*)::int` }).from(discountCodes).where(like(discountCodes.code, 'WELCOME-%'));
    const mailsBefore = outboxFiles(t().dataDir).length;
    const statuses: number[] = [];
    // One at a time, each from a browser of its own (fresh session and proof of work).
    for (const email of spellings) statuses.push((await t().client().post('/api/newsletter', { email })).statusCode);
    // (400: the e-mail contract refuses invisible and non-Latin characters before folding is asked; 429: the
    // mailbox's own limit of 3 signups in 10 minutes.)
    expect(statuses.filter((s) => s !== 201 && s !== 429 && s !== 400)).toEqual([]);
    const answered = statuses.filter((s) => s === 201).length;
    expect(answered).toBeGreaterThanOrEqual(1);
    const codesAfter = await db.select({ n: sql<number>`count(*)::int` }).from(discountCodes).where(like(discountCodes.code, 'WELCOME-%'));
    expect(codesAfter[0].n - codesBefore[0].n).toBe(1);
    // One welcome mail, and one "already on the list" mail per later signup that was answered.
    const mails = outboxFiles(t().dataDir).slice(mailsBefore).map((f) => fs.readFileSync(f, 'utf8'));
    expect(mails.filter((m) => m.includes('WELCOME-'))).toHaveLength(1);
    expect(mails.filter((m) => m.includes("already on the FIFTY list"))).toHaveLength(answered - 1);
    // The row keeps the address as typed (mail goes there) and a keyed hash of the folded mailbox, not the fold.
    const [row] = await db.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, 'fold.me@gmail.com'));
    expect(row!.mailboxKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(row!.mailboxKey).not.toContain('foldme');
    // Another person's inbox still signs up.
    expect((await t().client().post('/api/newsletter', { email: 'fold.you@gmail.com' })).statusCode).toBe(201);
  });

  test('rows stored before folding get their key on the next signup: a new spelling of an old inbox is a repeat', async () => {
    const db = t().database.db;
    await db.insert(newsletterSubscriptions).values([
      { email: 'old.timer@gmail.com', discountCode: null, subscribedAt: new Date('2024-01-01T00:00:00Z') },
      { email: 'oldtimer@gmail.com', discountCode: null, subscribedAt: new Date('2024-02-01T00:00:00Z') },
    ]);
    // A service as after an upgrade (this process's own has keyed its rows already).
    const upgraded = createNewsletterService({
      db,
      discounts: t().services.discounts,
      mailer: t().services.mailer,
      shopName: 'FIFTY',
      log: t().app.log,
      keys: createKeyService('upgrade-test-secret'),
    });
    await expect(upgraded.subscribe('oldtimer+again@googlemail.com')).resolves.toEqual({ created: false });
    const rows = await db.select().from(newsletterSubscriptions).where(like(newsletterSubscriptions.email, '%timer%'));
    // The older row holds the key; the later spelling of the same inbox keeps none and stays as it was.
    const byEmail = new Map(rows.map((r) => [r.email, r.mailboxKey]));
    expect(byEmail.get('old.timer@gmail.com')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(byEmail.get('oldtimer@gmail.com')).toBeNull();
    expect(rows).toHaveLength(2);
  });

  test('the +probe spelling of a subscribed mailbox and a fresh address get identical answers; one row; the mailbox is told', async () => {
    const db = t().database.db;
    expect((await t().client().post('/api/newsletter', { email: 'victim@example.com' })).statusCode).toBe(201);
    const mailsBefore = outboxFiles(t().dataDir).length;
    const probe = await t().client().post('/api/newsletter', { email: 'victim+probe@example.com' });
    const fresh = await t().client().post('/api/newsletter', { email: 'stranger+probe@example.com' });
    const answer = (r: typeof probe) => ({ status: r.statusCode, body: { ...r.json(), email: '' } });
    expect(answer(probe)).toEqual(answer(fresh));
    expect(answer(probe)).toEqual({ status: 201, body: { email: '', message: 'Successfully subscribed!' } });
    expect(Object.keys(probe.json()).sort()).toEqual(Object.keys(fresh.json()).sort());
    // The owner's list: one row for the victim's mailbox.
    const rows = await db.select().from(newsletterSubscriptions).where(like(newsletterSubscriptions.email, 'victim%'));
    expect(rows.map((r) => r.email)).toEqual(['victim@example.com']);
    // The victim got the notice (no code), at the address on the list; the stranger got a welcome code.
    const mails = outboxFiles(t().dataDir).slice(mailsBefore).map((f) => fs.readFileSync(f, 'utf8'));
    const notice = mails.filter((m) => /^To: victim@example\.com/m.test(m));
    expect(notice).toHaveLength(1);
    expect(notice[0]).toContain("You're already on the FIFTY list");
    expect(notice[0]).not.toMatch(/WELCOME-[A-Z0-9]{6}/);
    expect(mails.filter((m) => /^To: stranger\+probe@example\.com/m.test(m) && /WELCOME-[A-Z0-9]{6}/.test(m))).toHaveLength(1);
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
