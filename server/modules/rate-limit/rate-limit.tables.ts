import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Request counters of the rate limits (rate-limit.store.ts), shared by every app instance on the
 * database: one row per limit and key (session, shopper identity or network address, all hashed),
 * counting requests in a fixed window that ends at `reset_at`. Expired rows are pruned by a job.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_reset_at_idx').on(t.resetAt)],
);
