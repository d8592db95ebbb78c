// "No returned piece is unbuyable" (docs/security.md, ADR 011 amended): during a drop, shoppers sign up
// for Notify me while every piece is held, and the holds lapse. The attack once made the returned pieces
// Notify-me reservations that nobody could buy: the subscriber had no admission pass (403) and the admitted
// shopper got 409 "reserved". Against a spawned shop (DROP_WINDOW_MINUTES=1): the admitted
// shopper must buy a returned piece inside the window; after the window, the piece left must go to the
// first subscriber as before (a reservation, a claim link mailed), and the claim link only in the browser
// that opened it first.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Scenario } from '../scenario-runner';
import { CATALOG_CHANNEL } from '../../server/modules/catalog/catalog-changes';
import { ShopBrowser as Browser, withSpawnedShop } from '../support/shop-scenario';

const PIECES = 2;
const SUBSCRIBERS = 4;
const WINDOW_MINUTES = 1;
const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Restock mails in the outbox (quoted-printable soft breaks undone): recipient and claim token. */
function claimMails(outbox: string): Array<{ to: string; token: string }> {
  if (!fs.existsSync(outbox)) return [];
  return fs.readdirSync(outbox).flatMap((f) => {
    const raw = fs.readFileSync(path.join(outbox, f), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const to = /^To: (.+)$/m.exec(raw)?.[1]?.trim() ?? '';
    const token = /\?claim=([A-Za-z0-9_-]+)/.exec(raw)?.[1];
    return token ? [{ to, token }] : [];
  });
}

// The shop from source (server/main.ts through tsx), as tests/support/shop-process.ts starts it.
const scenario: Scenario = () =>
  withSpawnedShop('returned-piece', { DROP_WINDOW_MINUTES: String(WINDOW_MINUTES), RATE_LIMIT_ADDRESS_FACTOR: '100' }, async ({ base, dataDir, q }) => {
    const notifyCatalog = () => q(sql`select pg_notify(${CATALOG_CHANNEL}, 'bench')`);

    // The drop opens now (the database's clock): PIECES pieces, no sizes.
    const [product] = await q<{ id: string }>(sql`
      insert into products (name, price_cents, category, stock, edition_size, sizes, colors, images, release_at, max_per_shopper)
      values ('Returned Piece Tee', 5000, 'tshirts', ${PIECES}, 50, '[]', '[]', '[]', now(), ${PIECES}) returning id`);
    const id = product!.id;
    const releasedAt = Date.now();
    await notifyCatalog();
    await sleep(300);

    // Two shoppers take places and are let in; one holds every piece.
    const holder = new Browser(base, '198.51.100.10');
    const buyer = new Browser(base, '198.51.100.11');
    for (const b of [holder, buyer]) {
      const join = await b.call('POST', `/api/drops/${id}/queue`, { altcha: await b.altcha() });
      if (join.status !== 201) throw new Error(`join: ${join.status} ${JSON.stringify(join.json)}`);
    }
    for (const b of [holder, buyer]) {
      for (let i = 0; i < 100; i++) {
        const s = await b.call('GET', `/api/drops/${id}`);
        if ((s.json.ticket as { status?: string } | null)?.status === 'admitted') break;
        await sleep(200);
      }
      const pass = await b.call('POST', `/api/drops/${id}/pass`);
      if (pass.status !== 200) throw new Error(`pass: ${pass.status} ${JSON.stringify(pass.json)}`);
    }
    const info = (email: string) => ({
      email,
      firstName: 'Bench',
      lastName: 'Shopper',
      phone: '+1 555 0100',
      shippingAddress: '1 Bench Street',
      shippingCity: 'Springfield',
      shippingState: 'IL',
      shippingZip: '62701',
    });
    const holderAdd = await holder.call('POST', '/api/cart', { productId: id, quantity: PIECES });
    if (holderAdd.status !== 200) throw new Error(`holder cart: ${holderAdd.status} ${JSON.stringify(holderAdd.json)}`);
    await holder.call('POST', '/api/customer-info', info('holder@example.com'));
    const held = await holder.call('POST', '/api/create-payment-intent', {});
    if (held.status !== 200) throw new Error(`hold: ${held.status} ${JSON.stringify(held.json)}`);

    // The attack: Notify-me signups while every piece is held (it reads sold out).
    const subscribers = Array.from({ length: SUBSCRIBERS }, (_, i) => new Browser(base, `203.0.113.${20 + i}`));
    let signedUp = 0;
    for (const [i, s] of subscribers.entries()) {
      const res = await s.call('POST', `/api/products/${id}/alerts`, { email: `subscriber-${i}@example.com`, altcha: await s.altcha() });
      if (res.status === 201 && res.json.kind === 'restock') signedUp++;
    }

    // The hold is about to lapse: it lapses, and the shop's expiry job (every 15 s) gives the pieces back.
    await q(sql`update checkouts set hold_expires_at = now() - interval '1 second' where status = 'open'`);
    const lapsedAt = Date.now();
    let back = false;
    while (Date.now() - lapsedAt < 40_000) {
      const [row] = await q<{ stock: number }>(sql`select stock from products where id = ${id}`);
      if (row!.stock === PIECES) {
        back = true;
        break;
      }
      await sleep(250);
    }
    const returnMs = Date.now() - lapsedAt;
    await sleep(500); // the event's reservation (if any) and its mail timer
    const [reservedInWindow] = await q<{ n: number }>(
      sql`select count(*)::int as n from product_alerts where product_id = ${id} and reserved_until is not null`,
    );

    // Inside the window: the subscriber (no pass) is refused by the waiting room, the admitted shopper buys.
    const subscriberAdd = await subscribers[0]!.call('POST', '/api/cart', { productId: id, quantity: 1 });
    const buyerAdd = await buyer.call('POST', '/api/cart', { productId: id, quantity: 1 });
    await buyer.call('POST', '/api/customer-info', info('buyer@example.com'));
    const intent = await buyer.call('POST', '/api/create-payment-intent', {});
    let paid = false;
    if (intent.status === 200) {
      const confirm = await buyer.call('POST', '/api/payments/offline/confirm', { clientSecret: intent.json.clientSecret, ...CARD });
      const success = await buyer.call('POST', '/api/payment-success', { paymentIntentId: intent.json.paymentIntentId });
      paid = confirm.status === 200 && success.status === 200;
    }
    const insideWindow = Date.now() < releasedAt + WINDOW_MINUTES * 60_000;

    // After the window: the piece left goes to the first subscriber (the job, every 15 s), mailed a claim link.
    const windowEnds = releasedAt + WINDOW_MINUTES * 60_000;
    await sleep(Math.max(0, windowEnds - Date.now()));
    const outbox = path.join(dataDir, 'outbox');
    let mail: { to: string; token: string } | undefined;
    while (!mail && Date.now() - windowEnds < 45_000) {
      mail = claimMails(outbox).find((m) => m.to.includes('subscriber-0@'));
      if (!mail) await sleep(500);
    }
    const offeredMs = Date.now() - windowEnds;
    const [unsub] = await q<{ token: string; claim_token: string | null }>(
      sql`select token, claim_token from product_alerts where product_id = ${id} and email = 'subscriber-0@example.com'`,
    );
    const stranger = new Browser(base, '192.0.2.50');
    const strangerAdd = await stranger.call('POST', '/api/cart', { productId: id, quantity: 1 });
    const claimant = subscribers[0]!;
    const claim = mail ? await claimant.call('POST', '/api/alerts/claim', { token: mail.token }) : { status: 0, json: {} };
    const forwarded = new Browser(base, '192.0.2.51');
    const forwardedClaim = mail ? await forwarded.call('POST', '/api/alerts/claim', { token: mail.token }) : { status: 0, json: {} };
    const claimantAdd = await claimant.call('POST', '/api/cart', { productId: id, quantity: 1 });

    const [state] = await q<{ stock: number; sold: number }>(sql`select stock, sold_count as sold from products where id = ${id}`);
    const unbuyable = (buyerAdd.status === 200 ? 0 : 1) + (claimantAdd.status === 200 ? 0 : 1);
    return {
      rows: [
        { what: 'Notify-me signups while every piece was held', target: `${SUBSCRIBERS}`, measured: `${signedUp}`, ok: signedUp === SUBSCRIBERS },
        { what: 'held pieces back on the shelf after the hold lapsed (expiry job)', target: `${PIECES}, ≤ 20 s`, measured: back ? `${PIECES} in ${(returnMs / 1000).toFixed(1)} s` : 'not back', ok: back && returnMs <= 20_000 },
        { what: 'Notify-me reservations made inside the drop window', target: '0', measured: `${reservedInWindow!.n}`, ok: reservedInWindow!.n === 0 },
        { what: 'subscriber without a pass adds it (inside the window)', target: '403 (waiting room)', measured: `${subscriberAdd.status}`, ok: subscriberAdd.status === 403 },
        { what: 'admitted shopper with a pass buys a returned piece (cart, hold, pay)', target: '200, 200, paid', measured: `${buyerAdd.status}, ${intent.status}, ${paid ? 'paid' : 'not paid'}${insideWindow ? '' : ' (after the window!)'}`, ok: buyerAdd.status === 200 && intent.status === 200 && paid && insideWindow },
        { what: 'after the window: the piece left is offered to the first subscriber', target: 'mailed ≤ 30 s', measured: mail ? `mailed in ${(offeredMs / 1000).toFixed(1)} s` : 'no mail', ok: Boolean(mail) && offeredMs <= 30_000 },
        { what: 'claim token ≠ unsubscribe token', target: 'different', measured: unsub && mail ? (mail.token === unsub.token ? 'EQUAL' : 'different') : 'n/a', ok: Boolean(unsub && mail && mail.token !== unsub.token && unsub.claim_token === mail.token) },
        { what: 'stranger adds the reserved piece / claimant claims and adds it', target: '409 / 200, 200', measured: `${strangerAdd.status} / ${claim.status}, ${claimantAdd.status}`, ok: strangerAdd.status === 409 && claim.status === 200 && claimantAdd.status === 200 },
        { what: 'the claim link forwarded to a second browser', target: '403', measured: `${forwardedClaim.status}`, ok: forwardedClaim.status === 403 },
        { what: 'returned pieces nobody could buy', target: '0', measured: `${unbuyable} (sold ${state!.sold}, left ${state!.stock})`, ok: unbuyable === 0 },
      ],
    };
  });

export default scenario;
