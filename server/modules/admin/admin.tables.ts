import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Small key/value store for settings the shop generates itself (admin password hash). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Admin login slow-down, one row per client network (IPv6 by IPV6_PREFIX), per /48 share when that prefix is
 * narrower, per known device, plus one global row: every attempt is reserved here, in one statement, before
 * the password is checked (admin-auth.repository).
 */
export const adminLoginThrottle = pgTable('admin_login_throttle', {
  key: text('key').primaryKey(),
  /** Attempts reserved since the key was last quiet for an hour (a success from the address resets it). */
  attempts: integer('attempts').notNull().default(0),
  /** No attempt is reserved before this moment. */
  nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
  lastAt: timestamp('last_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The owner's known devices (ADR 012): created only by a successful login, looked up by the hash of the
 * random token their cookie carries (the token itself is never stored), revocable from the admin. A
 * device counts only while its `password_tag` matches the current password hash, so any password
 * change, by any route, retires every device. Where it was last used is a coarse label, never an address.
 */
export const adminDevices = pgTable('admin_devices', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** SHA-256 (base64url) of the cookie's 256-bit random token. */
  tokenHash: text('token_hash').notNull().unique(),
  /** A short hash of the password hash the device logged in under. */
  passwordTag: text('password_tag').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  /** Browser family and OS from the user agent at the last login ("Firefox on macOS"). */
  lastAgent: text('last_agent').notNull(),
  /** 6 hex characters of a keyed hash of the last login's network (IPv6 by IPV6_PREFIX): tells networks apart, names none. */
  lastNetwork: text('last_network').notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});
