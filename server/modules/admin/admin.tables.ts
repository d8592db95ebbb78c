import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Small key/value store for settings the shop generates itself (admin password hash). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Admin login slow-down, one row per client address (IPv6 by /64) plus one global row: every attempt
 * is reserved here, in one statement, before the password is checked (admin-auth.repository).
 */
export const adminLoginThrottle = pgTable('admin_login_throttle', {
  key: text('key').primaryKey(),
  /** Attempts reserved since the key was last quiet for an hour (a success from the address resets it). */
  attempts: integer('attempts').notNull().default(0),
  /** No attempt is reserved before this moment. */
  nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
  lastAt: timestamp('last_at', { withTimezone: true }).notNull().defaultNow(),
});
