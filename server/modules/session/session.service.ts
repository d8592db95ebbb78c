import crypto from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { sessions, type SessionData } from './session.tables';

export type { SessionData };

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Extend a session's expiry at most this often, so reads stay reads. */
const TOUCH_AFTER_MS = 60 * 60 * 1000;

export interface SessionRecord {
  sid: string;
  data: SessionData;
  expire: Date;
}

export function newSessionId(): string {
  // 192 bits from the OS CSPRNG.
  return crypto.randomBytes(24).toString('base64url');
}

/** Logs every admin out (their shopper sessions and carts stay): the password changed. Joins the caller's transaction. */
export async function revokeAdminLogins(db: DbOrTx): Promise<void> {
  await db
    .update(sessions)
    .set({ sess: sql`${sessions.sess} - 'admin'` })
    .where(sql`${sessions.sess} -> 'admin' is not null`);
}

export function createSessionService(db: Db) {
  return {
    async load(sid: string): Promise<SessionRecord | null> {
      const [row] = await db.select().from(sessions).where(eq(sessions.sid, sid)).limit(1);
      if (!row || row.expire.getTime() <= Date.now()) return null;
      if (row.expire.getTime() - Date.now() < SESSION_TTL_MS - TOUCH_AFTER_MS) {
        const expire = new Date(Date.now() + SESSION_TTL_MS);
        await db.update(sessions).set({ expire }).where(eq(sessions.sid, sid));
        row.expire = expire;
      }
      return { sid: row.sid, data: row.sess, expire: row.expire };
    },

    async create(data: SessionData = {}): Promise<SessionRecord> {
      const record = { sid: newSessionId(), data, expire: new Date(Date.now() + SESSION_TTL_MS) };
      await db.insert(sessions).values({ sid: record.sid, sess: data, expire: record.expire });
      return record;
    },

    async save(sid: string, data: SessionData): Promise<void> {
      await db
        .update(sessions)
        .set({ sess: data, expire: new Date(Date.now() + SESSION_TTL_MS) })
        .where(eq(sessions.sid, sid));
    },

    async destroy(sid: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.sid, sid));
    },

    async pruneExpired(): Promise<number> {
      const rows = await db.delete(sessions).where(lt(sessions.expire, sql`now()`)).returning({ sid: sessions.sid });
      return rows.length;
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
