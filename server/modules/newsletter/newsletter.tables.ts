import { pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const newsletterSubscriptions = pgTable(
  'newsletter_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull().unique(),
    discountCode: text('discount_code'),
    subscribedAt: timestamp('subscribed_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Keyed hash of the folded mailbox (common/domain/identity.ts, ADR 013): one welcome code per inbox,
     * however it is spelt. Null only on a row from before folding that shares its mailbox with an older row.
     */
    mailboxKey: text('mailbox_key'),
  },
  (t) => [uniqueIndex('newsletter_subscriptions_mailbox_key_idx').on(t.mailboxKey)],
);
