import { expect, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { describeEachDb } from '../../../tests/support/build-test-app';
import { newSessionId, SESSION_TTL_MS } from './session.service';
import { sessions } from './session.tables';

test('session ids are 192 random bits, URL-safe', () => {
  const ids = new Set(Array.from({ length: 1000 }, newSessionId));
  expect(ids.size).toBe(1000);
  for (const id of [...ids].slice(0, 20)) {
    expect(id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(Buffer.from(id, 'base64url').length).toBe(24);
  }
});

describeEachDb(
  'session service',
  (t) => {
    test('create, load, save and destroy round-trip through the sessions table', async () => {
      const svc = t().services.sessions;
      const rec = await svc.create({ hello: 'world' });
      expect(rec.expire.getTime()).toBeGreaterThan(Date.now() + SESSION_TTL_MS - 60_000);
      expect((await svc.load(rec.sid))?.data).toEqual({ hello: 'world' });
      await svc.save(rec.sid, { hello: 'again' });
      expect((await svc.load(rec.sid))?.data).toEqual({ hello: 'again' });
      await svc.destroy(rec.sid);
      expect(await svc.load(rec.sid)).toBeNull();
      expect(await svc.load('no-such-session')).toBeNull();
    });

    test('an expired row is never loaded', async () => {
      const svc = t().services.sessions;
      const rec = await svc.create();
      await t()
        .services.db.update(sessions)
        .set({ expire: new Date(Date.now() - 1) })
        .where(eq(sessions.sid, rec.sid));
      expect(await svc.load(rec.sid)).toBeNull();
    });

    test('loading an old-but-live session extends it; a recent one is left alone (reads stay reads)', async () => {
      const svc = t().services.sessions;
      const rec = await svc.create();
      const soon = new Date(Date.now() + 24 * 3600 * 1000);
      await t().services.db.update(sessions).set({ expire: soon }).where(eq(sessions.sid, rec.sid));
      const loaded = await svc.load(rec.sid);
      expect(loaded!.expire.getTime()).toBeGreaterThan(Date.now() + SESSION_TTL_MS - 60_000);
      const [row] = await t().services.db.select().from(sessions).where(eq(sessions.sid, rec.sid));
      expect(row.expire.getTime()).toBe(loaded!.expire.getTime());

      const fresh = await svc.create();
      const [before] = await t().services.db.select().from(sessions).where(eq(sessions.sid, fresh.sid));
      await svc.load(fresh.sid);
      const [after] = await t().services.db.select().from(sessions).where(eq(sessions.sid, fresh.sid));
      expect(after.expire.getTime()).toBe(before.expire.getTime());
    });

    test('expired sessions are pruned by the scheduled job; live ones stay', async () => {
      const { db, sessions: svc, jobs } = t().services;
      const live = await svc.create({ keep: true });
      const dead = await Promise.all([svc.create(), svc.create(), svc.create()]);
      for (const d of dead)
        await db
          .update(sessions)
          .set({ expire: new Date(Date.now() - 60_000) })
          .where(eq(sessions.sid, d.sid));

      await jobs.runAll();

      for (const d of dead)
        expect(await db.select().from(sessions).where(eq(sessions.sid, d.sid))).toHaveLength(0);
      expect(await db.select().from(sessions).where(eq(sessions.sid, live.sid))).toHaveLength(1);
      expect(await svc.pruneExpired()).toBe(0);
    });
  },
  { seed: false },
);
