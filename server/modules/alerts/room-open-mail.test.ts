import fs from 'node:fs';
import { formatShopTime } from '../../../common/domain/date-time-format';
import path from 'node:path';
import ICAL from 'ical.js';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { buildApp } from '../../app';
import { createManualClock } from '../../lib/db-clock';
import { openDatabase } from '../../db/client';
import { describeEachDb, type TestApp, type TestClient } from '../../../tests/support/build-test-app';
import { solvePow } from '../../../tests/support/pow';
import { createProduct } from '../../../tests/support/shop-fixtures';
import { productAlerts } from './alerts.tables';

const MINUTE = 60_000;

async function signUp(shopper: TestClient, productId: string, email: string) {
  const altcha = await solvePow((await shopper.get('/api/pow-challenge')).json());
  return shopper.post(`/api/products/${productId}/alerts`, { email, altcha });
}

/** The .eml files of the shop's outbox (no SMTP_URL: one file per message), raw. */
function outbox(t: TestApp): string[] {
  const dir = path.join(t.dataDir, 'outbox');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.eml')).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')) : [];
}

/** A MIME part's body by its content type (base64 or quoted-printable as nodemailer writes them). */
function mimePart(eml: string, contentType: string): string {
  const start = eml.indexOf(`Content-Type: ${contentType}`);
  if (start < 0) throw new Error(`no ${contentType} part`);
  const part = eml.slice(start);
  const [head, ...rest] = part.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n').split(/\r?\n--/)[0]!;
  if (/Content-Transfer-Encoding: base64/i.test(head!)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** The Subject header, unfolded and its RFC 2047 encoded words decoded. */
function subjectOf(eml: string): string {
  const m = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(eml);
  if (!m) throw new Error('no Subject');
  return m[1]!
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_w, enc: string, data: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'),
    );
}

/** Parses an .ics with ical.js and returns its one VEVENT (RFC 5545: fails on a malformed file). */
function eventOf(ics: string) {
  const cal = new ICAL.Component(ICAL.parse(ics));
  const events = cal.getAllSubcomponents('vevent');
  expect(events).toHaveLength(1);
  const ev = events[0]!;
  return {
    start: (ev.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().getTime(),
    uid: ev.getFirstPropertyValue('uid'),
    stamp: ev.getFirstPropertyValue('dtstamp'),
    summary: ev.getFirstPropertyValue('summary'),
    url: ev.getFirstPropertyValue('url'),
    alarms: ev.getAllSubcomponents('valarm').map((a) => ({ action: a.getFirstPropertyValue('action'), trigger: String(a.getFirstPropertyValue('trigger')) })),
    version: cal.getFirstPropertyValue('version'),
  };
}

describeEachDb("Notify me: the mail goes out when the waiting room opens, with the drop's calendar event", (t) => {
  test('room-open mail: sent before the release exactly once per subscriber (two instances), in the outbox with a valid .ics; nothing again at the release', async () => {
    const db = t().database.db;
    // A release on a whole minute, so the mail's '18:00'-style time is exact.
    const releaseAt = new Date(Math.ceil((Date.now() + 2 * 3_600_000) / MINUTE) * MINUTE);
    const raffleMs = t().config.DROP_RAFFLE_MINUTES * MINUTE;
    const id = await createProduct(db, { name: 'Room Tee', releaseAt });
    const people = ['ada@example.com', 'bob@example.com'];
    for (const p of people) expect((await signUp(t().client(), id, p)).statusCode).toBe(201);

    // Before the room opens: nothing.
    await t().services.alerts.sendReleaseAlerts(releaseAt.getTime() - raffleMs - 1_000);
    expect(outbox(t()).filter((m) => m.includes('Room Tee'))).toHaveLength(0);

    // The room opened (1 s in), several runs on two instances at once.
    const opened = releaseAt.getTime() - raffleMs + 1_000;
    const otherDb = await openDatabase({ databaseUrl: t().config.DATABASE_URL, poolSize: 5 });
    let other: FastifyInstance | null = null;
    try {
      other = await buildApp(t().config, { database: otherDb, sessionSecret: 'test-session-secret-test-session-secret-0123', logger: false });
      await other.ready();
      await Promise.all([
        t().services.alerts.sendReleaseAlerts(opened),
        other.services.alerts.sendReleaseAlerts(opened),
        t().services.alerts.sendReleaseAlerts(opened),
      ]);
    } finally {
      await other?.close();
      await otherDb.close();
    }
    // Later runs, at and after the release, send nothing more.
    await t().services.alerts.sendReleaseAlerts(releaseAt.getTime() + 1_000);
    await t().services.alerts.sendReleaseAlerts(releaseAt.getTime() + 3_600_000);

    const mails = outbox(t()).filter((m) => m.includes('Room Tee'));
    expect(mails).toHaveLength(2);
    const hhmm = formatShopTime(releaseAt, { timeZone: 'UTC' });
    for (const p of people) {
      const mine = mails.filter((m) => new RegExp(`^To: ${p.replace('.', '\\.')}$`, 'm').test(m));
      expect(mine).toHaveLength(1);
      const eml = mine[0]!;
      expect(subjectOf(eml)).toBe(`Room Tee: the waiting room is open — join before ${hhmm} UTC`);
      const text = mimePart(eml, 'text/plain');
      expect(text).toContain(`Join before ${hhmm} UTC to be in the draw.`);
      expect(text).toContain(`Join the waiting room: http://localhost:${t().config.PORT}/product/${id}#waiting-room`);
      expect(text).toContain(`/api/products/${id}/calendar.ics`);
      for (const o of people.filter((x) => x !== p)) expect(eml).not.toContain(o);

      const ev = eventOf(mimePart(eml, 'text/calendar'));
      expect(ev.version).toBe('2.0');
      expect(ev.start).toBe(releaseAt.getTime() - raffleMs);
      expect(ev.uid).toBe(`drop-${id}@localhost:${t().config.PORT}`);
      expect(ev.stamp).toBeTruthy();
      expect(ev.summary).toBe('Room Tee drops: the waiting room opens');
      expect(ev.url).toBe(`http://localhost:${t().config.PORT}/product/${id}#waiting-room`);
      expect(ev.alarms).toEqual([{ action: 'DISPLAY', trigger: '-PT10M' }]);
    }
    const rows = await db.select().from(productAlerts).where(eq(productAlerts.productId, id));
    expect(rows.every((r) => r.notifiedAt !== null)).toBe(true);
  });

  test('Add to calendar: GET /api/products/:id/calendar.ics is a download of the same event; no drop → 404 JSON', async () => {
    const releaseAt = new Date(Date.now() + 3 * 3_600_000);
    const id = await createProduct(t().database.db, { name: 'Cal Tee', releaseAt });
    const res = await t().app.inject({ url: `/api/products/${id}/calendar.ics` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="drop.ics"');
    const ev = eventOf(res.body);
    expect(ev.start).toBe(Math.floor((releaseAt.getTime() - t().config.DROP_RAFFLE_MINUTES * MINUTE) / 1000) * 1000);
    expect(ev.summary).toBe('Cal Tee drops: the waiting room opens');

    const plain = await createProduct(t().database.db, { name: 'Plain Tee' });
    const none = await t().app.inject({ url: `/api/products/${plain}/calendar.ics` });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ message: 'This piece has no drop to add to a calendar.' });
    const bad = await t().app.inject({ url: `/api/products/not-a-uuid/calendar.ics` });
    expect(bad.statusCode).toBe(400);
  });
});

// The shop's one drop-day clock (ADR 010 "One clock"), here a test's: the scheduled job mails by it, not by
// this instance's own clock, so an instance whose clock runs ahead never mails before the room opens.
const roomClock = createManualClock(Date.UTC(2031, 4, 17, 9, 0));
describeEachDb(
  'Notify me: the scheduled job mails when the room opens by the shop’s clock',
  (t) => {
    test('nothing before the room opens by the shop’s clock, the mail once it has, though real time never got there', async () => {
      const raffleMs = t().config.DROP_RAFFLE_MINUTES * MINUTE;
      // Years ahead of real time: only the shop's clock can reach it.
      const releaseAt = new Date(Date.UTC(2031, 4, 17, 12, 0));
      const id = await createProduct(t().database.db, { name: 'Clock Tee', releaseAt });
      roomClock.set(Date.now());
      expect((await signUp(t().client(), id, 'clock@example.com')).statusCode).toBe(201);
      roomClock.set(releaseAt.getTime() - raffleMs - 1_000);
      await t().services.jobs.runAll();
      expect(outbox(t()).filter((m) => m.includes('Clock Tee'))).toHaveLength(0);
      roomClock.set(releaseAt.getTime() - raffleMs + 1_000);
      await t().services.jobs.runAll();
      expect(outbox(t()).filter((m) => m.includes('Clock Tee') && m.includes('clock@example.com'))).toHaveLength(1);
    });
  },
  { deps: { clock: roomClock } },
);

// SHOP_TIME_ZONE: the mails name times on the shop's own clock. 12:00 UTC on 17 May 2031 is 14:00 in Berlin
// (summer time) and 08:00 in New York.
const zoneClock = createManualClock(Date.UTC(2031, 4, 17, 9, 0));
describeEachDb(
  'Notify me in the shop’s time zone',
  (t) => {
    test('the room-open mail and its calendar description name the release at 2:00 PM CEST, not 12:00 PM UTC', async () => {
      const raffleMs = t().config.DROP_RAFFLE_MINUTES * MINUTE;
      const releaseAt = new Date(Date.UTC(2031, 4, 17, 12, 0));
      const id = await createProduct(t().database.db, { name: 'Zone Tee', releaseAt });
      zoneClock.set(Date.now());
      expect((await signUp(t().client(), id, 'zone@example.com')).statusCode).toBe(201);
      zoneClock.set(releaseAt.getTime() - raffleMs + 1_000);
      await t().services.jobs.runAll();
      const [eml] = outbox(t()).filter((m) => m.includes('Zone Tee'));
      expect(subjectOf(eml!)).toBe('Zone Tee: the waiting room is open — join before 2:00 PM CEST');
      expect(mimePart(eml!, 'text/plain')).toContain('Join before 2:00 PM CEST to be in the draw.');
      expect(eml).not.toContain('12:00 PM UTC');
      const ics = mimePart(eml!, 'text/calendar');
      // The event's own times stay absolute (a calendar shows them in its reader's zone).
      expect(eventOf(ics).start).toBe(releaseAt.getTime() - raffleMs);
      expect(ics.replace(/\r\n /g, '')).toContain('Join the waiting room before 2:00 PM CEST');
    });
  },
  { env: { SHOP_TIME_ZONE: 'Europe/Berlin' }, deps: { clock: zoneClock } },
);
