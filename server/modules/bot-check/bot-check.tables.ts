import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Proof-of-work challenges already used (bot-check.service.ts): a solved challenge is accepted once,
 * on any instance. Kept until the challenge itself expires, then pruned by a job.
 */
export const spentPowChallenges = pgTable(
  'spent_pow_challenges',
  {
    signature: text('signature').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('spent_pow_challenges_expires_at_idx').on(t.expiresAt)],
);
