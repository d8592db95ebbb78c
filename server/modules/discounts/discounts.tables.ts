import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Discount codes: FALL15 (unlimited), each newsletter signup's single-use welcome code, the owner's codes. */
export const discountCodes = pgTable(
  'discount_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull().unique(),
    discountPercent: integer('discount_percent').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    usageCount: integer('usage_count').notNull().default(0),
    /** null = unlimited (FALL15); the spec's default of 1 makes codes single-use. */
    maxUsage: integer('max_usage').default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    check('discount_percent_range', sql`${t.discountPercent} between 1 and 100`),
    check('discount_usage_within_max', sql`${t.maxUsage} is null or ${t.usageCount} <= ${t.maxUsage}`),
  ],
);
