import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export interface SessionData {
  /** at: last admin activity; since: the login (absolute lifetime). */
  admin?: { at: number; since?: number };
  [key: string]: unknown;
}

export const sessions = pgTable(
  'sessions',
  {
    sid: text('sid').primaryKey(),
    sess: jsonb('sess').$type<SessionData>().notNull().default({}),
    expire: timestamp('expire', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_expire_idx').on(t.expire)],
);
