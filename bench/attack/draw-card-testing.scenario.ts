// "The draw is no card-testing oracle" (docs/security.md, "Card testing"; docs/draw.md), against a spawned
// shop: one address sends 24 draw entries, each with a fresh mailbox and a card the bank declines (every
// reason Stripe's test cards have), then follows every mailed link as a tester who owns the mailboxes would.
// Measured: authorisations before any confirmation, distinct decline messages, confirmations answered
// before 429, and the time the 24 entries took.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Scenario } from '../scenario-runner';
import { ShopBrowser as Browser, withSpawnedShop } from '../support/shop-scenario';

const ENTRIES = 24;
const TESTER = '203.0.113.66';
const DECLINING = [
  '4000000000000002',
  '4000000000009995',
  '4000000000009987',
  '4000000000009979',
  '4000000000000069',
  '4000000000000127',
  '4000000000000119',
  '4000000000000001',
];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The link token of the confirmation mail to `email` in the shop's outbox, or null. */
function tokenFor(outbox: string, email: string): string | null {
  if (!fs.existsSync(outbox)) return null;
  for (const f of fs.readdirSync(outbox).filter((n) => n.endsWith('.eml'))) {
    const mail = fs.readFileSync(path.join(outbox, f), 'utf8').replace(/=\r?\n/g, '');
    if (!mail.includes(email)) continue;
    const m = /\/draw-entry\/([A-Za-z0-9_-]{43})/.exec(mail);
    if (m) return m[1]!;
  }
  return null;
}

const scenario: Scenario = () =>
  withSpawnedShop('draw-card-testing', { POW_TRIES: '50' }, async ({ base, q, dataDir }) => {
    const [product] = await q<{ id: string }>(sql`
      insert into products (name, price_cents, category, stock, edition_size, sizes, colors, images)
      values ('Testing Tee', 4500, 'tshirts', 5, 5, '[]', '[]', '[]') returning id`);
    const seed = crypto.randomBytes(32);
    const [draw] = await q<{ id: string }>(sql`
      insert into draws (product_id, status, opens_at, closes_at, draw_at, price_cents, commitment, seed)
      values (${product!.id}, 'open', now() - interval '1 minute', now() + interval '1 hour', now() + interval '2 hours',
              4500, ${crypto.createHash('sha256').update(seed).digest('hex')}, ${seed.toString('hex')})
      returning id`);

    // 24 entries from one address: a fresh browser and mailbox each, a declining card each.
    const emails: string[] = [];
    const entryAnswers: Array<{ status: number; json: Record<string, unknown> }> = [];
    const started = performance.now();
    for (let n = 0; n < ENTRIES; n++) {
      const b = new Browser(base, TESTER);
      const email = `fresh${n}@mailbox${n}.example`;
      emails.push(email);
      entryAnswers.push(
        await b.call('POST', `/api/draws/${draw!.id}/entries`, {
          email,
          firstName: 'Card',
          lastName: `Tester${n}`,
          phone: null,
          shippingAddress: `${n} Tester Lane`,
          shippingCity: 'Springfield',
          shippingState: 'IL',
          shippingZip: '62701',
          shippingCountry: 'US',
          card: { cardNumber: DECLINING[n % DECLINING.length], expiry: `${String((n % 12) + 1).padStart(2, '0')}/42`, cvc: '123' },
          altcha: await b.altcha(),
        }),
      );
    }
    const enterSeconds = (performance.now() - started) / 1000;
    const accepted = entryAnswers.filter((a) => a.status === 202).length;
    const entryBodies = new Set(entryAnswers.map((a) => JSON.stringify({ ...a.json, publicId: '' })));
    const [before] = await q<{ asked: number }>(sql`
      select count(*) filter (where status <> 'requires_confirmation')::int as asked
        from offline_payment_intents where metadata->>'drawId' = ${draw!.id}`);

    // The tester follows every link from the same address.
    const outbox = path.join(dataDir, 'outbox');
    for (let i = 0; i < 100 && emails.some((e) => !tokenFor(outbox, e)); i++) await sleep(100);
    const confirmations: Array<{ status: number; json: Record<string, unknown> }> = [];
    for (const email of emails) {
      const token = tokenFor(outbox, email);
      if (!token) continue;
      confirmations.push(await new Browser(base, TESTER).call('POST', `/api/draw-entries/${token}/confirm`, {}));
    }
    const firstLimited = confirmations.findIndex((c) => c.status === 429);
    const answeredBefore429 = firstLimited === -1 ? confirmations.length : firstLimited;
    const declineMessages = new Set(confirmations.filter((c) => c.status === 402).map((c) => String(c.json.message)));
    const [after] = await q<{ asked: number }>(sql`
      select count(*) filter (where status <> 'requires_confirmation')::int as asked
        from offline_payment_intents where metadata->>'drawId' = ${draw!.id}`);
    const more = new Browser(base, TESTER);
    const lateEntry = await more.call('POST', `/api/draws/${draw!.id}/entries`, {
      email: 'one.more@mailbox.example',
      firstName: 'Card',
      lastName: 'Tester',
      phone: null,
      shippingAddress: '99 Tester Lane',
      shippingCity: 'Springfield',
      shippingState: 'IL',
      shippingZip: '62701',
      shippingCountry: 'US',
      card: { cardNumber: DECLINING[0], expiry: '01/43', cvc: '123' },
      altcha: await more.altcha(),
    });

    return {
      rows: [
        {
          what: `${ENTRIES} entries from one address, fresh mailboxes, declining cards: accepted, distinct answers`,
          target: `${ENTRIES}, 1 (nothing about the card)`,
          measured: `${accepted}, ${entryBodies.size} (in ${enterSeconds.toFixed(1)} s)`,
          ok: accepted === ENTRIES && entryBodies.size === 1,
        },
        {
          what: 'card authorisations before any confirmation',
          target: '0',
          measured: String(before!.asked),
          ok: before!.asked === 0,
        },
        {
          what: 'the links followed from that address: distinct decline messages',
          target: '1',
          measured: `${declineMessages.size} (${[...declineMessages].join(' | ')})`,
          ok: declineMessages.size === 1,
        },
        {
          what: 'confirmations answered (the bank asked) before 429',
          target: '3',
          measured: `${answeredBefore429} (then ${confirmations.length - answeredBefore429} × 429; bank asked ${after!.asked} times in all)`,
          ok: answeredBefore429 === 3 && after!.asked === 3,
        },
        {
          what: 'a 25th entry from that address',
          target: '429 + Retry-After',
          measured: String(lateEntry.status),
          ok: lateEntry.status === 429,
        },
      ],
    };
  });

export default scenario;
