import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { describeEachDb, type TestApp, type TestClient } from '../../../tests/support/build-test-app';
import { createDrop, dropStatus, joinDrop, restartPacing } from '../../../tests/support/drops';
import { readRoom } from './drops.repository';
import { dropQueue } from './drops.tables';

const MINUTE = 60_000;
let ipSeq = 0;
const freshIp = () => `10.77.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

/** The .eml files of the shop's outbox (no SMTP_URL: one file per message). */
function outbox(t: TestApp): string[] {
  const dir = path.join(t.dataDir, 'outbox');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.eml')).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')) : [];
}
/** Quoted-printable soft breaks and escapes undone, enough to read the text part. */
const unfoldQp = (eml: string) => eml.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

async function admitted(t: TestApp, shopper: TestClient, productId: string): Promise<void> {
  await restartPacing(t, productId);
  await expect
    .poll(
      async () => {
        await t.services.drops.tick();
        return (await dropStatus(shopper, productId)).ticket?.status;
      },
      { timeout: 10_000, interval: 100 },
    )
    .toBe('admitted');
}

describeEachDb("Waiting-room ticket: \"E-mail me when it's my turn\", the page's heartbeat, Leave the line", (t) => {
  test('the e-mail is checked and needs this session to hold a ticket here', async () => {
    const id = await createDrop(t(), -1_000, { name: 'Checked Tee', stock: 5 });
    const stranger = t().client();
    const none = await stranger.request({ method: 'PUT', url: `/api/drops/${id}/ticket/email`, payload: { email: 'a@example.com' } });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ message: 'You are not in this waiting room.' });
    const shopper = t().client();
    expect((await joinDrop(shopper, id, { ip: freshIp() })).statusCode).toBe(201);
    const bad = await shopper.request({ method: 'PUT', url: `/api/drops/${id}/ticket/email`, payload: { email: 'nope' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'Please enter a valid email address' });
    const ok = await shopper.request({ method: 'PUT', url: `/api/drops/${id}/ticket/email`, payload: { email: ' Ada@Example.com ' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: "We'll e-mail you when it's your turn." });
    const [row] = await t().database.db.select().from(dropQueue).where(eq(dropQueue.productId, id));
    expect(row!.email).toBe('ada@example.com');
  });

  test("admitted with the page hidden: one your-turn mail in the outbox; a seen page gets none; the hidden report alone never lengthens the pass, the mailed link does", async () => {
    const id = await createDrop(t(), -1_000, { name: 'Turn Tee', stock: 5 });
    const hidden = t().client();
    const seen = t().client();
    const quiet = t().client();
    for (const c of [hidden, seen, quiet]) expect((await joinDrop(c, id, { ip: freshIp() })).statusCode).toBe(201);
    for (const [c, who] of [
      [hidden, 'hidden@example.com'],
      [seen, 'seen@example.com'],
    ] as const)
      expect((await c.request({ method: 'PUT', url: `/api/drops/${id}/ticket/email`, payload: { email: who } })).statusCode).toBe(200);
    // Both pages were seen a while ago; then one tab is hidden and the other stays in view.
    for (const c of [hidden, seen]) {
      const beat = await c.post(`/api/drops/${id}/ticket/heartbeat`, { visible: true });
      expect(beat.statusCode).toBe(200);
      expect(beat.json()).toEqual({ visible: true });
    }
    await t().database.db.update(dropQueue).set({ seenAt: sql`now() - interval '1 minute'` }).where(eq(dropQueue.productId, id));
    expect((await hidden.post(`/api/drops/${id}/ticket/heartbeat`, { visible: false })).statusCode).toBe(200);
    expect((await seen.post(`/api/drops/${id}/ticket/heartbeat`, { visible: true })).statusCode).toBe(200);

    for (const c of [hidden, seen, quiet]) await admitted(t(), c, id);
    const before = Date.parse((await dropStatus(hidden, id)).ticket!.passExpiresAt!);
    // Several runs at once (as several instances would): each ticket is mailed once (other tests' drops may
    // have admitted shoppers too, so this drop's mails are counted in the outbox).
    await Promise.all([t().services.turnMail.sendTurnMails(), t().services.turnMail.sendTurnMails()]);
    expect(await t().services.turnMail.sendTurnMails()).toBe(0);

    const mails = outbox(t())
      .map(unfoldQp)
      .filter((m) => m.includes(id));
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail).toMatch(/^To: hidden@example\.com$/m);
    expect(mail).toMatch(/^Subject: It's your turn: Turn Tee$/m);
    expect(mail).toContain('open the link below before then and you get 10 more minutes to buy');
    expect(mail).not.toContain('seen@example.com');
    const link = new URL(new RegExp(`https?://\\S+/api/drops/${id}/turn\\?token=[\\w.-]+`).exec(mail)![0]);

    // The page reported itself hidden and was mailed: its pass is still DROP_PASS_MINUTES from the admission.
    await t().services.drops.tick();
    expect(Date.parse((await dropStatus(hidden, id)).ticket!.passExpiresAt!)).toBe(before);
    const unchanged = await hidden.post(`/api/drops/${id}/pass`);
    expect(unchanged.statusCode, unchanged.body).toBe(200);
    expect(Date.parse((unchanged.json() as { expiresAt: string }).expiresAt)).toBe(before);

    // The link opened elsewhere (another browser, a mail scanner's fetch) goes to the room but gives nothing.
    const elsewhere = await seen.get(link.pathname + link.search);
    expect(elsewhere.statusCode).toBe(303);
    await t().services.drops.tick();
    expect(Date.parse((await dropStatus(hidden, id)).ticket!.passExpiresAt!)).toBe(before);
    // A token that is not ours is refused.
    const forged = await hidden.get(`${link.pathname}?token=${link.searchParams.get('token')!.slice(0, -2)}xx`);
    expect(forged.statusCode).toBe(404);
    expect(forged.json()).toEqual({ message: 'This link is not valid (any more).' });

    // Followed by the shopper who holds the place: on to the waiting room, and the pass now ends
    // DROP_PASS_MINUTES + 10 minutes after the mail (the status is answered from the room's last read).
    const followed = await hidden.get(link.pathname + link.search);
    expect(followed.statusCode).toBe(303);
    expect(followed.headers.location).toBe(`/product/${id}#waiting-room`);
    await expect
      .poll(async () => {
        await t().services.drops.tick();
        return Date.parse((await dropStatus(hidden, id)).ticket!.passExpiresAt!);
      })
      .toBeGreaterThan(before + 9 * MINUTE);
    const after = Date.parse((await dropStatus(hidden, id)).ticket!.passExpiresAt!);
    expect(after).toBeGreaterThan(Date.now() + t().config.DROP_PASS_MINUTES * MINUTE + 9 * MINUTE);
    const pass = await hidden.post(`/api/drops/${id}/pass`);
    expect(pass.statusCode, pass.body).toBe(200);
    expect(Date.parse((pass.json() as { expiresAt: string }).expiresAt)).toBe(after);
    // Following it again gives nothing more.
    expect((await hidden.get(link.pathname + link.search)).statusCode).toBe(303);
    await t().services.drops.tick();
    expect(Date.parse((await dropStatus(hidden, id)).ticket!.passExpiresAt!)).toBe(after);
  });

  test('Leave the line: the ticket is left, the line is one shorter, a second leave or a stranger is 404', async () => {
    const id = await createDrop(t(), 5 * MINUTE, { name: 'Leave Tee', stock: 5 });
    const a = t().client();
    const b = t().client();
    for (const c of [a, b]) expect((await joinDrop(c, id, { ip: freshIp() })).statusCode).toBe(201);
    await t().services.drops.tick();
    expect((await dropStatus(b, id)).queueLength).toBe(2);

    const left = await a.request({ method: 'DELETE', url: `/api/drops/${id}/queue` });
    expect(left.statusCode).toBe(200);
    expect(left.json()).toEqual({ message: 'You left the line.' });
    // At once, before any new ranking read: the leaver's own status says 'left', not the old place.
    expect((await dropStatus(a, id)).ticket?.status).toBe('left');
    const rows = await t().database.db.select().from(dropQueue).where(eq(dropQueue.productId, id));
    expect(rows.map((r) => r.status).sort()).toEqual(['left', 'waiting']);
    // The ranking read every stream is pushed from knows the place was left (else the leaver's stream would
    // be told "no place" and the page would offer Join instead of Rejoin).
    const leaver = rows.find((r) => r.status === 'left')!.sessionId;
    expect((await readRoom(t().database.db, id))?.tickets.get(leaver)?.status).toBe('left');
    await expect
      .poll(async () => {
        await t().services.drops.tick();
        return (await dropStatus(b, id)).queueLength;
      })
      .toBe(1);
    expect((await dropStatus(a, id)).ticket?.status).toBe('left');

    const again = await a.request({ method: 'DELETE', url: `/api/drops/${id}/queue` });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'You are not in this waiting room.' });
    expect((await t().client().request({ method: 'DELETE', url: `/api/drops/${id}/queue` })).statusCode).toBe(404);
  });
});
